# SPDX-License-Identifier: MIT
# The pid file is a regular file with one link, owned by root: a hard link
# to another file, a symbolic link, a file owned by another user and a FIFO
# are refused (status 111, one line) and never written. And it is never
# locked after it was unlinked: hotplugd A runs; B has opened the pid file
# and is held (strace delays its flock by some seconds); A exits (it
# unlinks the file, then lets go of the lock); C starts and makes a new pid
# file. B's lock on the unlinked file must not make it a third instance:
# it sees that the path names another file, tries again, finds C's locked,
# and refuses.
# shellcheck disable=SC2016 # wait_for takes sh code, expanded when it runs
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=hotplugd-lib
. "$REPO/test/unit/hotplugd-lib"

standin 0
mkdir -p "$SYS/class/firmware"
echo precious >"$T/victim"
refused() {
	run timeout "$GUARD" "$HPD" -x "$T/prog" -S "$SYS" -p "$1"
	status_is 111
	stderr_is "$2"
	file_is "$T/victim" "precious
" "the file behind the pid file"
}
ln "$T/victim" "$T/hard.pid"
refused "$T/hard.pid" "hotplugd: refusing the pid file $T/hard.pid: not a regular file with one link owned by root"
ln -s victim "$T/sym.pid"
refused "$T/sym.pid" "hotplugd: cannot open the pid file $T/sym.pid: errno 40 (ELOOP)"
echo 1 >"$T/user.pid"
chown 65534 "$T/user.pid"
refused "$T/user.pid" "hotplugd: refusing the pid file $T/user.pid: not a regular file with one link owned by root"
file_is "$T/user.pid" "1
" "a pid file owned by another user"
mkfifo "$T/fifo.pid"
refused "$T/fifo.pid" "hotplugd: refusing the pid file $T/fifo.pid: not a regular file with one link owned by root"

# The third instance. strace holds B's first flock() at its entry until
# the case lets it go: strace is killed (SIGKILL: the kernel detaches B,
# which goes on into its flock(); strace's own SIGTERM would kill B) once
# A has exited and C runs. The delay strace is given is only a hang guard.
command -v strace >/dev/null || fail "strace is missing: make check-fast installs it"
# opened PID FILE: process PID has FILE open (called from wait_for's eval).
# shellcheck disable=SC2317
opened() {
	for _f in /proc/"$1"/fd/*; do
		[ "$(readlink "$_f" 2>/dev/null)" = "$2" ] && return 0
	done
	return 1
}
PID=$T/pid
b='' tracer='' job=''
trap 'kill -KILL ${b:+"$b"} ${tracer:+"$tracer"} 2>/dev/null; [ -z "$job" ] || wait "$job"; hpd_kill; rm -rf "$T"' EXIT
for try in 1 2 3; do
	rm -f "$PID" "$T/b.err" "$T/strace"
	hpd_start -x "$T/prog" -S "$SYS" -p "$PID"
	strace -o "$T/strace" -e trace=flock -e inject=flock:delay_enter=600000000:when=1 \
		"$HPD" -v -x "$T/prog" -S "$SYS" -p "$PID" 2>"$T/b.err" &
	job=$!
	bg_pid "$job"  # strace (yash: $! is a subshell's, strace its child)
	tracer=$bgpid
	b=
	# B starts under strace, which stops it at every system call: under
	# qemu-user on a loaded host that took over 10 s, and once in some
	# dozens of runs B never got to its open() at all (strace and qemu-user,
	# not hotplugd: the same hotplugd opened it every other time). Not
	# open after 60 s: the race is set up again, at most three times.
	i=0
	until { [ -n "$b" ] || b=$(pgrep -P "$tracer"); } && opened "$b" "$PID"; do
		i=$((i + 1))
		[ "$i" -le 1200 ] || break
		sleep 0.05
	done
	[ "$i" -gt 1200 ] || break
	echo "B did not open the pid file in 60 s (try $try; b.err: $(cat "$T/b.err")): again"
	kill -KILL ${b:+"$b"} "$tracer" 2>/dev/null
	wait "$job"
	b='' tracer='' job=''
	hpd_stop TERM
done
[ -n "$job" ] || fail "B under strace never opened the pid file (three tries)"
hpd_stop TERM
no_file "$PID" "A's pid file after A exited"
hpd_start -x "$T/prog" -S "$SYS" -p "$PID"
c=$HPID
{ alive "$b" && [ ! -s "$T/b.err" ]; } || fail "B (pid $b) did not wait in its flock(): $(cat "$T/b.err")"
kill -KILL "$tracer"  # B's flock() goes on: on A's file, unlinked
wait "$job"
tracer='' job=''
wait_for "! alive $b" "B (pid $b) did not refuse: it runs beside C"
b=
cat "$T/strace" >>"$T/b.err"
grep -q "^hotplugd: already running: $PID is locked (pid $c)\$" "$T/b.err" ||
	fail "B did not refuse: $(cat "$T/b.err")"
grep -q 'listening' "$T/b.err" && fail "B listened: $(cat "$T/b.err")"
file_is "$PID" "$c
" "C's pid file"
hpd_stop TERM
