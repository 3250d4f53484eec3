# SPDX-License-Identifier: MIT
# Requests the kernel made while nobody could answer them -- here custom
# fallback requests, which send no uevent at all, so /sbin/hotplug never
# hears of them -- are served by "fwloadctl rescan": a present image
# is loaded exactly; a missing one is cancelled (test_firmware reports a
# failed custom request as ENODEV, 19). test_firmware holds one such
# request at a time. The name is taken whole from the request's uevent file:
# one with a newline (a driver may build names from device data) is never
# taken for its first line, which names an image that is there.
. ../lib.sh
mkimage fwload-test-rescan.bin 70000
custom_request fwload-test-rescan.bin
fwloadctl rescan >/run/rescan.out
status=$?
custom_result
[ "$status" = 0 ] || fail "rescan exited $status: $(cat /run/rescan.out)"
[ "$err" = 0 ] || fail "the pending request ended with errno $err"
cmp "$FW/fwload-test-rescan.bin" /dev/test_firmware || fail "rescan: wrong image"
grep -qx 'fwload-test-rescan.bin: 0' /run/rescan.out || fail "rescan said: $(cat /run/rescan.out)"
echo "ok: a pending request with no uevent served by fwloadctl rescan"

custom_request fwload-test-rescan-gone.bin
fwloadctl rescan >/run/rescan.out
status=$?
custom_result
[ "$status" = 1 ] || fail "rescan of a missing image exited $status, want 1"
[ "$err" = 19 ] || fail "the missing one ended with errno $err, want 19"
kmsg 'fwload: cancelled fwload-test-rescan-gone.bin for /devices/virtual/misc/test_firmware/fwload-test-rescan-gone.bin; not found in '
echo "ok: a pending request for a missing image cancelled by fwloadctl rescan"

nlname="fwload-test-rescan.bin
HOTPLUG_DIR=/run/hooks"
custom_request "$nlname"
fwloadctl rescan >/run/rescan.out
status=$?
custom_result
[ "$status" = 4 ] || fail "rescan of a name with a newline exited $status, want 4: $(cat /run/rescan.out)"
[ "$err" = 19 ] || fail "the name with a newline ended with errno $err, want 19 (cancelled)"
kmsg 'fwload: cancelled fwload-test-rescan\.bin\\x0aHOTPLUG_DIR=/run/hooks for .*; bad FIRMWARE name \(control character in name\)'
echo "ok: a name with a newline taken whole from the uevent file, and cancelled"
