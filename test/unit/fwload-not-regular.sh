# SPDX-License-Identifier: MIT
# An image that is not a non-empty regular file is refused before the start:
# loading gets just "-1", exit 2, one message. Nothing opens a FIFO or a
# device (test/unit/fault-swap.sh: not even one swapped in under fwload).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkdir "$T/dir"
mkfifo "$T/fifo"
ln -s nowhere "$T/dangling"
ln -s dir "$T/dirlink"
: >"$T/empty"

# refused FILE MESSAGE
refused() {
	request x.bin
	rm -f "$LOGF"
	run clean "$FWLOAD" -s "$SYS" -l "$LOGF" "$E_DEVPATH" "$1"
	status_is 2
	file_is "$REQ/loading" -1 "loading for $1"
	file_is "$REQ/data" "" "data for $1"
	stderr_is "fwload: x.bin: $2; request aborted"
	diff "$T/stderr" "$LOGF" || fail "stderr and the log differ"
}
refused "$T/dir" "not a regular file: $T/dir"
refused "$T/dirlink" "not a regular file: $T/dirlink"
refused "$T/fifo" "not a regular file: $T/fifo"
refused /dev/null "not a regular file: /dev/null"
refused "$T/empty" "empty file $T/empty"
refused "$T/missing" "cannot open $T/missing: errno 2 (ENOENT)"
refused "$T/dangling" "cannot open $T/dangling: errno 2 (ENOENT)"
refused "$T/empty/x" "cannot open $T/empty/x: errno 20 (ENOTDIR)"
# A link loop: errno 40, named once (a table lookup once matched letters).
ln -s loop2 "$T/loop1"
ln -s loop1 "$T/loop2"
refused "$T/loop1" "cannot open $T/loop1: errno 40 (ELOOP)"

# A symlink to a regular file is fine.
mkimage "$T/real" 5000
ln -s real "$T/link"
request x.bin
run clean "$FWLOAD" -s "$SYS" "$E_DEVPATH" "$T/link"
status_is 0
file_is "$REQ/loading" 10
data_is "$T/real"

# The request without a data file: gone (the kernel removes them together),
# nothing logged, exit 111; loading still gets "-1".
request x.bin
rm "$REQ/data"
run clean "$FWLOAD" -s "$SYS" "$E_DEVPATH" "$T/real"
status_is 111
file_is "$REQ/loading" -1
stderr_is "fwload: x.bin: cannot open $REQ/data: errno 2 (ENOENT); the request is gone"
