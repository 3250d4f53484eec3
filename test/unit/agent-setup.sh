# SPDX-License-Identifier: MIT
# shellcheck disable=SC2086 # $TEST_SH is a command line ("busybox sh")
# firmware.agent --setup, what an init script runs once: the uevent helper
# set to our hotplug, the sysfs fallback forced on, the timeout from
# TIMEOUT=, then a rescan that serves a request made before. Without a
# hotplug setting to write it says why and exits 111. A bad TIMEOUT= is
# reported and left alone.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

P=$T/proc
mkdir -p "$P/sys/kernel/firmware_config" "$SYS/class/firmware"
: >"$P/sys/kernel/hotplug"
echo 0 >"$P/sys/kernel/firmware_config/force_sysfs_fallback"
echo 60 >"$SYS/class/firmware/timeout"
conf "LOG=$LOGF" "FIRMWARE_PATH=$T/fw" TIMEOUT=9
mkimage "$T/fw/early.bin" 3000
pending early.bin
unset E_ACTION E_DEVPATH E_FIRMWARE E_SUBSYSTEM E_TIMEOUT E_ASYNC E_SEQNUM

run kernel_env FWLOAD_HOTPLUG=/sbin/hotplug $TEST_SH "$REPO/firmware.agent" --setup
status_is 0
file_is "$P/sys/kernel/hotplug" '/sbin/hotplug
'
file_is "$P/sys/kernel/firmware_config/force_sysfs_fallback" '1
'
file_is "$SYS/class/firmware/timeout" '9
'
file_is "$REQ/loading" 10
data_is "$T/fw/early.bin"
log_has "fwload: setup: uevent helper /sbin/hotplug, sysfs fallback forced, timeout 9 s; rescanning pending requests"

# FORCE_FALLBACK=no leaves the sysctl alone; a bad TIMEOUT is reported.
echo 0 >"$P/sys/kernel/firmware_config/force_sysfs_fallback"
conf "LOG=$LOGF" FORCE_FALLBACK=no TIMEOUT=soon
rm "$SYS/class/firmware/early.bin"
run kernel_env $TEST_SH "$REPO/firmware.agent" --setup
status_is 0
file_is "$P/sys/kernel/firmware_config/force_sysfs_fallback" '0
'
file_is "$SYS/class/firmware/timeout" '9
'
log_has "fwload: $CONF:3: TIMEOUT wants whole seconds; ignored"

rm "$P/sys/kernel/hotplug"
run agent --setup
status_is 111
grep -q "setup: no $P/sys/kernel/hotplug or $SYS/kernel/uevent_helper to write" "$LOGF" ||
	fail "no reason given: $(cat "$LOGF")"
