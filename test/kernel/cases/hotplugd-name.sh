# SPDX-License-Identifier: MIT
# A request whose name holds a newline and looks like a second variable,
# "fwload-test-x.bin<newline>HOTPLUG_DIR=/tmp/fwload-hook" (as a driver that
# builds names from device data could make), and a hook planted in
# /tmp/fwload-hook/firmware/. It is a custom-fallback request: no uevent,
# so only hotplugd's start rescan serves it, from the request's uevent file.
# hotplugd takes FIRMWARE whole: HOTPLUG_DIR never reaches the child, the
# hook never runs, and the agent refuses the name: the request is cancelled
# (test_firmware reports ENODEV, 19) with a log line naming it escaped.
. ../lib.sh
. ./hotplugd-lib
hook=/tmp/fwload-hook
mkdir -p "$hook/firmware"
# The hook, were it ever run, says so and ends the request (or the custom
# request would wait for ever).
cat >"$hook/firmware/00.hotplug" <<'END'
#!/bin/sh
echo "ran for $FIRMWARE" >/run/fwload-hook-ran
echo -1 >"/sys$DEVPATH/loading"
END
chmod 755 "$hook/firmware/00.hotplug"
rm -f /run/fwload-hook-ran
name="fwload-test-x.bin
HOTPLUG_DIR=$hook"
no_source
custom_request "$name"
printf 'FIRMWARE=%s\nTIMEOUT=60\nASYNC=1\n' "$name" | cmp -s - "/sys$dev/uevent" ||
	fail "the request's uevent file is not as expected: $(od -c "/sys$dev/uevent" | head -n 5)"
start_hotplugd -s firmware
custom_result
[ ! -e /run/fwload-hook-ran ] || fail "the planted hook ran: $(cat /run/fwload-hook-ran)"
[ "$err" = 19 ] || fail "the request ended with errno $err, want 19 (cancelled)"
# fwload logs after it answered: give the line a moment.
line='fwload: cancelled fwload-test-x\.bin\\x0aHOTPLUG_DIR=/tmp/fwload-hook for /devices/virtual/misc/test_firmware/fwload-test-x\.bin\\x0aHOTPLUG_DIR=!tmp!fwload-hook; bad FIRMWARE name \(control character in name\)'
i=0
while ! dmesg | grep -E "$line" >/dev/null && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
kmsg "$line"
echo "ok: a name with a newline served whole: no planted hook ran, the request was cancelled"
