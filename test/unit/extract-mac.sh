# SPDX-License-Identifier: MIT
# fwload-extract's options, on the constructed art partition: where the MAC
# address comes from (--mac, --mac-binary, --mac-ascii, --mac-text), how it
# changes (--macaddr-add, --macaddr-setbit-la), where it goes and which
# checksum follows (--patch-mac, --ath9k-patch-mac, --ath9k-patch-mac-crc,
# --ath10k-patch-mac), and --valid. Each result is checked three ways:
# the bytes the patch writes (worked out here with shell arithmetic and
# awk), that no other byte changed, and that the ath9k/ath10k checksum
# still holds (the XOR of the words stays ffff). Two known-answer vectors
# come from OpenWrt's own scripts run on the same bytes (see below).
# Usage errors (a patch before any address, a patch past SIZE, ...) exit 100
# before anything is read; a MAC address that is not there exits 3.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=extract-lib
. "$REPO/test/unit/extract-lib"

board

# put FILE OFFSET HEX: the bytes HEX written at OFFSET of FILE, in place.
put() {
	_s=
	_h=$3
	while [ -n "$_h" ]; do
		_s=$_s\\$(printf %03o "0x${_h%"${_h#??}"}")
		_h=${_h#??}
	done
	# shellcheck disable=SC2059 # the octal escapes are the format
	printf "$_s" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null || fail "cannot patch $1"
}

# patched IN AT MAC [CHK]: $T/expect, IN with the checksum word at CHK
# (if given) worked out by ck below, then MAC (12 hex digits) at AT: what
# caldata_patch_mac makes of IN, every other byte as it was.
patched() {
	cp "$1" "$T/expect" || fail "cannot copy $1"
	[ -z "${4:-}" ] || put "$T/expect" "$4" "$(ck "$(hexat "$1" "$4" 2)" "$(hexat "$1" "$2" 6)" "$3")"
	put "$T/expect" "$2" "$3"
}

# ck CHK OLD NEW: caldata_patch_chksum's result, worked out independently:
# the 2 checksum bytes CHK (4 hex digits) XOR the old and the new address
# (12 hex digits each), bytes 0, 2, 4 into the first, 1, 3, 5 into the second.
ck() {
	echo "$1 $2 $3" | LC_ALL=C awk '
	function h(s, i) { return (index("0123456789abcdef", substr(s, i, 1)) - 1) * 16 + index("0123456789abcdef", substr(s, i + 1, 1)) - 1 }
	function x(a, b,  r, k) { r = 0; for (k = 1; k < 256; k *= 2) if ((int(a / k) + int(b / k)) % 2) r += k; return r }
	{ c[0] = h($1, 1); c[1] = h($1, 3)
	  for (i = 0; i < 6; i++) c[i % 2] = x(c[i % 2], x(h($2, 2 * i + 1), h($3, 2 * i + 1)))
	  printf "%02x%02x\n", c[0], c[1] }'
}

# The ath10k example of the man page, OpenWrt's
#   caldata_extract "art" 0x5000 0x844
#   ath10k_patch_mac $(macaddr_add $(mtd_get_mac_binary art 0x0) 1)
# The address at art 0x0 is 00:03:7f:12:34:ff; +1 carries into the fifth
# byte: 00:03:7f:12:35:00. It goes to 0x6, the checksum at 0x2 follows.
slice "$ART" 20480 2116 >"$T/cal"
extract mtd:art 0x5000 0x844 --mac-binary mtd:art,0x0 --macaddr-add 1 --ath10k-patch-mac
status_is 0
stderr_is ''
patched "$T/cal" 6 00037f123500 2
cmp -s "$T/expect" "$T/stdout" || fail "ath10k: not the bytes worked out: $(cmp -l "$T/expect" "$T/stdout" | head -n 5)"
assert_eq "ath10k: the XOR of the words before" ffff "$(xorsum "$T/cal" 0 2116)"
assert_eq "ath10k: the XOR of the words after" ffff "$(xorsum "$T/stdout" 0 2116)"
# Known answer: the same bytes through OpenWrt's own functions
# (package/base-files/files/lib/functions/caldata.sh of openwrt/openwrt at
# 02a9d3d6a932, system.sh at 046ebcf2f8a1, xor() of functions.sh) under
# busybox sh 1.35 and bash 5.2 with busybox dd, hexdump and strings, their
# /lib/firmware pointed at a scratch directory:
#   caldata_from_file art 0x5000 0x844
#   ath10k_patch_mac $(macaddr_add $(get_mac_binary art 0x0) 1)
# gave a file with this SHA-256, checksum 96 12, address 00:03:7f:12:35:00.
assert_eq "ath10k: OpenWrt's checksum" 9612 "$(hexat "$T/stdout" 2 2)"
sum=$(sha256sum <"$T/stdout")
assert_eq "ath10k: OpenWrt's result" 56c6ba24eaff6c7e3c176e696fe1e75d70ad8d9e0aeb0ee5a9dfc9c36099437f "${sum%% *}"

# The ath9k case of OpenWrt's netgear,dgn3500 (lantiq):
#   caldata_extract "art" 0x1000 0x1000
#   ath9k_patch_mac_crc $(macaddr_add $(mtd_get_mac_ascii u-boot-env ethaddr) 2) 0x20c
# u-boot-env says ethaddr="00:03:7F:AB:CD:FE" (quoted, upper case): +2 is
# 00:03:7f:ab:ce:00 at 0x20c, the checksum word at 0x20c - 10 = 0x202.
# OpenWrt's functions, run as above, gave checksum 9d 4b and this SHA-256.
slice "$ART" 4096 4096 >"$T/eep"
extract mtd:art 0x1000 0x1000 --mac-ascii mtd:u-boot-env,ethaddr --macaddr-add 2 --ath9k-patch-mac-crc 0x20c
status_is 0
stderr_is ''
patched "$T/eep" 524 00037fabce00 514
cmp -s "$T/expect" "$T/stdout" || fail "ath9k: not the bytes worked out: $(cmp -l "$T/expect" "$T/stdout" | head -n 5)"
assert_eq "ath9k: the XOR of the words before" ffff "$(xorsum "$T/eep" 512 3072)"
assert_eq "ath9k: the XOR of the words after" ffff "$(xorsum "$T/stdout" 512 3072)"
assert_eq "ath9k: OpenWrt's checksum" 9d4b "$(hexat "$T/stdout" 514 2)"
sum=$(sha256sum <"$T/stdout")
assert_eq "ath9k: OpenWrt's result" 4ebca11ab20a572af24d271259b707708508f862caa86d23f45d5bfdb252316f "${sum%% *}"

# --ath9k-patch-mac: the address at 0x2, no checksum.
slice "$ART" 4096 4096 >"$T/eep"
extract mtd:art 0x1000 0x1000 --mac-binary mtd:art,0 --ath9k-patch-mac
status_is 0
patched "$T/eep" 2 00037f1234ff
cmp -s "$T/expect" "$T/stdout" || fail "ath9k_patch_mac: not the bytes worked out"

# --patch-mac OFFSET and OFFSET,CHKSUM_OFFSET (caldata_patch_mac), at odd
# offsets too: caldata.sh pairs the address's bytes 0/1, 2/3, 4/5 with the
# checksum's two bytes whatever their offsets.
for p in 0x10 17 0x11,0x2 0x20,0x31 4,0 0x83a,0x842; do
	at=$((${p%%,*}))
	extract mtd:art 0x5000 0x844 --mac 02:46:8a:ce:13:57 --patch-mac "$p"
	status_is 0
	case $p in
	*,*) patched "$T/cal" "$at" 02468ace1357 $((${p#*,})) ;;
	*) patched "$T/cal" "$at" 02468ace1357 ;;
	esac
	cmp -s "$T/expect" "$T/stdout" || fail "--patch-mac $p: not the bytes worked out: $(cmp -l "$T/expect" "$T/stdout" | head -n 5)"
done
# The checksum still holds where the address and the checksum are aligned
# alike (as ath9k's and ath10k's are).
extract mtd:art 0x5000 0x844 --mac 02:46:8a:ce:13:57 --patch-mac 0x20,0x2
status_is 0
assert_eq "--patch-mac 0x20,0x2: the XOR of the words" ffff "$(xorsum "$T/stdout" 0 2116)"

# Where the address comes from: any source, any form OpenWrt's
# macaddr_canonicalize takes (each string below, good and bad, gave the
# same address, or none, through macaddr_canonicalize of system.sh at
# 046ebcf2f8a1 under busybox sh).
for m in 00:03:7f:12:34:56 00:03:7F:12:34:56 00-03-7f-12-34-56 0003.7f12.3456 00037f123456 \
	0:3:7f:12:34:56 '"00:03:7f:12:34:56"' ' 00:03:7f:12:34:56 ' '00 03 7f 12 34 56' 0003:7f:1234:56 \
	::00037f123456; do
	extract mtd:art 0x5000 16 --mac "$m" --ath10k-patch-mac
	status_is 0
	assert_eq "--mac '$m'" 00037f123456 "$(hexat "$T/stdout" 6 6)"
done
for m in '' 00:03:7f:12:34 00:03:7f:12:34:56:78 000:03:7f:12:34:56 00:03:7f:12:34:5g 00:03:7f:12:34:56x \
	00037f12345 00037f1234567 '00:03:7f:12:34:56 00' 0x00037f123456 00:03:7f:12:34:56:; do
	extract_fails 100 "fwload-extract: --mac: .* is not a MAC address" mtd:art 0 16 --mac "$m" --ath9k-patch-mac
done
printf '\000\001\002\003\004\005\006\007' >"$T/six"
for src in "$T/six,1" ubi:caldata,0x5 part:0:ART,5 mtd:art,0x5; do
	extract mtd:art 0x5000 16 --mac-binary "$src" --ath10k-patch-mac
	status_is 0
	case $src in
	"$T"*) want=010203040506 ;;
	*) want=$(hexat "$ART" 5 6) ;;
	esac
	assert_eq "--mac-binary $src" "$want" "$(hexat "$T/stdout" 6 6)"
done
extract_fails 2 "fwload-extract: .*: 5 bytes at offset 3 of .*, want 6" mtd:art 0 16 --mac-binary "$T/six,3" --ath9k-patch-mac
extract_fails 1 "fwload-extract: mtd:nvram: no MTD partition of that name in .*" mtd:art 0 16 --mac-binary mtd:nvram,0 --ath9k-patch-mac
# --mac-text: a MAC address written as text (mtd_get_mac_text; the sysfs
# address file of a network interface, "00:03:7f:ab:cd:ef\n").
printf '00:03:7f:ab:cd:ef\n' >"$T/address"
printf 'xxxxMAC=\000 00037FABCDEF\000\000\000\000\000\000' >"$T/text"
for src in "$T/address,0" "$T/text,0x9"; do
	extract mtd:art 0x5000 16 --mac-text "$src" --ath10k-patch-mac
	status_is 0
	assert_eq "--mac-text $src" 00037fabcdef "$(hexat "$T/stdout" 6 6)"
done
extract_fails 3 "fwload-extract: .*: no MAC address at offset 0" mtd:art 0 16 --mac-text "$T/text,0" --ath9k-patch-mac
extract_fails 3 "fwload-extract: .*: no MAC address at offset 2" mtd:art 0 16 --mac-text "$T/address,2" --ath9k-patch-mac

# --mac-ascii: the first string "KEY=..." (blanks removed) of the source.
# A key that is not there, or whose value is no address, is bad data (3).
extract_fails 3 "fwload-extract: mtd:u-boot-env: no string eth1addr= in .*" \
	mtd:art 0 16 --mac-ascii mtd:u-boot-env,eth1addr --ath9k-patch-mac
extract_fails 3 "fwload-extract: mtd:u-boot-env: ipaddr= holds no MAC address in .*" \
	mtd:art 0 16 --mac-ascii mtd:u-boot-env,ipaddr --ath9k-patch-mac
extract_fails 3 "fwload-extract: mtd:u-boot-env: no string addr= in .*" \
	mtd:art 0 16 --mac-ascii mtd:u-boot-env,addr --ath9k-patch-mac
# The string may cross the 4 KiB pieces the source is read in; strings of
# fewer than 4 characters and blanks inside count as strings(1) and
# OpenWrt's tr -d ' \t' make them.
{
	head -c 4080 /dev/zero
	printf 'm=1\000  lan_mac = 00:03:7f:0a:0b:0c \000ethaddr=00:03:7f:01:02:03\000'
	head -c 5000 /dev/zero
} >"$T/env"
for k in lan_mac ethaddr; do
	extract mtd:art 0 16 --mac-ascii "$T/env,$k" --ath9k-patch-mac
	status_is 0
	case $k in lan_mac) want=00037f0a0b0c ;; *) want=00037f010203 ;; esac
	assert_eq "--mac-ascii $k" "$want" "$(hexat "$T/stdout" 2 6)"
