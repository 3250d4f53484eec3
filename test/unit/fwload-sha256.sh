# SPDX-License-Identifier: MIT
# fwload -H SHA256: the digest of what went into data, computed on the way,
# must match before "0" is written. The FIPS 180-4 example messages (and the
# classic one million 'a') with their published digests; random images of
# every length around the 64-byte block and its 56-byte padding limit, and
# larger ones, against sha256sum; the file, pipe and filter paths. A
# mismatch aborts ("1-1", exit 2) and says both digests.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

# verified FILE DIGEST [HOW]: the image loads, whole, with -H DIGEST.
verified() {
	request x.bin
	case ${3:-file} in
	file) run clean "$FWLOAD" -s "$SYS" -l "$LOGF" -H "$2" "$E_DEVPATH" "$1" ;;
	pipe) dd if="$1" bs=65536 2>/dev/null | run clean "$FWLOAD" -s "$SYS" -H "$2" "$E_DEVPATH" -; st=$? ;;
	filter) run clean "$FWLOAD" -s "$SYS" -H "$2" "$E_DEVPATH" - cat <"$1" ;;
	esac
	status_is 0
	file_is "$REQ/loading" 10 "loading ($1, ${3:-file})"
	data_is "$1"
}

printf abc >"$T/abc"
verified "$T/abc" ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
log_matches "fwload: loaded x\.bin \(3 bytes, [0-9]+ ms, SHA-256 verified\) from $(ere "$T/abc") for $(ere "$E_DEVPATH")"
printf abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq >"$T/448"
verified "$T/448" 248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1
printf abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu >"$T/896"
verified "$T/896" cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1
head -c 1000000 /dev/zero | tr '\0' a >"$T/million"
verified "$T/million" cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0
verified "$T/million" cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0 pipe
verified "$T/million" CDC76E5C9914FB9281A1C7E284D73E67F1809A48A497200E046D39CCC7112CD0 filter

for n in 1 55 56 57 63 64 65 119 120 127 128 129 4095 4096 4097 65537 262143 262145 1048577; do
	mkimage "$T/img" "$n"
	sum=$(sha256sum <"$T/img") || fail "sha256sum"
	verified "$T/img" "${sum%% *}"
done
verified "$T/img" "${sum%% *}" pipe

# One bit off: refused, and both digests said.
request x.bin
run clean "$FWLOAD" -s "$SYS" -n x.bin -H ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ac \
	"$E_DEVPATH" "$T/abc"
status_is 2
file_is "$REQ/loading" 1-1
data_is "$T/abc"
stderr_is "fwload: x.bin: SHA-256 mismatch: $T/abc gives ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad, the manifest wants ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ac; request aborted"

# Not a digest: a usage error, and the request untouched.
for bad in '' abc ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015a \
	ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015add \
	ga7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad; do
	request x.bin
	run clean "$FWLOAD" -s "$SYS" -H "$bad" "$E_DEVPATH" "$T/abc"
	status_is 100
	untouched
	grep -qx "fwload: -H wants a SHA-256 digest: 64 hex digits" "$T/stderr" || fail "-H '$bad': $(cat "$T/stderr")"
done
