/* SPDX-License-Identifier: MIT */
/*
 * fwload-verify - check a file's detached Ed25519 signature, in signify's
 * format (OpenBSD signify, OpenWrt usign, minisign -l).
 *
 *   fwload-verify [-k KEYDIR] [-c [-v]] FILE
 *   fwload-verify -l [-k KEYDIR]
 *
 *   1. every *.pub in KEYDIR (SYSCONFDIR/fwload/keys): the directory and
 *      each key root's alone (util.h's ours_alone()), each key well formed,
 *      a point of large order, its key number its own; else no key is
 *      trusted                                                       -> 4
 *   2. FILE.sig: "untrusted comment: ...", then the base64 of "Ed", the
 *      key number and the 64-byte signature (then minisign's two trusted
 *      lines, whose content is not read)                           -> 2
 *   3. the key of that number                                       -> 3
 *   4. FILE read once, whole, into memory (16 MiB at most)        -> 111
 *   5. Ed25519 (RFC 8032 5.1.7, cofactorless: S < L, R compared byte for
 *      byte with the encoding of [S]B - [k]A) over those bytes       -> 1
 *   6. "KEYNUM PATH" on stdout; with -c, the very bytes verified instead,
 *      so that a caller (fwload's COMMAND slot, the agent's copy of a
 *      signed manifest) uses what was checked; -c -v: "KEYNUM PATH" on
 *      stderr first (one read of FILE gives the caller both)
 *
 * Exit status: 0 valid, 1 bad signature, 2 no signature or a malformed
 * one, 3 no key of its number, 4 key directory or a key refused, 100 usage
 * (--help and --version too: in fwload's COMMAND slot 0 would commit their
 * text), 111 system error. One line on stderr for every status but 0 (and
 * for 0 with -v, the key's).
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#define _TIME_BITS 64
#include <sys/mman.h>
#include "util.h"

/* The keys' directory unless told otherwise (-k): SYSCONFDIR's. */
#define FWLOAD_KEYDIR FWLOAD_SYSCONFDIR "/fwload/keys"

enum { BAD_SIG = 1, NO_SIG = 2, NO_KEY = 3, BAD_KEYS = 4 };
enum { FILE_MAX = 16 << 20, KEYS_MAX = 64, COMMENT_MAX = 1024 };

static const char usage_text[] =
	"usage: fwload-verify [-k KEYDIR] [-c [-v]] FILE\n"
	"       fwload-verify -l [-k KEYDIR]\n"
	"       fwload-verify --help | --version\n"
	"Checks FILE against its signify signature FILE.sig with the key of KEYDIR\n"
	"(" FWLOAD_KEYDIR ") it names; prints \"KEYNUM PATH\", or with -c the bytes\n"
	"verified (-v: \"KEYNUM PATH\" on stderr first). -l lists the keys.\n";

#define say(...) say_as("fwload-verify", __VA_ARGS__)

/* --- SHA-512 as specified in FIPS 180-4, 6.4 --- */

struct sha512 {
	uint64_t h[8];
	uint64_t len;          /* bytes so far */
	uint8_t buf[128];      /* partial block */
};

static const uint64_t k512[80] = {  /* FIPS 180-4, 4.2.3 */
	0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc,
	0x3956c25bf348b538, 0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118,
	0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2,
	0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694,
	0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
	0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5,
	0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4,
	0xc6e00bf33da88fc2, 0xd5a79147930aa725, 0x06ca6351e003826f, 0x142929670a0e6e70,
	0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df,
	0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
	0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30,
	0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8,
	0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8,
	0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3,
	0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
	0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b,
	0xca273eceea26619c, 0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178,
	0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b,
	0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c,
	0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
};

static uint64_t ror64(uint64_t x, int n)
{
	return (x >> n) | (x << (64 - n));
}