done
extract_fails 3 "fwload-extract: .*: no string m= in .*" mtd:art 0 16 --mac-ascii "$T/env,m" --ath9k-patch-mac

# --macaddr-add N (OpenWrt's macaddr_add: the last three bytes, modulo
# 2^24, the first three kept) and --macaddr-setbit-la (0x02 of the first).
for a in '00:03:7f:12:34:ff 1 00037f123500' '00:03:7f:ff:ff:ff 1 00037f000000' \
	'00:03:7f:00:00:00 -1 00037fffffff' '00:03:7f:12:34:56 +2 00037f123458' \
	'00:03:7f:12:34:56 0x10 00037f123466' '00:03:7f:12:34:56 -0x10 00037f123446' \
	'00:03:7f:12:34:56 16777216 00037f123456' '00:03:7f:12:34:56 0 00037f123456' \
	'00:03:7f:12:34:56 9223372036854775807 00037f123455'; do
	# shellcheck disable=SC2086 # three words
	set -- $a
	extract mtd:art 0 16 --mac "$1" --macaddr-add "$2" --ath9k-patch-mac
	status_is 0
	assert_eq "macaddr_add $1 $2" "$3" "$(hexat "$T/stdout" 2 6)"
done
extract mtd:art 0 16 --mac 00:03:7f:12:34:56 --macaddr-setbit-la --macaddr-add -1 --ath9k-patch-mac
status_is 0
assert_eq "--macaddr-setbit-la" 02037f123455 "$(hexat "$T/stdout" 2 6)"
for n in '' 1.5 010 - x 1K; do
	extract_fails 100 "fwload-extract: --macaddr-add: .* is not a whole number" \
		mtd:art 0 16 --mac 00:03:7f:12:34:56 --macaddr-add "$n" --ath9k-patch-mac
