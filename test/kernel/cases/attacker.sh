# SPDX-License-Identifier: MIT
# Nobody but root decides a load, on real kernfs files. An unprivileged
# process (uid 65534, no groups: test/kernel/lockhold drops to it itself,
# busybox has no setpriv) opens loading, data and the request directory
# read-only (the kernel makes them 0644) and takes every lock it can:
# flock LOCK_EX on each, fcntl and OFD read locks on loading and data. It
# starts before the answer and keeps them. fwload, as the agent runs it
# and by hand with -c, answers all the same: the driver gets the exact
# image, and a cancel still reaches the driver as ENOENT. (Before, fwload's
# flock on loading met the holder's: exit 5, nothing written, the driver
# waited out the timeout.)
. ../lib.sh
name=fwload-test-attacker.bin
dev=/devices/virtual/misc/test_firmware/$name
mkimage "$name" 70000
trap 'echo /sbin/hotplug >/proc/sys/kernel/hotplug; kill "$holder" 2>/dev/null' EXIT

# attack: trigger_request with no helper, then the holder on its files.
attack() {
	echo /bin/true >/proc/sys/kernel/hotplug
	"$TRIGGER" "$TF/trigger_request" "$name" >/run/trigger.out &
	trig=$!
	wait_request "the request"
	: >/run/held  # the redirection below is made in the child: the last holder's "ready" must not count
	/src/test/kernel/lockhold -u 65534:65534 "/sys$dev/loading" "/sys$dev/data" "/sys$dev" \
		>/run/held 2>&1 &
	holder=$!
	i=0
	until grep -q '^ready' /run/held; do
		i=$((i + 1))
		[ $i -lt 500 ] || fail "the holder did not start: $(cat /run/held)"
		sleep 0.01
	done
	for l in "flock /sys$dev/loading" "fcntl /sys$dev/loading" "ofd /sys$dev/loading" \
		"flock /sys$dev/data" "fcntl /sys$dev/data" "ofd /sys$dev/data" "flock /sys$dev"; do
		grep -Fqx "$l ok" /run/held || fail "the holder does not hold $l: $(cat /run/held)"
	done
	grep -q '^ready uid 65534$' /run/held || fail "the holder is not uid 65534: $(cat /run/held)"
}
result() {
	wait "$trig"
	read -r err ms </run/trigger.out
	[ "$err" = "$1" ] || fail "the driver got errno $err after $ms ms, want $1"
	kill "$holder"
	wait "$holder" 2>/dev/null
}

# The agent's way: the whole chain (hotplug, agent, fwload) on a re-sent add.
attack
echo /sbin/hotplug >/proc/sys/kernel/hotplug
echo add >"/sys$dev/uevent"
result 0
cmp "$FW/$name" /dev/test_firmware || fail "the driver got a different image"
echo "ok: the agent loaded $name ($(wc -c <"$FW/$name") bytes) past the holder's locks"

# By hand: a load, then a cancel.
attack
/sbin/fwload -l kmsg "$dev" "$FW/$name" 2>/run/b.err || fail "fwload exited $?: $(cat /run/b.err)"
result 0
cmp "$FW/$name" /dev/test_firmware || fail "the driver got a different image (by hand)"
attack
/sbin/fwload -l kmsg -c "$dev" 2>/run/b.err
st=$?
[ "$st" = 1 ] || fail "fwload -c exited $st, want 1: $(cat /run/b.err)"
result 2
echo "ok: fwload and fwload -c answered past the holder's locks (0, then ENOENT)"
