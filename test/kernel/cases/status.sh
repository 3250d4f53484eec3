# SPDX-License-Identifier: MIT
# MISSING_LIST= and --status on the real kernel: a missing image is listed;
# a pending request (custom fallback: no uevent, no timeout) shows with an
# age that grows; once served and once the missing image loads, both are
# gone from --status.
. ../lib.sh
conf FIRMWARE_PATH=/run/fw LOG=kmsg MISSING_LIST=/run/fwload/missing
tab=$(printf '\t')
tfdev=/devices/virtual/misc/test_firmware
request_fails fwload-test-status-missing.bin 2
grep -qx "fwload-test-status-missing.bin$tab$tfdev/fwload-test-status-missing.bin" /run/fwload/missing ||
	fail "not listed: $(cat /run/fwload/missing)"

mkimage fwload-test-status-pending.bin 777
custom_request fwload-test-status-pending.bin
sleep 2
/lib/fwload/firmware.agent --status >/run/status.out || fail "--status exited $?"
line=$(grep "^  fwload-test-status-pending.bin  $tfdev/fwload-test-status-pending.bin  age [0-9]* s\$" /run/status.out) ||
	fail "pending request not shown: $(cat /run/status.out)"
age=${line##*age }
age=${age% s}
{ [ "$age" -ge 2 ] && [ "$age" -lt 60 ]; } || fail "age $age s after a 2 s wait"
grep -qx "  fwload-test-status-missing.bin  $tfdev/fwload-test-status-missing.bin" /run/status.out ||
	fail "missing image not shown: $(cat /run/status.out)"
echo "ok: --status shows the pending request (age $age s) and the missing image"

/lib/fwload/firmware.agent --rescan >/dev/null
custom_result
[ "$err" = 0 ] || fail "the pending request ended with errno $err"
mkimage fwload-test-status-missing.bin 888
request fwload-test-status-missing.bin
/lib/fwload/firmware.agent --status >/run/status.out
[ "$(grep -c fwload-test-status /run/status.out)" = 0 ] || fail "still shown: $(cat /run/status.out)"
