# SPDX-License-Identifier: MIT
# fwloadctl setup on a busybox board whose uevent helper is mdev: setup must
# not break it. mdev stays the helper of every other subsystem (its path in
# /run/fwload/previous-helper; hotplug runs it after its hooks, never for
# firmware), so hot-plugged devices still get their /dev nodes from it;
# firmware events reach our agent only (mdev would cancel every request for
# a file outside /lib/firmware, as /run/fw is). setup --undo gives mdev back
# the kernel's helper.
. ../lib.sh
kept=/run/fwload/previous-helper
# Whatever happens, the next cases get the helper and the node back.
restore() {
	rm -f "$kept" /run/fwload/setup.state /dev/mdev.log
	echo /sbin/hotplug >/proc/sys/kernel/hotplug
	[ -c /dev/test_firmware ] || mknod /dev/test_firmware c "$(cut -d: -f1 "$TF/dev")" "$(cut -d: -f2 "$TF/dev")"
}
trap restore EXIT
rm -f /run/fwload/setup.state  # this case's setup is the first: what --undo gives back
bb=''
for d in /bin /usr/bin /sbin /usr/sbin; do
	[ -x "$d/busybox" ] && bb=$d/busybox && break
done
[ -n "$bb" ] || { echo "no busybox here"; exit 77; }
mkdir -p /run/bin
ln -sf "$bb" /run/bin/mdev  # mdev is busybox under the name mdev
echo /run/bin/mdev >/proc/sys/kernel/hotplug
: >/dev/mdev.log  # mdev logs each event it gets here

fwloadctl setup >/run/setup.out || fail "fwloadctl setup exited $?: $(cat /run/setup.out)"
read -r helper </proc/sys/kernel/hotplug
[ "$helper" = /sbin/hotplug ] || fail "uevent helper is '$helper'"
grep -q "the previous one, /run/bin/mdev, still runs for every other subsystem: $kept" /run/setup.out ||
	fail "setup said: $(cat /run/setup.out)"
[ "$(cat "$kept")" = /run/bin/mdev ] || fail "$kept: $(cat "$kept" 2>&1)"
[ ! -e /etc/hotplug.d/default ] || fail "setup wrote to /etc: $(ls /etc/hotplug.d/default)"
echo "ok: setup kept mdev for the other subsystems: $(cat /run/setup.out)"

# A device node: remove test_firmware's (made by devtmpfs at boot) and send
# its add event again; devtmpfs does not act on that, mdev does.
rm /dev/test_firmware
echo add >"$TF/uevent"
i=0
while [ ! -c /dev/test_firmware ] && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
[ -c /dev/test_firmware ] || fail "mdev did not make /dev/test_firmware again; mdev.log: $(cat /dev/mdev.log)"
grep -q test_firmware /dev/mdev.log || fail "mdev logged nothing for it: $(cat /dev/mdev.log)"
echo "ok: mdev made /dev/test_firmware for a misc add event"

# Firmware: ours loads it, mdev never sees the event.
: >/dev/mdev.log
mkimage fwload-test-mdev.bin 20000
request fwload-test-mdev.bin
request_fails fwload-test-mdev-missing.bin 2
kmsg "fwload: cancelled fwload-test-mdev-missing\\.bin for .*; not found in "
if grep -q firmware /dev/mdev.log; then
	fail "mdev got firmware events: $(cat /dev/mdev.log)"
fi
echo "ok: firmware loaded through our agent; mdev saw no firmware event"

# setup --undo: mdev is the helper again, nothing of ours is left.
fwloadctl setup --undo >/run/setup.out || fail "fwloadctl setup --undo exited $?: $(cat /run/setup.out)"
read -r helper </proc/sys/kernel/hotplug
[ "$helper" = /run/bin/mdev ] || fail "after setup --undo the uevent helper is '$helper'"
[ ! -e "$kept" ] || fail "$kept after setup --undo"
grep -q "^fwloadctl: setup --undo: uevent helper /run/bin/mdev again" /run/setup.out || fail "setup --undo said: $(cat /run/setup.out)"
echo "ok: setup --undo gave mdev the kernel's helper back: $(cat /run/setup.out)"