done

# Left to right: each patch takes the address as it is at that point.
extract mtd:art 0 32 --mac 00:03:7f:00:00:01 --ath9k-patch-mac --macaddr-add=1 --patch-mac=0x10 \
	--mac=02:00:00:00:00:09 --patch-mac 0x18
status_is 0
assert_eq "three patches" 00037f000001,00037f000002,020000000009 \
	"$(hexat "$T/stdout" 2 6),$(hexat "$T/stdout" 16 6),$(hexat "$T/stdout" 24 6)"

# --valid HEX (caldata_valid): the data starts with these bytes, or 3.
slice "$ART" 20480 2116 >"$T/want"
extract_is "$T/want" mtd:art 0x5000 0x844 --valid 4408
extract_is "$T/want" mtd:art 0x5000 0x844 --valid=44087BF7
extract_fails 3 "fwload-extract: the data does not start with 4409 \\(--valid\\)" mtd:art 0x5000 0x844 --valid 4409
extract_fails 3 "fwload-extract: the data does not start with 0844 \\(--valid\\)" mtd:art 0x5000 0x844 --valid 0844

# An address taken and not patched in: allowed, whatever SIZE (no patch
# reaches past it).
slice "$ART" 0 4 >"$T/want"
extract_is "$T/want" mtd:art 0 4 --mac-binary mtd:art,0x10 --macaddr-add 1