/* FIPS 180-4, 6.4.2: one 128-byte block into the hash value H. */
static void sha512_block(uint64_t H[8], const uint8_t *p)
{
	uint64_t w[80], a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
	int i;

	for (i = 0; i < 16; i++) {
		w[i] = 0;
		for (int j = 0; j < 8; j++)
			w[i] = w[i] << 8 | p[8 * i + j];
	}
	for (; i < 80; i++)
		w[i] = (ror64(w[i - 2], 19) ^ ror64(w[i - 2], 61) ^ (w[i - 2] >> 6)) + w[i - 7] +
		       (ror64(w[i - 15], 1) ^ ror64(w[i - 15], 8) ^ (w[i - 15] >> 7)) + w[i - 16];
	for (i = 0; i < 80; i++) {
		uint64_t t1 = h + (ror64(e, 14) ^ ror64(e, 18) ^ ror64(e, 41)) + ((e & f) ^ (~e & g)) + k512[i] + w[i];
		uint64_t t2 = (ror64(a, 28) ^ ror64(a, 34) ^ ror64(a, 39)) + ((a & b) ^ (a & c) ^ (b & c));

		h = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	H[0] += a;
	H[1] += b;
	H[2] += c;
	H[3] += d;
	H[4] += e;
	H[5] += f;
	H[6] += g;
	H[7] += h;
}

/* FIPS 180-4, 5.3.5: the initial hash value. */
static void sha512_init(struct sha512 *s)
{
	static const uint64_t h0[8] = {
		0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
		0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
	};

	memcpy(s->h, h0, sizeof(h0));
	s->len = 0;
}

static void sha512_update(struct sha512 *s, const uint8_t *p, size_t n)
{
	while (n > 0) {
		size_t fill = s->len % 128, take = 128 - fill < n ? 128 - fill : n;

		if (fill == 0 && n >= 128) {
			sha512_block(s->h, p);
			take = 128;
		} else {
			memcpy(s->buf + fill, p, take);
			if (fill + take == 128)
				sha512_block(s->h, s->buf);
		}
		s->len += take;
		p += take;
		n -= take;
	}
}

/* FIPS 180-4, 5.1.2 padding (a 128-bit length, its top half 0); the digest. */
static void sha512_final(struct sha512 *s, uint8_t out[64])
{
	uint64_t bits = s->len * 8;
	uint8_t pad[144] = { 0x80 };
	size_t n = 128 - (s->len + 16) % 128;  /* 1..128 bytes of padding */

	for (int i = 0; i < 8; i++)
		pad[n + 8 + i] = (uint8_t)(bits >> (56 - 8 * i));
	sha512_update(s, pad, n + 16);
	for (int i = 0; i < 64; i++)
		out[i] = (uint8_t)(s->h[i / 8] >> (56 - 8 * (i % 8)));
}

/* --- The field GF(p), p = 2^255 - 19 --- */

/* 16 limbs of 16 bits, least significant first; each below 2^16 + 38
 * between operations (carry()), so that products fit in 64 bits. */
typedef uint32_t fe[16];

/* t's value mod p into o (2^256 = 38 mod p), limbs below 2^16 + 38:
 * for limbs of t below 2^42, the second pass carries at most 1 from limb
 * to limb, and 38 into limb 0. */
static void carry(fe o, uint64_t t[16])
{
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < 16; i++) {
			uint64_t c = t[i] >> 16;

			t[i] &= 0xffff;
			t[(i + 1) % 16] += i == 15 ? 38 * c : c;
		}
	for (int i = 0; i < 16; i++)
		o[i] = (uint32_t)t[i];
}

static void fe_add(fe o, const fe a, const fe b)
{
	uint64_t t[16];

	for (int i = 0; i < 16; i++)
		t[i] = (uint64_t)a[i] + b[i];
	carry(o, t);
}

/* o = a + 4p - b: 4p = 2^257 - 76 in limbs (2^17 - 76, 2^17 - 2, ...),
 * each above any limb of b, so no limb goes below 0. */
static void fe_sub(fe o, const fe a, const fe b)
{
	uint64_t t[16];

	for (int i = 0; i < 16; i++)
		t[i] = (uint64_t)a[i] + (i == 0 ? 0x1ffb4 : 0x1fffe) - b[i];
	carry(o, t);
}

/* o = a * b: limb products below 2^32.01; column i (0-15) gets i + 1 of
 * them, and 38 times the 15 - i of column i + 16: below 571 * 2^32.01,
 * under 2^42. */
static void fe_mul(fe o, const fe a, const fe b)
{
	uint64_t t[31] = { 0 };

	for (int i = 0; i < 16; i++)
		for (int j = 0; j < 16; j++)
			t[i + j] += (uint64_t)a[i] * b[j];
	for (int i = 0; i < 15; i++)
		t[i] += 38 * t[i + 16];
	carry(o, t);
}

/* o = a^(2^k - c), for k >= 8 and 1 <= c <= 256: the bits of 2^k - c are
 * those of 256 - c below bit 8, and 1 from bit 8 to bit k - 1. */
static void fe_pow(fe o, const fe a, int k, int c)
{
	fe r = { 1 };

	for (int i = k - 1; i >= 0; i--) {
		fe_mul(r, r, r);
		if (i >= 8 || ((256 - c) >> i & 1))
			fe_mul(r, r, a);
	}
	memcpy(o, r, sizeof(fe));
}

/* o = 1/a (a^(p - 2), p - 2 = 2^255 - 21); 0 for a = 0. */
static void fe_inv(fe o, const fe a)
{
	fe_pow(o, a, 255, 21);
}

/* s = the canonical encoding of a: its value mod p (below p), 32 bytes
 * little-endian. */
static void fe_pack(uint8_t s[32], const fe a)
{
	int64_t t[16], m[16];
	int i;

	for (i = 0; i < 16; i++)
		t[i] = a[i];
	for (i = 0; i < 15; i++) {  /* limbs 0-14 below 2^16, limb 15 below 2^16 + 39 */
		t[i + 1] += t[i] >> 16;
		t[i] &= 0xffff;
	}
	for (;;) {  /* t -= p while t >= p (t < 2^256 + 2^246 < 3p) */
		int64_t borrow = 0;

		for (i = 0; i < 16; i++) {
			m[i] = t[i] - (i == 0 ? 0xffed : i == 15 ? 0x7fff : 0xffff) - borrow;
			borrow = i < 15 && m[i] < 0;
			m[i] += borrow << 16;
		}
		if (m[15] < 0)
			break;
		memcpy(t, m, sizeof(t));
	}
	for (i = 0; i < 32; i++)
		s[i] = (uint8_t)(t[i / 2] >> (8 * (i % 2)));
}

/* o = the number in s's low 255 bits (not reduced mod p). */
static void fe_unpack(fe o, const uint8_t s[32])
{
	for (int i = 0; i < 16; i++)
		o[i] = s[2 * i] | (uint32_t)s[2 * i + 1] << 8;
	o[15] &= 0x7fff;
}

static int fe_eq(const fe a, const fe b)
{
	uint8_t x[32], y[32];

	fe_pack(x, a);
	fe_pack(y, b);
	return memcmp(x, y, 32) == 0;
}

/* --- The curve edwards25519 (RFC 8032 5.1): -x^2 + y^2 = 1 + d x^2 y^2 --- */

/* A point in extended coordinates: x = X/Z, y = Y/Z, xy = T/Z. */
struct point {
	fe X, Y, Z, T;
};

static fe D, D2, SQRTM1;  /* d, 2d, sqrt(-1) */
static struct point B;    /* the base point */

/* r = p + q (RFC 8032 5.1.4; complete: p = q too); r may be p or q. */
static void point_add(struct point *r, const struct point *p, const struct point *q)
{
	fe a, b, c, d, e, f, g, h;

	fe_sub(a, p->Y, p->X);
	fe_sub(h, q->Y, q->X);
	fe_mul(a, a, h);
	fe_add(b, p->Y, p->X);
	fe_add(h, q->Y, q->X);
	fe_mul(b, b, h);
	fe_mul(c, p->T, q->T);
	fe_mul(c, c, D2);
	fe_mul(d, p->Z, q->Z);
	fe_add(d, d, d);
	fe_sub(e, b, a);
	fe_sub(f, d, c);
	fe_add(g, d, c);
	fe_add(h, b, a);
	fe_mul(r->X, e, f);
	fe_mul(r->Y, g, h);
	fe_mul(r->T, e, h);
	fe_mul(r->Z, f, g);
}

/* s = the encoding of p (RFC 8032 5.1.2): y, and x's low bit as bit 255. */
static void point_encode(uint8_t s[32], const struct point *p)
{
	fe zi, x, y;
	uint8_t xs[32];

	fe_inv(zi, p->Z);
	fe_mul(x, p->X, zi);
	fe_mul(y, p->Y, zi);
	fe_pack(s, y);
	fe_pack(xs, x);
	s[31] |= (uint8_t)(xs[0] << 7);
}

/* The point s encodes (RFC 8032 5.1.3): 0, or -1 when y >= p, when no x
 * has that y, or when x = 0 and the sign bit is 1. */
static int point_decode(struct point *p, const uint8_t s[32])
{
	fe one = { 1 }, zero = { 0 }, u, v, v3, x, vxx;
	uint8_t y[32], xs[32];
	int sign = s[31] >> 7;

	fe_unpack(p->Y, s);
	fe_pack(y, p->Y);
	if (memcmp(y, s, 31) || y[31] != (s[31] & 0x7f))
		return -1;
	fe_mul(u, p->Y, p->Y);
	fe_mul(v, u, D);
	fe_sub(u, u, one);  /* u = y^2 - 1 */
	fe_add(v, v, one);  /* v = d y^2 + 1 */
	fe_mul(v3, v, v);
	fe_mul(v3, v3, v);
	fe_mul(x, v3, v3);
	fe_mul(x, x, v);
	fe_mul(x, x, u);
	fe_pow(x, x, 252, 3);  /* (u v^7)^((p - 5) / 8) */
	fe_mul(x, x, v3);
	fe_mul(x, x, u);       /* x = u v^3 (u v^7)^((p - 5) / 8) */
	fe_mul(vxx, x, x);
	fe_mul(vxx, vxx, v);
	if (!fe_eq(vxx, u)) {
		fe_sub(u, zero, u);
		if (!fe_eq(vxx, u))
			return -1;
		fe_mul(x, x, SQRTM1);
	}
	fe_pack(xs, x);
	if ((xs[0] & 1) != sign) {
		if (fe_eq(x, zero))
			return -1;
		fe_sub(x, zero, x);
	}
	memcpy(p->X, x, sizeof(fe));
	memcpy(p->Z, one, sizeof(fe));
	fe_mul(p->T, x, p->Y);
	return 0;
}

/* The constants, from their definitions in RFC 8032 5.1: d = -121665 /
 * 121666, sqrt(-1) = 2^((p - 1) / 4), B = (x, 4/5) with x even. */
static void curve_init(void)
{
	static int done;
	fe zero = { 0 }, n = { 121665 & 0xffff, 121665 >> 16 }, m = { 121666 & 0xffff, 121666 >> 16 };
	fe two = { 2 }, four = { 4 }, five = { 5 }, y;
	uint8_t b[32];

	if (done++)
		return;
	fe_inv(m, m);
	fe_sub(n, zero, n);
	fe_mul(D, n, m);
	fe_add(D2, D, D);
	fe_pow(SQRTM1, two, 253, 5);
	fe_inv(five, five);
	fe_mul(y, four, five);
	fe_pack(b, y);
	point_decode(&B, b);
}

/* --- Ed25519 verification (RFC 8032 5.1.7) --- */

/* L = 2^252 + 27742317777372353535851937790883648493, the order of B,
 * little-endian. */
static const uint8_t L[32] = {
	0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
};

