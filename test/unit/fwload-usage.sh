# SPDX-License-Identifier: MIT
# Misuse exits 100 with a usage message, before touching any request.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkimage "$T/img" 100
request x.bin
D=$E_DEVPATH

# usage ARG...: fwload ARG... is a usage error.
usage() {
	run clean SYSFS="$SYS" "$FWLOAD" "$@"
	status_is 100
	grep -q '^usage: fwload' "$T/stderr" || fail "no usage message for: $*"
	stdout_is ''
	untouched
}
usage
usage "$D"
usage "$D" "$T/img" ""
usage "$D" "$T/img" "" -dc
usage -c
usage -c "$D" "$T/img"
usage "${D#/}" "$T/img"
usage x.bin "$T/img"
usage "" "$T/img"
usage "$TF/../test_firmware/x.bin" "$T/img"
usage "$D/.." "$T/img"
usage "/..$D" "$T/img"
usage /.. "$T/img"
usage "$D/../x.bin" "$T/img"
usage -c "$TF/../test_firmware/x.bin"
for t in abc -1 86401 '' 1.5 ' 1' 1s 0x10 99999999999999999999; do
	usage -t "$t" "$D" "$T/img"
done
usage -t
for l in relative/file '' KMSG file; do
	usage -l "$l" "$D" "$T/img"
done
usage -x "$D" "$T/img"
usage -m "" -c "$D"
usage -m run/missing -c "$D"
usage -H
usage -s
usage -n

# The control: the same request, properly asked.
run clean SYSFS="$SYS" "$FWLOAD" -t 86400 "$D" "$T/img"
status_is 0
file_is "$REQ/loading" 10
