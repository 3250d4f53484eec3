# SPDX-License-Identifier: MIT
# test/verify-diff: fwload-verify's Ed25519 verdicts and SHA-512 digests
# against OpenSSL's (libcrypto) on random keys, messages and signatures,
# each valid, with a bit flipped (signature, message, key), with S + L
# (which we must refuse), and another message's signature; SHA-512 on
# every length to 300 and random ones to 3000. FWLOAD_VERIFY_CASES cases
# (2000 here; the tester's own default is 5000).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

[ -x "$REPO/test/verify-diff" ] || fail "test/verify-diff is missing: make check-fast builds it"
"$REPO/test/verify-diff" "${FWLOAD_VERIFY_CASES:-2000}" >"$T/out" 2>&1 || fail "$(cat "$T/out")"
grep -qx 'verify-diff: all agree' "$T/out" || fail "no verdict line: $(cat "$T/out")"
