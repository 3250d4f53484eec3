# SPDX-License-Identifier: MIT
# fwloadctl setup on a system where nothing is set yet: no uevent
# helper, the fallback off, and a request already waiting (a custom
# fallback request). It sets the helper to /sbin/hotplug, forces the
# fallback on, sets the timeout from TIMEOUT=, and the rescan serves the
# waiting request; a request made afterwards goes through the helper.
. ../lib.sh
echo "" >/proc/sys/kernel/hotplug
echo 0 >/proc/sys/kernel/firmware_config/force_sysfs_fallback
conf FIRMWARE_PATH=/run/fw LOG=kmsg TIMEOUT=33
mkimage fwload-test-setup-early.bin 12345
mkimage fwload-test-setup-later.bin 23456
custom_request fwload-test-setup-early.bin
fwloadctl setup >/run/setup.out
status=$?
custom_result
[ "$status" = 0 ] || fail "fwloadctl setup exited $status: $(cat /run/setup.out)"
read -r helper </proc/sys/kernel/hotplug
[ "$helper" = /sbin/hotplug ] || fail "uevent helper is '$helper'"
read -r forced </proc/sys/kernel/firmware_config/force_sysfs_fallback
[ "$forced" = 1 ] || fail "force_sysfs_fallback is $forced"
read -r t </sys/class/firmware/timeout
[ "$t" = 33 ] || fail "timeout is $t"
[ "$err" = 0 ] || fail "the waiting request ended with errno $err"
cmp "$FW/fwload-test-setup-early.bin" /dev/test_firmware || fail "early: wrong image"
kmsg 'fwload: setup: uevent helper /sbin/hotplug, sysfs fallback forced, timeout 33 s; rescanning pending requests'
grep -qx 'fwloadctl: setup: uevent helper /sbin/hotplug, sysfs fallback forced, timeout 33 s; rescanning pending requests' /run/setup.out ||
	fail "setup said: $(cat /run/setup.out)"
echo "ok: fwloadctl setup enabled everything and served the waiting request"
request fwload-test-setup-later.bin