/* Is s (32 bytes little-endian) below L? */
static int below_l(const uint8_t s[32])
{
	for (int i = 31; i >= 0; i--)
		if (s[i] != L[i])
			return s[i] < L[i];
	return 0;
}

/* r = x mod L, x n bytes little-endian: a bit at a time from the top,
 * r = 2r + bit, less L when that is L or more (2r + 1 < 2L < 2^254). */
static void mod_l(uint8_t r[32], const uint8_t *x, size_t n)
{
	memset(r, 0, 32);
	for (size_t i = 8 * n; i-- > 0;) {
		int c = x[i / 8] >> (i % 8) & 1, borrow = 0;

		for (int j = 0; j < 32; j++) {
			c |= r[j] << 1;
			r[j] = (uint8_t)c;
			c >>= 8;
		}
		if (!below_l(r))
			for (int j = 0; j < 32; j++) {
				int v = r[j] - L[j] - borrow;

				borrow = v < 0;
				r[j] = (uint8_t)(v + 256 * borrow);
			}
	}
}

/* Bit i of the little-endian number s. */
static int bit(const uint8_t *s, int i)
{
	return s[i / 8] >> (i % 8) & 1;
}

/* Why the 32 bytes pk cannot be a public key (not the canonical encoding
 * of a point; a point of small order: [8]A the identity), or NULL. */
static const char *key_refusal(const uint8_t pk[32])
{
	static const uint8_t identity[32] = { 1 };
	struct point a;
	uint8_t e[32];

	curve_init();
	if (point_decode(&a, pk) < 0)
		return "not the canonical encoding of a curve point";
	for (int i = 0; i < 3; i++)
		point_add(&a, &a, &a);
	point_encode(e, &a);
	return memcmp(e, identity, 32) ? NULL : "a point of small order";
}

/* Is sig (R, S) the signature of the n bytes m by the key pk? 0 yes; -1
 * no: pk no point, S >= L, or [S]B - [k]A, k = SHA-512(R || pk || m) mod
 * L, encoded, not R byte for byte (never for an R not canonical). */
static int ed25519_verify(const uint8_t sig[64], const uint8_t pk[32], const uint8_t *m, size_t n)
{
	struct point t[3], p = { { 0 }, { 1 }, { 1 }, { 0 } };  /* the identity */
	struct sha512 h;
	uint8_t hash[64], k[32], r[32];
	fe zero = { 0 };

	curve_init();
	if (!below_l(sig + 32) || point_decode(&t[1], pk) < 0)
		return -1;
	sha512_init(&h);
	sha512_update(&h, sig, 32);
	sha512_update(&h, pk, 32);
	sha512_update(&h, m, n);
	sha512_final(&h, hash);
	mod_l(k, hash, 64);
	/* t: B, -A, B - A; p = [S]B + [k](-A), one doubling a bit (both < 2^253) */
	t[0] = B;
	fe_sub(t[1].X, zero, t[1].X);
	fe_sub(t[1].T, zero, t[1].T);
	point_add(&t[2], &t[0], &t[1]);
	for (int i = 252; i >= 0; i--) {
		int b = bit(sig + 32, i) | bit(k, i) << 1;

		point_add(&p, &p, &p);
		if (b)
			point_add(&p, &p, &t[b - 1]);
	}
	point_encode(r, &p);
	return memcmp(r, sig, 32) ? -1 : 0;
}

/* --- signify's files --- */

/* out = the want bytes whose base64 (RFC 4648 4: the standard alphabet,
 * '=' padding) is exactly the n characters s: 0, or -1 for any other
 * length, character, padding, or unused bits not 0. */
static int b64_decode(uint8_t *out, size_t want, const char *s, size_t n)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t pad = (3 - want % 3) % 3, o = 0;
	unsigned acc = 0, bits = 0;
	const char *c;

	if (n != (want + 2) / 3 * 4)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (i >= n - pad) {
			if (s[i] != '=')
				return -1;
			continue;
		}
		if (!s[i] || !(c = strchr(abc, s[i])))
			return -1;
		acc = (acc << 6 | (unsigned)(c - abc)) & 0xfff;
		if ((bits += 6) >= 8)
			out[o++] = (uint8_t)(acc >> (bits -= 8));
	}
	return acc & ((1u << bits) - 1) ? -1 : 0;
}

