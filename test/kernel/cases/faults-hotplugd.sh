# SPDX-License-Identifier: MIT
# No request left to the kernel's timeout: faults under hotplugd, on the
# real kernel, the request timeout 60 s, each asserting what the driver got
# (the exact image, or an error) well before it, each beside its control.
#
#  1. A job killed as a whole (SIGKILL to its process group: hook, agent
#     and fwload) while its run= program stalls with loading at 1: hotplugd
#     looks at the request again, which is served exact; the program and
#     its children (one in a session of its own) are gone. Control: the
#     same request, no kill.
#  2. fwload alone killed mid-load: the agent cancels (ENOENT) at once, and
#     the program and its children are gone (fwload-keep saw fwload die).
#  3. hotplugd SIGKILLed in a burst of 24 distinct requests (the stress
#     driver) with 8 jobs in flight and 16 events in its socket, and started
#     again: its start rescan meets the 8 requests the old jobs answer
#     meanwhile. Every request exact, each logged once, no job alive past
#     the burst, no other line about them.
#  4. A request made while no hotplugd runs: the next one's start rescan
#     serves it.
#  5. A held request (HOLD=) across a hotplugd SIGKILL and restart: served
#     exact once when its file comes, logged once.
#  6. fwloadctl setup --hotplugd with /run/fwload a tmpfs without a free
#     block, then without a free inode: setup says hotplugd started (not
#     "did not start"), status names it, a found image loads exact, a
#     missing one is cancelled, a hold without room for its record is
#     shown held and served. Control: the same on a tmpfs with room.
. ../lib.sh
. ./hotplugd-lib
ST=/sys/devices/virtual/misc/fwload_stress
[ -e "$ST/trigger" ] || fail "the fwload_stress driver is missing from the test kernel"
[ "$(cat /sys/class/firmware/timeout)" = 60 ] || fail "the request timeout is not 60 s"
FULL=/run/fwload
DEV=/devices/virtual/misc/test_firmware
trap 'umount "$FULL" 2>/dev/null; restore_source' EXIT

# within MS LIMIT WHAT: the driver's answer came in under LIMIT ms.
within() {
	[ "${1%%.*}" -lt "$2" ] || fail "$3: answered after $1 ms (the timeout is 60 s)"
}

