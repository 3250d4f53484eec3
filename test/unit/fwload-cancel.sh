# SPDX-License-Identifier: MIT
# fwload -c DEVPATH answers "-1" (the driver gets ENOENT), exits 1, and says
# so in one line, with -w NOTE after it. It takes the request's lock first:
# held by another answerer, it writes nothing and exits 5.
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

# Another answerer holds the request: left alone.
request y.bin
# shellcheck disable=SC2016 # the holder's own script
sh -c 'exec 9>>"$0" && flock 9 && echo held >"$1" && exec sleep 20' "$REQ/loading" "$T/held" &
holder=$!
i=0
until [ -s "$T/held" ]; do
	i=$((i + 1))
	[ $i -lt 500 ] || fail "the holder did not take the lock"
	sleep 0.01
done
run clean "$FWLOAD" -c -s "$SYS" -l "$LOGF" "$E_DEVPATH"
status_is 5
untouched
stderr_is "fwload: y.bin: another answerer holds $E_DEVPATH; left alone"
kill "$holder"
wait "$holder" 2>/dev/null
:
