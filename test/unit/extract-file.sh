# SPDX-License-Identifier: MIT
# fwload-extract /FILE OFFSET SIZE: exactly SIZE bytes from OFFSET, numbers
# in decimal or 0x hex (either case), compared with tail|head on the
# constructed art partition; fewer bytes than SIZE (a source that ends
# early, an offset past the end) exit 2 with nothing on stdout; usage errors
# (a decimal with a leading zero, which OpenWrt's shell would read as octal,
# SIZE 0, numbers too large, a relative path, an unknown source type) exit
# 100 before anything is read; --help and --version exit 100 too (status 0
# would make fwload commit the text).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=extract-lib
. "$REPO/test/unit/extract-lib"

board
for a in '20480 2116' '0x5000 0x844' '0X5000 0X844' '0x5000 2116' '20480 0x844' \
	'0 1' '0 65536' '65535 1' '0x0 0x10000' '0xfff0 0x10' '1 0xabc' '0x1 0xABC'; do
	# shellcheck disable=SC2086 # two words
	set -- $a
	slice "$ART" $(($1)) $(($2)) >"$T/want"
	extract_is "$T/want" "$ART" "$1" "$2"
done

# Short: 2 bytes wanted where 1 is left, 1 byte past the end, a whole
# partition plus one; an empty file.
extract_fails 2 "fwload-extract: $(ere "$ART"): 1 bytes at offset 65535 of $(ere "$ART"), want 2" "$ART" 0xffff 2
extract_fails 2 "fwload-extract: .*: 0 bytes at offset 65536 of .*, want 1" "$ART" 65536 1
extract_fails 2 "fwload-extract: .*: 65536 bytes at offset 0 of .*, want 65537" "$ART" 0 65537
extract_fails 2 "fwload-extract: .*: 0 bytes at offset 0 of .*, want 1" "$T/dev/mtd0" 0 1
# A missing file is "no such source"; a directory or a FIFO is not a source
# (and the FIFO, which nobody writes, must not hang us).
extract_fails 1 "fwload-extract: $(ere "$T")/nothing: cannot open .*: errno [0-9]+ \\(ENOENT\\)" "$T/nothing" 0 1
extract_fails 1 "fwload-extract: .*: .* is not a file or a device" "$T/dev" 0 1
mkfifo "$T/fifo" || fail mkfifo
extract_fails 1 "fwload-extract: .*: .* is not a file or a device" "$T/fifo" 0 1

# Usage: 100, nothing read (the source does not even exist), nothing written.
for a in '010 1' '0 010' '00 1' '0 0' '0 0x0' '0x 1' '0 0x' '-1 1' '0 -1' '+1 1' '1 1x' '0x1g 1' \
	'0 1K' '0 9223372036854775808' '0x8000000000000000 1' '9223372036854775807 1' \
	'0 0x8000000000000000'; do
	# shellcheck disable=SC2086 # two words
	set -- $a
	[ $# -eq 2 ] || set -- "$a" 1
	extract "$T/nothing" "$@"
	status_is 100
	stdout_is ''
	grep -Eq '^fwload-extract: .*(OFFSET|SIZE) is' "$T/stderr" || fail "'$a': no usage line: $(cat "$T/stderr")"
done
# OFFSET's bound is INT64_MAX - SIZE: below 15 for this SIZE (5), where a
# hex OFFSET one digit over it, 0x6, passed (a negative bound less the
# digit, divided by 16, was 0) and OFFSET + SIZE overflowed. A 32-bit
# build refuses this SIZE first (above SSIZE_MAX).
extract "$T/nothing" 0x6 0x7ffffffffffffffa
if grep -q '^fwload-extract: 0x7ffffffffffffffa: SIZE is' "$T/stderr"; then
	echo "note: SIZE 0x7ffffffffffffffa is above this build's SSIZE_MAX: OFFSET's bound is not below 15 here"
else
	extract_fails 100 "fwload-extract: 0x6: OFFSET is decimal \\(no leading 0\\) or 0x hex" "$T/nothing" 0x6 0x7ffffffffffffffa
	extract_fails 111 "fwload-extract: cannot allocate 9223372036854775802 bytes: .*" "$T/nothing" 0x5 0x7ffffffffffffffa
fi
for s in art mtd: ubi: part: relative/path '' nothing:art; do
	extract_fails 100 "fwload-extract: .*: SOURCE is mtd:NAME, ubi:VOLUME, part:PARTNAME or /FILE" "$s" 0 1
done
extract_fails 100 "fwload-extract: want SOURCE, OFFSET and SIZE" "$ART" 0
extract_fails 100 "fwload-extract: want SOURCE, OFFSET and SIZE"

# --help and --version, alone, for people: on stdout, status 100.
extract --version
status_is 100
stdout_is "fwload-extract $(cat "$REPO/VERSION")"
extract --help
status_is 100
grep -q '^usage: fwload-extract SOURCE OFFSET SIZE' "$T/stdout" || fail "--help: $(cat "$T/stdout")"
:
