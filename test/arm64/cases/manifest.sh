# SPDX-License-Identifier: MIT
# MANIFEST= with UNLISTED=refuse: an image whose SHA-256 the manifest lists
# loads (checked by fwload-sha256 in fwload's COMMAND slot); the same image
# with one byte changed (the complement of the byte it had, so it always
# differs) under a name listed with the good digest is refused (ENOENT) with
# a mismatch line.
. ../lib.sh
mkimage good.bin 300001
dd if="$FW/good.bin" of="$FW/tampered.bin" bs=4096 2>/dev/null
off=150000
old=$(dd if="$FW/good.bin" bs=1 skip=$off count=1 2>/dev/null | od -An -tu1 | tr -d ' ')
new=$((255 - old))
# shellcheck disable=SC2059 # an octal escape built for printf
printf "\\$(printf %o "$new")" | dd of="$FW/tampered.bin" bs=1 seek=$off conv=notrunc 2>/dev/null
cmp -s "$FW/good.bin" "$FW/tampered.bin" && fail "the tampered copy is identical"
[ "$(wc -c <"$FW/tampered.bin")" = 300001 ] || fail "the tampered copy changed size"
sum=$(sha256sum <"$FW/good.bin")
sum=${sum%% *}
printf '%s  %s\n' "$sum" good.bin "$sum" tampered.bin >/run/SHA256SUMS
conf FIRMWARE_PATH=$FW LOG=kmsg MANIFEST=/run/SHA256SUMS UNLISTED=refuse

request good.bin
kmsg "fwload: loaded good\\.bin \\(300001 bytes, [0-9]+ ms\\) from $FW/good\\.bin via [^ ]*fwload-sha256"
request_fails tampered.bin 2
kmsg "fwload: tampered\\.bin: .*SHA-256 mismatch"