# Usage errors: 100, before any source is read (the MAC source does not
# exist in most of these).
for a in '--ath9k-patch-mac' '--macaddr-add 1 --mac 00:03:7f:12:34:56' '--macaddr-setbit-la' \
	'--patch-mac 0x10'; do
	# shellcheck disable=SC2086 # words
	extract_fails 100 "fwload-extract: --.*: no MAC address before it .*" "$T/nothing" 0 16 $a
done
for a in '--patch-mac 11' '--patch-mac 0,15' '--patch-mac 0x10000' '--ath9k-patch-mac-crc 0x10b'; do
	# shellcheck disable=SC2086 # words
	extract_fails 100 "fwload-extract: --.*: the patch ends past SIZE" "$T/nothing" 0 16 \
		--mac 00:03:7f:12:34:56 $a
done
extract_fails 100 "fwload-extract: --ath10k-patch-mac: the patch ends past SIZE" "$T/nothing" 0 11 \
	--mac 00:03:7f:12:34:56 --ath10k-patch-mac
extract_fails 100 "fwload-extract: --ath9k-patch-mac-crc: want an OFFSET of 10 or more, not 9" "$T/nothing" 0 64 \
	--mac 00:03:7f:12:34:56 --ath9k-patch-mac-crc 9
for v in '0x10,' ,2 x 0x10,x 010 0x10,0x2,0x4; do
	extract_fails 100 "fwload-extract: --patch-mac: want OFFSET\\[,CHKSUM_OFFSET\\], not .*" "$T/nothing" 0 64 \
		--mac 00:03:7f:12:34:56 --patch-mac "$v"