/*
 * The n bytes at buf as signify writes them: "untrusted comment: TEXT\n"
 * (the line at most COMMENT_MAX bytes), the base64 of want bytes (into
 * out), "\n". Where the rest begins, or NULL.
 */
static const char *signify_lines(const char *buf, size_t n, uint8_t *out, size_t want)
{
	static const char head[] = "untrusted comment: ";
	const char *end = buf + n, *nl = memchr(buf, '\n', n);

	if (!nl || nl - buf > COMMENT_MAX || (size_t)(nl - buf) < sizeof(head) - 1 ||
	    memcmp(buf, head, sizeof(head) - 1) != 0)
		return NULL;
	buf = nl + 1;
	if (!(nl = memchr(buf, '\n', (size_t)(end - buf))) || b64_decode(out, want, buf, (size_t)(nl - buf)) < 0)
		return NULL;
	return nl + 1;
}

/* Is p..end what minisign -l writes after the signature: nothing, or
 * "trusted comment: ...\n" and one more line (the global signature)? */
static int minisign_tail(const char *p, const char *end)
{
	static const char head[] = "trusted comment: ";
	const char *nl;

	if (p == end)
		return 1;
	if ((size_t)(end - p) < sizeof(head) - 1 || memcmp(p, head, sizeof(head) - 1) != 0 ||
	    !(nl = memchr(p, '\n', (size_t)(end - p))))
		return 0;
	p = nl + 1;
	return p < end - 1 && memchr(p, '\n', (size_t)(end - p)) == end - 1;
}

/* Up to n bytes of the file open as fd into buf: how many (n: maybe
 * more), or -1 (errno). */
static ssize_t read_most(int fd, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)buf + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -1 : (ssize_t)got;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* --- The keys --- */

static struct key {
	uint8_t num[8], pk[32];
	char name[256];
} keys[KEYS_MAX];
static int nkeys;
static const char *keydir, *sep;  /* KEYDIR, and "/" unless it ends in one */

static void hex(char out[17], const uint8_t num[8])
{
	for (int i = 0; i < 16; i++)
		out[i] = "0123456789abcdef"[num[i / 2] >> (i % 2 ? 0 : 4) & 15];
	out[16] = '\0';
}

/* The key file name in the directory d into keys[] (kept sorted by name):
 * 0, or -1 (said) when it is refused. */
static int key_load(int d, const char *name)
{
	char buf[COMMENT_MAX + 64], num[17];  /* a key file: COMMENT_MAX + 58 bytes at most */
	uint8_t k[42];
	struct stat st;
	const char *why = NULL, *rest;
	ssize_t n;
	int fd = openat(d, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), i, ret = -1;

	if (fd < 0 && errno == ELOOP) {
		why = "a symbolic link";
	} else if (fd < 0 || fstat(fd, &st) < 0) {
		say("key %q%s%q: cannot open%e", keydir, sep, name, errno);
		goto close_key;
	} else if (!S_ISREG(st.st_mode)) {
		why = "not a regular file";
	} else if (!ours_alone(&st)) {
		why = "not root's, or others can write to it";
	} else if ((n = read_most(fd, buf, sizeof(buf))) < 0) {
		say("key %q%s%q: cannot read%e", keydir, sep, name, errno);
		goto close_key;
	} else if (!(rest = signify_lines(buf, (size_t)n, k, sizeof(k))) || rest != buf + n) {
		why = "malformed: not \"untrusted comment: ...\", the base64 of 42 bytes, a newline and no more";
	} else if (memcmp(k, "Ed", 2) != 0) {
		why = "not an Ed25519 key (its algorithm bytes are not \"Ed\")";
	} else {
		why = key_refusal(k + 10);
	}
	if (why) {
		say("key %q%s%q: %s", keydir, sep, name, why);
		goto close_key;
	}
	hex(num, k + 2);
	for (i = 0; i < nkeys; i++)
		if (memcmp(keys[i].num, k + 2, 8) == 0) {
			say("key %q%s%q: key number %s already in %q", keydir, sep, name, num, keys[i].name);
			goto close_key;
		}
	if (nkeys == KEYS_MAX) {
		say("key %q%s%q: more than %d keys", keydir, sep, name, (long long)KEYS_MAX);
		goto close_key;
	}
	for (i = nkeys++; i > 0 && strcmp(keys[i - 1].name, name) > 0; i--)
		keys[i] = keys[i - 1];
	memcpy(keys[i].num, k + 2, 8);
	memcpy(keys[i].pk, k + 10, 32);
	memcpy(keys[i].name, name, strlen(name) + 1);
	ret = 0;
close_key:
	if (fd >= 0)
		close(fd);
	return ret;
}

