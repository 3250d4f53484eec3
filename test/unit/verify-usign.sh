# SPDX-License-Identifier: MIT
# fwload-verify on OpenWrt usign's files (signify's format, usign's comment
# lines: "public key NUM", "signed by key NUM"), the key and the signature
# made by openssl: it verifies (-c: the file itself), and not once the file
# changed (1).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=verify-lib
. "$REPO/test/unit/verify-lib"

need openssl openssl
# hexof FILE: FILE's bytes in hex, on one line.
hexof() {
	od -An -tx1 -v "$1" | tr -d ' \n'
}

openssl genpkey -algorithm ed25519 -out "$T/k.pem" 2>"$T/err" || fail "openssl genpkey: $(cat "$T/err")"
openssl pkey -in "$T/k.pem" -pubout -outform DER -out "$T/k.der" 2>"$T/err" || fail "openssl pkey: $(cat "$T/err")"
tail -c 32 "$T/k.der" >"$T/k.raw"
n=$(od -An -tx1 -N8 /dev/urandom | tr -d ' \n')
keydir
printf 'untrusted comment: public key %s\n%s\n' "$n" "$(b64 "4564$n$(hexof "$T/k.raw")")" >"$KD/usign.pub"
mkimage "$F" 5000
openssl pkeyutl -sign -rawin -inkey "$T/k.pem" -in "$F" -out "$T/sig.raw" 2>"$T/err" || fail "openssl pkeyutl: $(cat "$T/err")"
[ "$(wc -c <"$T/sig.raw")" -eq 64 ] || fail "openssl made no 64-byte signature"
printf 'untrusted comment: signed by key %s\n%s\n' "$n" "$(b64 "4564$n$(hexof "$T/sig.raw")")" >"$F.sig"
valid "$n" usign.pub
printf x >>"$F"
refused 1 "$(ere "$F"): bad signature \(key $n, $(ere "$KD/usign.pub")\)"
