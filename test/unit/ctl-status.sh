# SPDX-License-Identifier: MIT
# shellcheck disable=SC2086 # $TEST_SH is a command line ("busybox sh")
# fwloadctl status: the current uevent helper, where events come from, the
# fallback and the timeout, the requests pending (name, DEVPATH, age; never
# a firmware-upload device), the firmware-upload devices (status, error,
# remaining_size; the fwload writing an image to one) and the missing list
# (MISSING_DIR); it touches nothing, and config warnings go to stderr only.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
needs fwloadctl

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
# Firmware-upload devices: nodes in the class, not requests. One idle
# after a failed upload (the kernel keeps remaining_size), one at work
# (its error is said only when idle: EBUSY), one that fwload is writing an
# image to (loading 1; fwload holds its lock).
pending flash.bin
echo 1003 >"$REQ/remaining_size"
echo idle >"$REQ/status"
echo programming:hw-error >"$REQ/error"
flash=$REQ
pending busy.bin
echo 700 >"$REQ/remaining_size"
echo transferring >"$REQ/status"
mkdir "$REQ/error"  # read fails, as EBUSY does
pending writing.bin
echo 0 >"$REQ/remaining_size"
echo idle >"$REQ/status"
: >"$REQ/error"
{
	head -c 10 /dev/zero
	until [ -e "$T/go" ]; do sleep 0.05; done
} | clean "$FWLOAD" -U -k "$RUN/lock" -s "$SYS" -l none -t 0 "$E_DEVPATH" - >/dev/null 2>&1 &
writer=$!
until_true "the image being written" grep -q 1 "$REQ/loading"
: >"$LOGF"

run ctl status
status_is 0
: >"$T/go"
wait "$writer"
grep -q "unknown setting BOGUS" "$T/stderr" || fail "no config warning on stderr: $(cat "$T/stderr")"
sed -e 's/age [0-9]* s$/age N s/' -e 's/(pid [0-9]*)$/(pid N)/' "$T/stdout" >"$T/shown"
# (the fwload writing to a device: trusted only when /proc/PID/exe is
# fwload; under qemu-user, test/cross.sh, it is qemu)
by=" by fwload (pid N)"
[ -z "${TEST_QEMU-}" ] || by=
file_is "$T/shown" "helper:   /sbin/mdev
source:   none: the uevent helper is /sbin/mdev, not /sbin/hotplug (fwloadctl setup)
udevd:    not running
fallback: forced (every failed direct load asks user space)
timeout:  30 s
pending requests (those made without a uevent wait until answered):
  a.bin  $TF/a.bin  age N s
  vendor/b.bin  $TF/vendor!b.bin  age N s
firmware-upload devices (fwloadctl upload):
  busy.bin  $TF/busy.bin  status transferring, error (said when idle), remaining_size 700
  flash.bin  $TF/flash.bin  status idle, error programming:hw-error, remaining_size 1003
  writing.bin  $TF/writing.bin  status idle, error none, remaining_size 0; an image being written to it$by
missing firmware ($L):
  gone.bin  $TF/gone.bin
  vendor/lost.bin  $TF/vendor!lost.bin
" "status"
file_is "$LOGF" "" "the log after status"
file_is "$flash/loading" "" "the upload device after status"

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
