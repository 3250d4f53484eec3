# SPDX-License-Identifier: MIT
# MISSING_DIR= and fwloadctl status on the real kernel: a missing image is
# listed (after the answer: the driver is not kept waiting for the list);
# a pending request (custom fallback: no uevent, no timeout) shows with an
# age that grows; once served and once the missing image loads, both are
# gone from the status.
. ../lib.sh
conf FIRMWARE_PATH=/run/fw LOG=kmsg MISSING_DIR=/run/fwload/missing
tfdev=/devices/virtual/misc/test_firmware
request_fails fwload-test-status-missing.bin 2
# The entry is written after the answer: the driver may see ENOENT first.
i=0
until [ -s /run/fwload/missing/fwload-test-status-missing.bin ] || [ $i -ge 500 ]; do
	sleep 0.01
	i=$((i + 1))
done
grep -qx "$tfdev/fwload-test-status-missing.bin" /run/fwload/missing/fwload-test-status-missing.bin ||
	fail "not listed: $(ls /run/fwload/missing)"

mkimage fwload-test-status-pending.bin 777
custom_request fwload-test-status-pending.bin
sleep 2
fwloadctl status >/run/status.out || fail "fwloadctl status exited $?"
line=$(grep "^  fwload-test-status-pending.bin  $tfdev/fwload-test-status-pending.bin  age [0-9]* s\$" /run/status.out) ||
	fail "pending request not shown: $(cat /run/status.out)"
age=${line##*age }
age=${age% s}
{ [ "$age" -ge 2 ] && [ "$age" -lt 60 ]; } || fail "age $age s after a 2 s wait"
grep -qx "  fwload-test-status-missing.bin  $tfdev/fwload-test-status-missing.bin" /run/status.out ||
	fail "missing image not shown: $(cat /run/status.out)"
grep -qx "source:   uevent helper /sbin/hotplug" /run/status.out || fail "status: $(cat /run/status.out)"
grep -qx "fallback: forced (every failed direct load asks user space)" /run/status.out || fail "status: $(cat /run/status.out)"
grep -qx "timeout:  60 s" /run/status.out || fail "status: $(cat /run/status.out)"
echo "ok: fwloadctl status shows the pending request (age $age s) and the missing image"

fwloadctl rescan >/dev/null
custom_result
[ "$err" = 0 ] || fail "the pending request ended with errno $err"
mkimage fwload-test-status-missing.bin 888
request fwload-test-status-missing.bin
# (The agent removes the entry after the answer, too.)
i=0
while [ -e /run/fwload/missing/fwload-test-status-missing.bin ] && [ $i -lt 500 ]; do
	sleep 0.01
	i=$((i + 1))
done
fwloadctl status >/run/status.out
[ "$(grep -c fwload-test-status /run/status.out)" = 0 ] || fail "still shown: $(cat /run/status.out)"
