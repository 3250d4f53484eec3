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
for s in '' 0 abc 1.5 1k 1KB 2G 2048M 2097152K 99999999999999999999 -1 ' 1'; do
	usage -S "$s" "$D" "$T/img"
done
for t in 0 abc 86401 ''; do
	usage -T "$t" "$D" "$T/img"
done
usage -x "$D" "$T/img"
usage -m /run/missing -c "$D"    # gone: the agent keeps the missing list
usage -H ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad "$D" "$T/img"
usage -s
usage -n
usage -w
usage -L
usage -L message "$D"
usage -c -L message "$D"
usage "$D" "$T/img" xz -dc          # COMMAND: an absolute path only
usage "$D" "$T/img" ./xz -dc
usage --help "$D"

# --help and --version: stdout, status 0.
run clean "$FWLOAD" --help
status_is 0
grep -q '^usage: fwload' "$T/stdout" || fail "--help: $(cat "$T/stdout")"
stderr_is ''
run clean "$FWLOAD" --version
status_is 0
stdout_is "fwload $(cat "$REPO/VERSION")"
untouched

# Sizes and deadlines that are fine.
for s in 1 4096 1K 64M 256M 2047M 1G; do
	run clean SYSFS="$SYS" "$FWLOAD" -S "$s" -T 1 -l none -c "$D"
	status_is 1
	request x.bin
done

# The control: the same request, properly asked.
run clean SYSFS="$SYS" "$FWLOAD" -t 86400 "$D" "$T/img"
status_is 0
file_is "$REQ/loading" 10