/* Every *.pub in keydir (a name beginning with '.' is not one, as for the
 * shell's glob) into keys[]: 0, or -1 (said) when the directory or any key
 * is refused: then none is trusted. */
static int keys_load(void)
{
	static struct dirbuf d;
	struct stat st;
	const char *name;
	int ret = -1;

	d = (struct dirbuf){ .fd = open(keydir, O_RDONLY | O_DIRECTORY | O_NOCTTY | O_CLOEXEC) };
	if (d.fd < 0 || fstat(d.fd, &st) < 0) {
		say("key directory %q: cannot open%e", keydir, errno);
		goto close_dir;
	}
	if (!ours_alone(&st)) {
		say("key directory %q: not root's, or others can write to it", keydir);
		goto close_dir;
	}
	while ((name = dir_next(&d))) {
		size_t len = strlen(name);

		if (name[0] != '.' && len > 4 && strcmp(name + len - 4, ".pub") == 0 && key_load(d.fd, name) < 0)
			goto close_dir;
	}
	if (errno)
		say("key directory %q: cannot read%e", keydir, errno);
	else
		ret = 0;
close_dir:
	if (d.fd >= 0)
		close(d.fd);
	return ret;
}

/* "KEYNUM PATH" on fd for key i: 0, or -1 (errno). */
static int key_line(int fd, int i)
{
	struct line l = { .len = 0 };
	char num[17];

	hex(num, keys[i].num);
	line_fmt(&l, "%s %q%s%q\n", num, keydir, sep, keys[i].name);
	return write_all(fd, l.buf, l.len);
}

/* --- One file --- */

/* FILE checked against FILE.sig (steps 2-6 above): the exit status. copy:
 * the bytes on stdout (-c), after the key's line on stderr when 2 (-v). */
