# SPDX-License-Identifier: MIT
# One answerer per request, on the real kernel (flock on the kernfs
# loading file). Answerer A is fwload fed from a slow pipe (64 KiB, a
# pause, the rest of a 256 KiB image); while it copies:
#  1. a second fwload on the same request (a rescan, a person) exits 5 and
#     writes nothing, also with -c;
#  2. a re-sent add uevent (echo add > /sys$DEVPATH/uevent) runs the whole
#     chain (hotplug, agent, fwload) for a file of the same name with other
#     content: nothing changes;
# and the driver gets A's image, byte for byte. Before, the second writer's
# "1" threw away A's first pages and A committed a corrupted image.
#  3. A request replaced at the same DEVPATH: A holds the lock on a request
#     that timed out under it; a new request for the same name is a new
#     kernfs file, not covered by that lock, and is served at once; A's
#     next write fails and it exits 111.
. ../lib.sh
name=fwload-test-race.bin
dev=/devices/virtual/misc/test_firmware/$name
head -c 262144 /dev/urandom >/run/race.img
head -c 5000 /dev/urandom >"$FW/$name"  # what anyone else would find
trap 'echo /sbin/hotplug >/proc/sys/kernel/hotplug; rm -f /etc/hotplug.d/firmware/99-probe.hotplug' EXIT

# start: trigger_request in the background, no helper answering; wait for
# the request's files.
start() {
	echo /bin/true >/proc/sys/kernel/hotplug
	"$TRIGGER" "$TF/trigger_request" "$name" >/run/trigger.out &
	trig=$!
	wait_request "the request"
}
# slow_a PAUSE: answerer A in the background; waits until its first 64 KiB
# are in data (reading data while loading shows what was written).
slow_a() {
	rm -f /run/a.status
	(
		{ head -c 65536 /run/race.img; sleep "$1"; tail -c +65537 /run/race.img; } |
			/sbin/fwload -l kmsg "$dev" - 2>/run/a.err
		echo $? >/run/a.status
	) &
	a=$!
	i=0
	until [ "$(wc -c <"/sys$dev/data" 2>/dev/null || echo 0)" -ge 65536 ]; do
		i=$((i + 1))
		[ $i -lt 500 ] || fail "A did not start copying"
		sleep 0.01
	done
}
# result WANT_ERRNO: the trigger's result.
result() {
	wait "$trig"
	read -r err ms </run/trigger.out
	[ "$err" = "$1" ] || fail "the driver got errno $err after $ms ms, want $1"
}
a_status() {
	wait "$a"
	read -r st </run/a.status || fail "A did not finish"
	[ "$st" = "$1" ] || fail "A exited $st, want $1: $(cat /run/a.err)"
}

# 1. A second fwload, mid-copy.
start
slow_a 2
/sbin/fwload -l kmsg "$dev" "$FW/$name" 2>/run/b.err
st=$?
[ "$st" = 5 ] || fail "B exited $st, want 5 (busy): $(cat /run/b.err)"
grep -q "another answerer holds $dev; left alone" /run/b.err || fail "B's message: $(cat /run/b.err)"
/sbin/fwload -l kmsg -c "$dev" 2>/run/b.err
st=$?
[ "$st" = 5 ] || fail "B -c exited $st, want 5 (busy): $(cat /run/b.err)"
[ ! -e /run/a.status ] || fail "A had finished before B ran: the test proves nothing"
result 0
cmp /run/race.img /dev/test_firmware || fail "the driver got a different image (second answerer)"
a_status 0
echo "ok: a second fwload mid-copy left the request alone (exit 5); the driver got A's 262144 bytes"

# 2. A re-sent add uevent: the whole chain runs, and changes nothing.
mkdir -p /etc/hotplug.d/firmware
# shellcheck disable=SC2016 # the hook's own script
printf '#!/bin/sh\necho "$ACTION $DEVPATH" >>/run/probe\n' >/etc/hotplug.d/firmware/99-probe.hotplug
chmod 755 /etc/hotplug.d/firmware/99-probe.hotplug
rm -f /run/probe
start
slow_a 3
echo /sbin/hotplug >/proc/sys/kernel/hotplug
echo add >"/sys$dev/uevent"
i=0
until grep -q "^add $dev\$" /run/probe 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 300 ] || fail "the re-sent add uevent did not run the chain"
	sleep 0.01
done
[ ! -e /run/a.status ] || fail "A had finished before the agent ran: the test proves nothing"
result 0
cmp /run/race.img /dev/test_firmware || fail "the driver got a different image (re-sent add uevent)"
a_status 0
rm -f /etc/hotplug.d/firmware/99-probe.hotplug
dmesg | grep -q "fwload: loaded $name (5000 bytes" && fail "the agent loaded its file over A's request"
echo "ok: a re-sent add uevent during a slow load changed nothing"

# 3. The request replaced at the same DEVPATH while A holds the old lock.
echo 2 >/sys/class/firmware/timeout
start
slow_a 6
result 110  # the kernel's timeout, A still holding the old request
echo 60 >/sys/class/firmware/timeout
[ ! -e /run/a.status ] || fail "A had finished: the test proves nothing"
start
/sbin/fwload -l kmsg "$dev" "$FW/$name" 2>/run/b.err
st=$?
[ "$st" = 0 ] || fail "the new request's answerer exited $st, want 0: $(cat /run/b.err)"
result 0
cmp "$FW/$name" /dev/test_firmware || fail "the new request got a different image"
a_status 111
echo "ok: a new request at the same DEVPATH is not covered by the old one's lock; A exited 111: $(cat /run/a.err)"
