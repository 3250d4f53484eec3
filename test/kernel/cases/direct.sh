# SPDX-License-Identifier: MIT
# fwload on its own against real requests (custom fallback requests send no
# uevent, so no helper races us): cancel (-c), an image from a pipe (-),
# an empty pipe, and SIGTERM in the middle of a load. test_firmware reports
# a failed custom request as ENODEV (19).
. ../lib.sh
mkimage fwload-test-direct.bin 300000

custom_request fwload-test-cancel.bin
/sbin/fwload -c "$dev"
[ $? = 1 ] || fail "fwload -c did not exit 1"
custom_result
[ "$err" = 19 ] || fail "cancelled request ended with errno $err"
echo "ok: fwload -c cancelled a real request"

custom_request fwload-test-direct.bin
# A pipe, not a file: fwload must take the splice()/read path.
head -c 300000 "$FW/fwload-test-direct.bin" | /sbin/fwload "$dev" - || fail "fwload from a pipe failed"
custom_result
[ "$err" = 0 ] || fail "request fed from a pipe ended with errno $err"
cmp "$FW/fwload-test-direct.bin" /dev/test_firmware || fail "pipe: the driver got a different image"
echo "ok: image from a pipe, 300000 bytes"

custom_request fwload-test-empty-pipe.bin
/sbin/fwload "$dev" - </dev/null
[ $? = 2 ] || fail "fwload with an empty stream did not exit 2"
custom_result
[ "$err" = 19 ] || fail "empty stream: request ended with errno $err, want 19"
echo "ok: empty stream refused"

# A producer that stalls after 64 KiB: fwload is in the middle of a load
# when SIGTERM arrives, and must answer -1, not commit the 64 KiB.
custom_request fwload-test-sigterm.bin
# (wait waits for the whole pipeline: the producer's sleep is ended once
# fwload is gone, not before: its end would be the stream's.)
{ head -c 65536 "$FW/fwload-test-direct.bin"; sleep 30 & echo $! >/run/direct-sleep.pid; wait; } | /sbin/fwload "$dev" - &
pid=$!
sleep 1
kill -TERM $pid
i=0
while [ -e "/proc/$pid/exe" ] && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
kill "$(cat /run/direct-sleep.pid)" 2>/dev/null
wait $pid
status=$?
custom_result
[ "$status" = 3 ] || fail "fwload stopped by SIGTERM exited $status, want 3"
[ "$err" = 19 ] || fail "SIGTERM: request ended with errno $err, want 19 (aborted)"
echo "ok: SIGTERM mid-load aborted the request"