# stat_of PID: $ppid, $pgrp, $sid of PID (from /proc/PID/stat).
stat_of() {
	_l=$(cat "/proc/$1/stat" 2>/dev/null) || fail "no process $1"
	# shellcheck disable=SC2086 # the fields after "(comm) "
	set -- ${_l##*) }
	ppid=$2 pgrp=$3 sid=$4
}

# gone PID... : within 1 s, none of the PIDs is a process of the program
# (its command line checked, never its number alone), zombies aside.
gone() {
	_i=0
	while :; do
		_left=''
		for _p; do
			_st=$(sed 's/.*) \([A-Z]\).*/\1/' "/proc/$_p/stat" 2>/dev/null)
			{ [ -z "$_st" ] || [ "$_st" = Z ]; } && continue
			tr '\0' ' ' <"/proc/$_p/cmdline" 2>/dev/null | grep -Eq 'fwload-jk|sleep 432' && _left="$_left $_p"
		done
		[ -n "$_left" ] || return 0
		_i=$((_i + 1))
		[ "$_i" -le 10 ] || fail "the program's processes run on:$_left"
		sleep 0.1
	done
}

# lines NAME: fwload's kernel log lines about NAME.
lines() {
	dmesg | grep -F "fwload: " | grep -F "$1" || true
}

# lines_are N TEXT WHAT: N of lines TEXT, once N have come (fwload answers
# first and logs after: a line may follow the driver's result; waited for
# up to 5 s), else fail naming WHAT.
lines_are() {
	_i=0
	while [ "$(lines "$2" | wc -l)" -lt "$1" ] && [ "$_i" -lt 50 ]; do
		_i=$((_i + 1))
		sleep 0.1
	done
	[ "$(lines "$2" | wc -l)" = "$1" ] || fail "$3: want $1 lines '$2', got: $(lines "$2")"
}

# stop_pid SIGNAL PID WHAT: SIGNAL to PID, and PID gone within 10 s.
stop_pid() {
	kill -"$1" "$2"
	_i=0
	while [ -d "/proc/$2" ]; do
		_i=$((_i + 1))
		[ "$_i" -le 100 ] || fail "$3 $2 did not end on SIG$1"
		sleep 0.1
	done
}

# kill_hotplugd: SIGKILL to the case's hotplugd, waited for.
kill_hotplugd() {
	stop_pid KILL "$HPID" hotplugd
	HPID=
}

# hotplugd_again ARG...: a hotplugd of the case's own started again (the
# dead one's pid file is still there; unlocked).
hotplugd_again() {
	hotplugd_bg /run/hotplugd-case.pid "$@" || fail "hotplugd $* did not start again"
	HPID=$(cat /run/hotplugd-case.pid)
}

# --- 1 and 2: a job killed as a whole; fwload alone killed ------------------
# The program: two children (one in its group, one in a session of its
# own), then 1000 bytes, then it stalls (its first run for a name); the
# image at once when /run/jk.serve exists.
cat >/run/fwload-jk.sh <<'END'
#!/bin/sh
if [ ! -e /run/jk.serve ]; then
	sleep 4321 >/dev/null &
	c=$!
	rm -f /run/jk.esc
	setsid sh -c 'echo $$ >/run/jk.esc; exec sleep 4323' </dev/null >/dev/null 2>&1 &
	until [ -s /run/jk.esc ]; do sleep 0.01; done
	echo "$$ $c $(cat /run/jk.esc)" >/run/jk.started
	head -c 1000 /run/jk.img
	: >/run/jk.serve
	sleep 4322
fi
cat /run/jk.img
END
chmod 755 /run/fwload-jk.sh
head -c 70000 /dev/urandom >/run/jk.img
cp /run/jk.img "$FW/fwload-jk.ref"
printf '%s\n' 'firmware=fwload-test-jobkill.bin run=/run/fwload-jk.sh' \
	'firmware=fwload-test-fwkill.bin run=/run/fwload-jk.sh' >/etc/fwload.rules
start_hotplugd -j 8

# serve_jk NAME: the control, no kill: served exact at once.
: >/run/jk.serve
trigger trigger_request fwload-test-jobkill.bin
[ "$err" = 0 ] || fail "control: errno $err after $ms ms"
cmp /run/jk.img /dev/test_firmware || fail "control: the driver got a different image"
within "$ms" 10000 "control"
echo "ok: control: the run= image in $ms ms"

# stalled NAME: request NAME in the background, until its program stalls
# (loading at 1); sets tp, prog, child, keeper (fwload-keep, its parent,
# leading the session and group fwload made), fwpid (fwload) and job (the
# job's process group, a child of hotplugd).
stalled() {
	rm -f /run/jk.serve /run/jk.started
	"$TRIGGER" "$TF/trigger_request" "$1" >/run/jk.out &
	tp=$!
	_i=0
	until [ -s /run/jk.started ]; do
		_i=$((_i + 1))
		[ "$_i" -le 200 ] || fail "$1: the program did not start"
		sleep 0.05
	done
	read -r prog child esc </run/jk.started
	[ "$(cat "/sys/class/firmware/$1/loading")" = 1 ] || fail "$1: loading is not 1 while the program stalls"
	stat_of "$prog"
	keeper=$ppid
	stat_of "$keeper"
	fwpid=$ppid
	stat_of "$fwpid"
	job=$pgrp
	stat_of "$job"
	[ "$ppid" = "$HPID" ] || fail "$1: the job's group $job is no child of hotplugd $HPID"
	stat_of "$prog"
	if [ "$sid" != "$keeper" ] || [ "$pgrp" != "$keeper" ] || [ "$pgrp" = "$job" ]; then
		fail "$1: the program's session $sid and group $pgrp (keeper $keeper, program $prog, job $job)"
	fi
}

stalled fwload-test-jobkill.bin
kill -KILL -"$job"
wait "$tp"
read -r err ms </run/jk.out
[ "$err" = 0 ] || fail "a job killed as a whole: errno $err after $ms ms"
cmp /run/jk.img /dev/test_firmware || fail "a job killed as a whole: the driver got a different image"
within "$ms" 20000 "a job killed as a whole"
kmsg "hotplugd: /sbin/hotplug for add $DEV/fwload-test-jobkill\\.bin: killed by signal 9; its request is looked at again"
gone "$prog" "$child" "$esc"
lines_are 2 'loaded fwload-test-jobkill.bin' "a job killed as a whole"
echo "ok: the job's group (pid $job) killed mid-load: looked at again, served exact in $ms ms; the program and its children gone"

stalled fwload-test-fwkill.bin
kill -KILL "$fwpid"
wait "$tp"
read -r err ms </run/jk.out
[ "$err" = 2 ] || fail "fwload killed: errno $err after $ms ms, want ENOENT"
within "$ms" 20000 "fwload killed"
gone "$prog" "$child" "$esc"
kmsg "fwload: cancelled fwload-test-fwkill\\.bin for $DEV/fwload-test-fwkill\\.bin; fwload-test-fwkill\\.bin: fwload ended with status [0-9]+"
echo "ok: fwload killed mid-load: cancelled in $ms ms; the program and its children gone"
rm -f /etc/fwload.rules
stop_hotplugd

# --- 3: hotplugd killed mid-burst and started again --------------------------
n=24
i=0
while [ $i -lt $n ]; do
	mkimage "fwload-test-burst-$i.bin" $((1000 + i * 7919))
	f=$FW/fwload-test-burst-$i.bin
	echo "$i $(wc -c <"$f" | tr -d ' ') $(gzip -c <"$f" | tail -c 8 | od -An -tx4 -N4 | tr -d ' ')"
	i=$((i + 1))
done >/run/burst.want
# PROGRAM: /sbin/hotplug, with "+ GEN NAME" and "- GEN NAME" around it. The
# first hotplugd's jobs (gen 1) wait for the word; the second's (gen 2) for
# the first's 8 to have answered (the case says so): they meet those
# requests answered.
cat >/run/burst-wrap <<'END'
#!/bin/sh
gen=1
[ -e /run/burst-gen2 ] && gen=2
echo "+ $gen $FIRMWARE" >>/run/burst-jobs
if [ $gen = 1 ]; then
	until [ -e /run/burst-go ]; do sleep 0.1; done
else
	until [ -e /run/burst-gen1-done ]; do sleep 0.2; done
fi
/sbin/hotplug "$@"
echo "- $gen $FIRMWARE" >>/run/burst-jobs
END
chmod 755 /run/burst-wrap
rm -f /run/burst-gen2 /run/burst-go /run/burst-gen1-done
: >/run/burst-jobs
start_hotplugd -j 8 -x /run/burst-wrap
"$TRIGGER" "$ST/trigger" "$n fwload-test-burst" >/run/burst.out &
tp=$!
i=0
until [ "$(grep -c '^+ 1 ' /run/burst-jobs)" -ge 8 ]; do
	i=$((i + 1))
	[ "$i" -le 300 ] || fail "the first hotplugd did not start 8 jobs: $(cat /run/burst-jobs)"
	sleep 0.1
done
i=0
until [ "$(find /sys/class/firmware/ -name 'fwload-test-burst-*' | wc -l)" = $n ]; do
	i=$((i + 1))
	[ "$i" -le 300 ] || fail "the burst's $n requests did not all appear"
	sleep 0.1
done
sleep 0.2  # their events are in the first hotplugd's socket
kill_hotplugd
: >/run/burst-gen2
hotplugd_again -j 32 -x /run/burst-wrap
: >/run/burst-go
i=0
until [ "$(grep -c '^- 1 ' /run/burst-jobs)" = 8 ]; do
	i=$((i + 1))
	[ "$i" -le 300 ] || fail "the first hotplugd's jobs did not end: $(cat /run/burst-jobs)"
	sleep 0.1
done
: >/run/burst-gen1-done
wait "$tp"
read -r err ms </run/burst.out
[ "$err" = 0 ] || fail "burst: the trigger failed with errno $err after $ms ms"
diff /run/burst.want "$ST/results" || fail "burst: results differ (size -1 = a failed request)"
within "$ms" 40000 "the burst"
[ "$(grep -c '^+ 1 ' /run/burst-jobs)" = 8 ] || fail "burst: the first hotplugd ran $(grep -c '^+ 1 ' /run/burst-jobs) jobs, want 8"
[ "$(grep -c '^+ 2 ' /run/burst-jobs)" = $n ] || fail "burst: the second one's rescan ran $(grep -c '^+ 2 ' /run/burst-jobs) jobs, want $n"
i=0
until [ "$(grep -c '^-' /run/burst-jobs)" = "$(grep -c '^+' /run/burst-jobs)" ]; do
	i=$((i + 1))
	[ "$i" -le 100 ] || fail "burst: jobs alive 10 s after the burst: $(sort /run/burst-jobs | uniq -u | head)"
	sleep 0.1
done
i=0
while [ $i -lt $n ]; do
	c=$(lines "loaded fwload-test-burst-$i.bin " | wc -l)
	[ "$c" = 1 ] || fail "burst: fwload-test-burst-$i.bin logged loaded $c times"
	i=$((i + 1))
done
other=$(lines fwload-test-burst | grep -v 'loaded fwload-test-burst-[0-9]*\.bin ')
[ -z "$other" ] || fail "burst: lines other than one 'loaded' each: $other"
echo "ok: hotplugd killed with 8 jobs in flight and 16 events queued, started again: $n exact in $ms ms, each logged once, no job left, no other line"

# --- 4: a request made while no hotplugd runs --------------------------------
kill_hotplugd
mkimage fwload-test-dead.bin 5000
"$TRIGGER" "$TF/trigger_request" fwload-test-dead.bin >/run/dead.out &
tp=$!
dev=$DEV/fwload-test-dead.bin
wait_request "the request made with no hotplugd"
hotplugd_again -j 8
wait "$tp"
read -r err ms </run/dead.out
[ "$err" = 0 ] || fail "made while no hotplugd ran: errno $err after $ms ms"
cmp "$FW/fwload-test-dead.bin" /dev/test_firmware || fail "made while no hotplugd ran: a different image"
within "$ms" 20000 "a request made while no hotplugd ran"
echo "ok: a request made while no hotplugd ran: served by the next one's start rescan in $ms ms"

# --- 5: a held request across a hotplugd restart ------------------------------
conf FIRMWARE_PATH=/run/fw LOG=kmsg HOLD=30
name=fwload-test-held-restart.bin
head -c 9000 /dev/urandom >/run/held-restart.src
"$TRIGGER" "$TF/trigger_request" "$name" >/run/held.out &
tp=$!
held_by "$name"
kill_hotplugd
hotplugd_again -j 8
held_by "$name"  # taken over, or kept
cp /run/held-restart.src "$FW/$name"
wait "$tp"
read -r err ms </run/held.out
[ "$err" = 0 ] || fail "held across a restart: errno $err after $ms ms"
cmp "$FW/$name" /dev/test_firmware || fail "held across a restart: a different image"
within "$ms" 40000 "held across a restart"
lines_are 1 "loaded $name" "held across a restart"
echo "ok: held across a hotplugd restart: served exact once, in $ms ms"
stop_hotplugd
conf FIRMWARE_PATH=/run/fw LOG=kmsg

# --- 6: fwloadctl setup --hotplugd on a full /run/fwload ----------------------
# fill blocks|inodes|room: a fresh tmpfs on /run/fwload, full as asked.
fill() {
	umount "$FULL" 2>/dev/null
	case $1 in
	blocks)
		mount -t tmpfs -o size=4k,mode=700 fwload-full "$FULL" || fail "cannot mount a tiny tmpfs"
		head -c 1048576 /dev/zero >"$FULL/filler" 2>/dev/null
		printf x 2>/dev/null >"$FULL/more" && [ -s "$FULL/more" ] && fail "the tiny tmpfs is not full"
		rm -f "$FULL/more"
		;;
	inodes)
		mount -t tmpfs -o size=64k,nr_inodes=8,mode=700 fwload-full "$FULL" || fail "cannot mount a tiny tmpfs"
		_i=0
		while command : 2>/dev/null >"$FULL/f$_i"; do
			_i=$((_i + 1))
			[ "$_i" -lt 100 ] || fail "the tmpfs has more than 8 inodes"
		done
		;;
	room) mount -t tmpfs -o size=1m,mode=700 fwload-full "$FULL" || fail "cannot mount a tmpfs" ;;
	esac
}
for full in room blocks inodes; do
	fill "$full"
	fwloadctl setup --hotplugd >/run/setup.out 2>&1
	st=$?
	[ "$st" = 0 ] || fail "$full: setup --hotplugd exited $st: $(cat /run/setup.out)"
	grep -q 'did not start' /run/setup.out && fail "$full: $(cat /run/setup.out)"
	fwloadctl status >/run/status.out 2>&1
	sp=$(sed -n 's/^source: *hotplugd (pid \([0-9]*\))$/\1/p' /run/status.out)
	[ -n "$sp" ] || fail "$full: status names no hotplugd: $(cat /run/setup.out /run/status.out)"
	mkimage "fwload-test-full-$full.bin" 30000
	request "fwload-test-full-$full.bin"
	within "$ms" 10000 "$full: a found image"
	request_fails "fwload-test-full-$full-missing.bin" 2
	within "$ms" 10000 "$full: a missing image"
	# A hold without room for its record (room: the record is there).
	conf FIRMWARE_PATH=/run/fw LOG=kmsg HOLD=30
	name=fwload-test-full-$full-held.bin
	"$TRIGGER" "$TF/trigger_request" "$name" >/run/held.out &
	tp=$!
	want="held, [0-9]+ s left \\(agent pid [0-9]+\\)"
	[ "$full" = room ] || want="held, its record missing \\(agent pid [0-9]+; /run/fwload/held could not be written\\)"
	i=0
	until fwloadctl status 2>&1 | grep -Eq "^  $name  .*  $want\$"; do
		i=$((i + 1))
		[ "$i" -le 100 ] || fail "$full: not held as '$want': $(fwloadctl status 2>&1)"
		sleep 0.1
	done
	head -c 7000 /dev/urandom >"/run/$name.src"
	cp "/run/$name.src" "$FW/$name"
	wait "$tp"
	read -r err ms </run/held.out
	[ "$err" = 0 ] || fail "$full: the held request ended with errno $err after $ms ms"
	cmp "$FW/$name" /dev/test_firmware || fail "$full: the held request got a different image"
	within "$ms" 40000 "$full: the held request"
	conf FIRMWARE_PATH=/run/fw LOG=kmsg
	echo "ok: /run/fwload $full: setup --hotplugd started hotplugd (pid $sp), found exact, missing cancelled, a hold shown and served ($ms ms)"
	stop_pid TERM "$sp" "$full: hotplugd"
	# (the held request's agent may still be ending, its answer given:
	# a moment with a file of the run directory open)
	i=0
	until umount "$FULL" 2>/dev/null; do
		i=$((i + 1))
		[ "$i" -le 50 ] || fail "$full: cannot unmount the tmpfs: $(umount "$FULL" 2>&1)"
		sleep 0.1
	done
done
echo 60 >/sys/class/firmware/timeout
