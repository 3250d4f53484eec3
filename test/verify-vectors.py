#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# verify-vectors.py - print the edge lines of test/verify-vectors.txt (how
# they were made; the suite reads the file, it does not run this).
#
# Big-integer Ed25519 from the definitions in RFC 8032 5.1, affine
# coordinates. Each signature refused here (status 1 or 4) is one that a
# verifier missing that one check would accept, and the script asserts so:
#   S + L           accepted by one that reduces S mod L
#   non-canonical R accepted by one that decodes R and compares points
#   small-order A   [S]B - [k]A = R holds: only the key check refuses it
# The non-canonical and off-curve keys are refused before any signature.
import hashlib

p = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
d = -121665 * pow(121666, p - 2, p) % p
I = pow(2, (p - 1) // 4, p)
O = (0, 1)


def inv(x):
    return pow(x, p - 2, p)


def x_of(y, sign):
    """x for y with that low bit, or None (RFC 8032 5.1.3, y < p)."""
    x2 = (y * y - 1) * inv(d * y * y + 1) % p
    x = pow(x2, (p + 3) // 8, p)
    if (x * x - x2) % p:
        x = x * I % p
    if (x * x - x2) % p or (x == 0 and sign):
        return None
    return p - x if x & 1 != sign else x


def add(P, Q):
    (x1, y1), (x2, y2) = P, Q
    t = d * x1 * x2 * y1 * y2 % p
    return ((x1 * y2 + x2 * y1) * inv(1 + t) % p, (y1 * y2 + x1 * x2) * inv(1 - t) % p)


def mul(s, P):
    Q = O
    while s:
        if s & 1:
            Q = add(Q, P)
        P, s = add(P, P), s >> 1
    return Q


def neg(P):
    return ((p - P[0]) % p, P[1])


def enc(P):
    return (P[1] | (P[0] & 1) << 255).to_bytes(32, "little")


def dec(s):
    """The point of s, non-canonical y taken mod p (a lenient decoder)."""
    n = int.from_bytes(s, "little")
    y = (n & ((1 << 255) - 1)) % p
    return (x_of(y, n >> 255), y)


def H(*parts):
    return int.from_bytes(hashlib.sha512(b"".join(parts)).digest(), "little")


B = (x_of(4 * inv(5) % p, 0), 4 * inv(5) % p)
assert mul(L, B) == O


def line(name, status, A, m, R, S):
    print(name, status, A.hex(), m.hex() or "-", R.hex() + S.to_bytes(32, "little").hex())


# RFC 8032 7.1 TEST 1's key and signature, with S + L and S = L.
seed = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
A1 = bytes.fromhex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
sig1 = bytes.fromhex("e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b")
R1, S1 = sig1[:32], int.from_bytes(sig1[32:], "little")
k1 = H(R1, A1) % L
assert mul(S1, B) == add(dec(R1), mul(k1, dec(A1)))
line("s-plus-l", 1, A1, b"", R1, S1 + L)
line("s-is-l", 1, A1, b"", R1, L)

# R the identity (r = 0: S = k a), encoded canonically (y = 1) and not
# (y = p + 1).
h = hashlib.sha512(seed).digest()
a = (int.from_bytes(h[:32], "little") & ((1 << 254) - 8)) | 1 << 254
assert enc(mul(a, B)) == A1
m = b"R is the identity"
for name, status, R in (("r-identity", 0, enc(O)), ("r-noncanonical", 1, (p + 1).to_bytes(32, "little"))):
    S = H(R, A1, m) % L * a % L
    assert mul(S, B) == add(dec(R), mul(H(R, A1, m) % L, dec(A1)))
    line(name, status, A1, m, R, S)

# Keys of small order, each with a signature [S]B - [k]A = R.
for name, A in (("key-identity", "01" + "00" * 31),
                ("key-order-2", "ec" + "ff" * 30 + "7f"),
                ("key-order-4", "00" * 32),
                ("key-order-4-neg", "00" * 31 + "80"),
                ("key-order-8", "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"),
                ("key-order-8-neg", "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")):
    A = bytes.fromhex(A)
    P = dec(A)
    assert P[0] is not None and enc(P) == A and mul(8, P) == O
    i, found = 0, None
    while not found:
        m = b"small order %d" % i
        for j in range(8):
            R = enc(add(B, neg(mul(j, P))))  # S = 1: R = B - [j]A
            k = H(R, A, m) % L
            if mul(k, P) == mul(j, P):
                found = (m, R)
                break
        i += 1
    m, R = found
    assert add(dec(R), mul(H(R, A, m) % L, P)) == B
    line(name, 4, A, m, R, 1)

# Keys that are no canonical point: y = p + 1 (the identity), y = p + 3 (a
# point of large order), x = 0 with the sign bit set, y = 2 (no x).
for name, A in (("key-noncanonical-identity", (p + 1).to_bytes(32, "little")),
                ("key-noncanonical", (p + 3).to_bytes(32, "little")),
                ("key-x0-sign", bytes.fromhex("01" + "00" * 30 + "80")),
                ("key-off-curve", bytes.fromhex("02" + "00" * 31))):
    line(name, 4, A, b"", R1, S1)
assert mul(8, dec((p + 3).to_bytes(32, "little"))) != O and x_of(2, 0) is None