static int verify(const char *file, int copy)
{
	static char sigpath[PATH_MAX], buf[16384 + 1];  /* 16 KiB at most (minisign's trusted comment: 8 KiB) */
	uint8_t sig[74], *data = MAP_FAILED;
	const char *rest;
	size_t len = strlen(file), size = 0;
	struct stat st;
	ssize_t n = -1;
	int fd, i, ret = EX_SYSTEM;
	char num[17];

	if (len + 5 > sizeof(sigpath)) {
		say("no signature: cannot read %q.sig%e", file, ENAMETOOLONG);
		return NO_SIG;
	}
	memcpy(sigpath, file, len);
	memcpy(sigpath + len, ".sig", 5);
	if ((fd = open(sigpath, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) < 0 || fstat(fd, &st) < 0 ||
	    (S_ISREG(st.st_mode) && (n = read_most(fd, buf, sizeof(buf))) < 0)) {
		say("no signature: cannot read %q%e", sigpath, errno);
		if (fd >= 0)
			close(fd);
		return NO_SIG;
	}
	close(fd);
	if (n < 0 || (size_t)n == sizeof(buf)) {
		say(n < 0 ? "%q: not a regular file" : "%q: longer than 16 KiB", sigpath);
		return NO_SIG;
	}
	rest = signify_lines(buf, (size_t)n, sig, sizeof(sig));
	if (!rest || !minisign_tail(rest, buf + n)) {
		say("%q: malformed: not \"untrusted comment: ...\", the base64 of 74 bytes and a newline%s", sigpath,
		    rest ? " (then minisign's two trusted lines, or nothing)" : "");
		return NO_SIG;
	}
	if (memcmp(sig, "Ed", 2) != 0) {
		say(memcmp(sig, "ED", 2) == 0 ? "%q: minisign's prehashed signature: sign with minisign -S -l"
					      : "%q: not an Ed25519 signature (algorithm bytes not \"Ed\")", sigpath);
		return NO_SIG;
	}
	hex(num, sig + 2);
	for (i = 0; i < nkeys && memcmp(keys[i].num, sig + 2, 8) != 0; i++)
		;
	if (i == nkeys) {
		say("%q: no key numbered %s in %q", sigpath, num, keydir);
		return NO_KEY;
	}
	if ((fd = open(file, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) < 0 || fstat(fd, &st) < 0) {
		say("cannot read %q%e", file, errno);
		goto close_file;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > FILE_MAX) {
		say(S_ISREG(st.st_mode) ? "%q: larger than 16 MiB" : "%q: not a regular file", file);
		goto close_file;
	}
	/* one byte more than its size: a file that grows meanwhile is seen to */
	size = (size_t)st.st_size + 1;
	if ((data = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) == MAP_FAILED ||
	    (n = read_most(fd, data, size)) < 0) {
		say("cannot read %q%e", file, errno);
		goto close_file;
	}
	if ((size_t)n == size) {
		say("%q: changed while it was read", file);
		goto close_file;
	}
	if (ed25519_verify(sig + 10, keys[i].pk, data, (size_t)n) < 0) {
		say("%q: bad signature (key %s, %q%s%q)", file, num, keydir, sep, keys[i].name);
		ret = BAD_SIG;
	} else if (copy == 2 && key_line(2, i) < 0) {
		ret = EX_SYSTEM;  /* stderr gone: nothing to say it on */
	} else if (copy ? write_all(1, data, (size_t)n) < 0 : key_line(1, i) < 0) {
		say("cannot write to standard output%e", errno);
	} else {
		ret = 0;
	}
close_file:
	if (data != MAP_FAILED)
		munmap(data, size);
	if (fd >= 0)
		close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	struct opts o = { .argc = argc, .i = 1, .argv = argv, .p = NULL };
	const char *val = NULL;
	int c, copy = 0, list = 0, verbose = 0;

	if (sanitize_fds() < 0)
		return EX_SYSTEM;
	/* For people; status 100, so that no caller can take it for an image. */
	help_version(argc, argv, usage_text, "fwload-verify " FWLOAD_VERSION "\n", EX_USAGE);
	keydir = FWLOAD_KEYDIR;
	while ((c = opt_next(&o, "ck:lv", &val)) != -1 && c != '?' && c != ':') {
		if (c == 'c')
			copy = 1;
		else if (c == 'l')
			list = 1;
		else if (c == 'v')
			verbose = 1;
		else
			keydir = val;
	}
	if (c != -1 || (list ? copy || o.i != argc : o.i != argc - 1) || (verbose && !copy) || !*keydir) {
		say("usage: fwload-verify [-k KEYDIR] [-c [-v]] FILE | -l [-k KEYDIR] (--help says more)");
		return EX_USAGE;
	}
	sep = keydir[strlen(keydir) - 1] == '/' ? "" : "/";
	signal(SIGPIPE, SIG_IGN);  /* a reader gone: EPIPE, said */
	if (keys_load() < 0)
		return BAD_KEYS;
	if (!list)
		return verify(argv[o.i], copy + verbose);
	for (int i = 0; i < nkeys; i++)
		if (key_line(1, i) < 0) {
			say("cannot write to standard output%e", errno);
			return EX_SYSTEM;
		}
	return 0;
}