done
for v in art,0 mtd:art 'mtd:art,' mtd:art,x mtd:art,010 relative,0; do
	extract_fails 100 "fwload-extract: .*: want SOURCE,OFFSET" "$T/nothing" 0 64 --mac-binary "$v"
	extract_fails 100 "fwload-extract: .*: want SOURCE,OFFSET" "$T/nothing" 0 64 --mac-text "$v"
done
for v in u-boot-env,ethaddr mtd:u-boot-env 'mtd:u-boot-env,' mtd:u-boot-env,a=b; do
	extract_fails 100 "fwload-extract: .*: want SOURCE,KEY" "$T/nothing" 0 64 --mac-ascii "$v"
done
for v in '' 4 440 44g8 000102030405060708090a0b0c0d0e0f10; do
	extract_fails 100 "fwload-extract: --valid: want 1 to 16 bytes in hex digits, within SIZE, not .*" \
		"$T/nothing" 0 64 --valid "$v"
done
extract_fails 100 "fwload-extract: --valid: want 1 to 16 bytes in hex digits, within SIZE, not 440800" \
	"$T/nothing" 0 2 --valid 440800
extract_fails 100 "fwload-extract: unknown option --ath11k-patch-mac" "$T/nothing" 0 64 --ath11k-patch-mac
extract_fails 100 "fwload-extract: unknown option --" "$T/nothing" 0 64 --
extract_fails 100 "fwload-extract: -m: not an option \\(they start with --\\)" "$T/nothing" 0 64 -m
extract_fails 100 "fwload-extract: /bin/cat: not an option \\(they start with --\\)" "$T/nothing" 0 64 /bin/cat
extract_fails 100 "fwload-extract: --mac wants a value" "$T/nothing" 0 64 --mac
extract_fails 100 "fwload-extract: --ath10k-patch-mac takes no value" "$T/nothing" 0 64 --mac 00:03:7f:12:34:56 \
	--ath10k-patch-mac=1
:
