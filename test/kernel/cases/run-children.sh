# SPDX-License-Identifier: MIT
# A run= program and everything it starts are one unit: a program run as
# a user of its own (user=, a dedicated system user added here as a
# package adds one) starts children (sleep: one in its process group, one
# in a session of its own, one orphaned at once, as a daemon's double fork
# does) and stalls past DEADLINE (3 s; the kernel's timeout is 60 s). The
# driver gets its error (ENOENT, fwload's -1) at the deadline, the kernel
# log says why, and 1 s after, no process of that user is left
# (fwload-keep, which the agent puts in front of a run= program, is the
# subreaper of all it starts).
. ../lib.sh

trap runas_user_undo EXIT
command -v setsid >/dev/null || fail "no setsid here to start a session with"
runas_user
cat >/tmp/fwload-kids.sh <<'PROG'
#!/bin/sh
sleep 4321 >/dev/null &
c=$!
setsid sleep 4323 </dev/null >/dev/null 2>&1 &
(setsid sleep 4324 </dev/null >/dev/null 2>&1 &)
echo "$$ $c" >/tmp/fwload-kids.started
sleep 4322
PROG
chmod 755 /tmp/fwload-kids.sh
rm -f /tmp/fwload-kids.started
conf 'FIRMWARE_PATH=/run/fw' 'LOG=kmsg' 'DEADLINE=3'
echo "firmware=fwload-test-kids.bin run=/tmp/fwload-kids.sh user=$RUNAS" >/etc/fwload.rules

# procs: the processes of uid RUNAS_ID, as "PID:COMM" (zombies aside).
procs() {
	for s in /proc/[0-9]*/status; do
		name='' state='' uid=''
		while read -r k v _; do
			case $k in
			Name:) name=$v ;;
			State:) state=$v ;;
			Uid:) uid=$v && break ;;
			esac
		done <"$s" 2>/dev/null
		p=${s%/status}
		[ "$uid" = "$RUNAS_ID" ] && [ "$state" != Z ] && printf '%s ' "${p#/proc/}:$name"
	done
}

request_fails fwload-test-kids.bin 2
{ [ "${ms%%.*}" -ge 2500 ] && [ "${ms%%.*}" -lt 20000 ]; } || fail "the request ended after $ms ms, want DEADLINE's 3 s"
read -r prog child </tmp/fwload-kids.started || fail "the program did not run"
echo "ok: the program (pid $prog) started its child (pid $child) as $RUNAS"
kmsg "fwload: fwload-test-kids\\.bin: deadline of 3 s passed reading standard input via /lib/fwload/fwload-keep; request aborted; run= /tmp/"
i=0
while [ -n "$(procs)" ]; do
	i=$((i + 1))
	[ "$i" -le 10 ] || fail "1 s after the request ended, the program's processes run on: $(procs)"
	sleep 0.1
done
echo "ok: no process of $RUNAS left"
