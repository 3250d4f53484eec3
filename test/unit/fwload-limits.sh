# SPDX-License-Identifier: MIT
# -S MAXSIZE (default 256M) and -T DEADLINE (default 300 s): a file over
# the size is refused before "1"; a stream that goes past it is aborted
# after exactly MAXSIZE bytes went to data ("1-1"); the deadline ends a
# stream that never stops (a decompression bomb, a trickle), also when the
# request has no kernel timeout (TIMEOUT=0, -t 0). Exit status 2.
# Before: no limit at all (-t bounded silence only).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkimage "$T/img" 5000
request x.bin
run clean "$FWLOAD" -s "$SYS" -n x.bin -S 4999 "$E_DEVPATH" "$T/img"
status_is 2
file_is "$REQ/loading" -1
file_is "$REQ/data" ""
stderr_is "fwload: x.bin: $T/img is 5000 bytes, over the limit of 4999; request aborted"
request x.bin
run clean "$FWLOAD" -s "$SYS" -S 5000 "$E_DEVPATH" "$T/img"
status_is 0
data_is "$T/img"

# A stream: exactly MAXSIZE passes; one byte more is refused, and data
# never holds more than MAXSIZE. Through splice and read/write, and from a
# COMMAND (a decompressor's output counts, not its input).
for n in 4096 5000; do
	request x.bin
	head -c "$n" "$T/img" | run clean "$FWLOAD" -s "$SYS" -S "$n" "$E_DEVPATH" -
	st=$?
	status_is 0
	file_is "$REQ/loading" 10
	request x.bin
	head -c "$n" "$T/img" | run clean "$FWLOAD" -s "$SYS" -n x.bin -S $((n - 1)) "$E_DEVPATH" -
	st=$?
	status_is 2
	stderr_is "fwload: x.bin: more than $((n - 1)) bytes from standard input; request aborted"
	[ "$(wc -c <"$REQ/data")" -le $((n - 1)) ] || fail "data holds more than MAXSIZE"
done
request x.bin
run clean "$FWLOAD" -s "$SYS" -n x.bin -S 4K "$E_DEVPATH" - <"$T/img"
status_is 2
file_is "$REQ/loading" 1-1
head -c 3000000 /dev/zero | /usr/bin/xz -c >"$T/bomb.xz"
request x.bin
run clean "$FWLOAD" -s "$SYS" -n x.bin -S 1M "$E_DEVPATH" "$T/bomb.xz" /usr/bin/xz -dc
status_is 2
file_is "$REQ/loading" 1-1
stderr_is "fwload: x.bin: more than 1048576 bytes from $T/bomb.xz via /usr/bin/xz; request aborted"
assert_eq "bytes in data" 1048576 "$(wc -c <"$REQ/data")"

# The deadline: a stream that trickles for ever (never silent for -t),
# with no kernel timeout (TIMEOUT=0) and -t 0.
request x.bin
start=$(date +%s)
while :; do printf x || break; sleep 0.2; done 2>/dev/null |
	run clean TIMEOUT=0 "$FWLOAD" -s "$SYS" -n x.bin -t 0 -T 2 "$E_DEVPATH" -
st=$?
status_is 2
file_is "$REQ/loading" 1-1 "loading after the deadline"
stderr_is "fwload: x.bin: deadline of 2 s passed reading standard input; request aborted"
[ $(($(date +%s) - start)) -le 10 ] || fail "the deadline did not end it"
