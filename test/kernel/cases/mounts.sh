# SPDX-License-Identifier: MIT
# The agent copes with an unusual system: /proc not mounted (the release
# comes from uname, fds are assumed closed), and sysfs mounted somewhere
# else than /sys (found in /proc/self/mounts).
. ../lib.sh
mkimage fwload-test-noproc.bin 20000
umount /proc || fail "cannot unmount /proc"
"$TRIGGER" "$TF/trigger_request" fwload-test-noproc.bin >/run/noproc.out
mount -t proc proc /proc
read -r err ms </run/noproc.out
[ "$err" = 0 ] || fail "without /proc: errno $err"
cmp "$FW/fwload-test-noproc.bin" /dev/test_firmware || fail "without /proc: wrong image"
echo "ok: loaded without /proc in $ms ms"

mkimage fwload-test-sys2.bin 30000
mkdir -p /run/sys2
mount -t sysfs sysfs /run/sys2
umount /sys || fail "cannot unmount /sys"
"$TRIGGER" /run/sys2/devices/virtual/misc/test_firmware/trigger_request fwload-test-sys2.bin >/run/sys2.out
mount -t sysfs sysfs /sys
umount /run/sys2
read -r err ms </run/sys2.out
[ "$err" = 0 ] || fail "sysfs at /run/sys2: errno $err"
cmp "$FW/fwload-test-sys2.bin" /dev/test_firmware || fail "sysfs at /run/sys2: wrong image"
echo "ok: loaded with sysfs mounted at /run/sys2 only, in $ms ms"
