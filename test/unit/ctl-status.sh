# SPDX-License-Identifier: MIT
# shellcheck disable=SC2086 # $TEST_SH is a command line ("busybox sh")
# fwloadctl status: the current uevent helper, where events come from, the
# fallback and the timeout, the requests pending (name, DEVPATH, age; never
# a firmware-upload device) and the missing list (MISSING_DIR); it touches
# nothing, and config warnings go to stderr only.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
L=$T/run/missing
P=$T/proc
mkdir -p "$P/sys/kernel/firmware_config" "$SYS/class/firmware"
echo /sbin/mdev >"$P/sys/kernel/hotplug"
echo 1 >"$P/sys/kernel/firmware_config/force_sysfs_fallback"
echo 30 >"$SYS/class/firmware/timeout"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MISSING_DIR=$L" BOGUS=1
request gone.bin
run agent firmware
status_is 1
request vendor/lost.bin
run agent firmware
status_is 1
pending a.bin
pending vendor/b.bin
# A firmware-upload device: a node in the class, not a request.
pending flash.bin
: >"$REQ/remaining_size"
: >"$LOGF"

run ctl status
status_is 0
grep -q "unknown setting BOGUS" "$T/stderr" || fail "no config warning on stderr: $(cat "$T/stderr")"
sed 's/age [0-9]* s$/age N s/' "$T/stdout" >"$T/shown"
file_is "$T/shown" "helper:   /sbin/mdev
source:   none: the uevent helper is /sbin/mdev, not /sbin/hotplug (fwloadctl setup)
udevd:    not running
fallback: forced (every failed direct load asks user space)
timeout:  30 s
pending requests (those made without a uevent wait until answered):
  a.bin  $TF/a.bin  age N s
  vendor/b.bin  $TF/vendor!b.bin  age N s
missing firmware ($L):
  gone.bin  $TF/gone.bin
  vendor/lost.bin  $TF/vendor!lost.bin
" "status"
file_is "$LOGF" "" "the log after status"
file_is "$REQ/loading" "" "the upload device after status"

# Nothing pending, no fallback settings, the helper ours, no missing list.
rm -r "$SYS/class/firmware"/* "$L" "$P/sys/kernel/firmware_config"
echo 0 >"$SYS/class/firmware/timeout"
echo /sbin/hotplug >"$P/sys/kernel/hotplug"
conf "LOG=$LOGF" "MISSING_DIR=$L"
run kernel_env FWLOAD_HOTPLUG=/sbin/hotplug $TEST_SH "$REPO/fwloadctl" status
status_is 0
stdout_is "helper:   /sbin/hotplug
source:   uevent helper /sbin/hotplug
udevd:    not running
fallback: unknown (no $P/sys/kernel/firmware_config)
timeout:  none (requests wait until answered)
pending requests (those made without a uevent wait until answered):
  none
missing firmware ($L):
  none"
run ctl status extra
status_is 100
