# SPDX-License-Identifier: MIT
# fwload -c DEVPATH answers "-1" (the driver gets ENOENT), exits 1, and says
# so in one line, with -w NOTE after it. It takes the request's lock first
# (in LOCKDIR): held by another answerer, it writes nothing and exits 5.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

request x.bin
run clean "$FWLOAD" -c -s "$SYS" -l "$LOGF" -w "not found in /a:/b" "$E_DEVPATH"
status_is 1
file_is "$REQ/loading" -1
file_is "$REQ/data" ""
stdout_is ''
log_has "fwload: cancelled x.bin for $E_DEVPATH; not found in /a:/b"

# No request there: nothing to cancel, a system error.
run clean "$FWLOAD" -c -s "$SYS" -t 0 "$TF/nothing.bin"
status_is 111
stderr_is "fwload: nothing.bin: no request: cannot open $SYS$TF/nothing.bin/loading: errno 2 (ENOENT)"

# Another answerer holds the request (a load from a pipe that pauses
# until the cancel is done): left alone.
request y.bin
{
	printf abc
	until [ -e "$T/go" ]; do sleep 0.05; done
} | clean "$FWLOAD" -s "$SYS" -k "$T/lock" -l none "$E_DEVPATH" - &
data_abc() { [ "$(cat "$REQ/data")" = abc ]; }
until_true "the first answerer's start" data_abc
run clean "$FWLOAD" -c -s "$SYS" -k "$T/lock" -l "$LOGF" "$E_DEVPATH"
status_is 5
file_is "$REQ/loading" 1 "loading (the first answerer's 1 only)"
stderr_is "fwload: y.bin: another answerer holds $E_DEVPATH; left alone"
: >"$T/go"
wait
file_is "$REQ/loading" 10
