# SPDX-License-Identifier: MIT
# hotplugd on a full /run (a tiny tmpfs, root only): a full /run costs the
# pid file's record, never the loader. No free block: the file is made and
# locked but its number cannot be written: one line, the file left empty
# and locked, hotplugd listens (-D says so) and serves the pending request;
# a second hotplugd with that file refuses (already running); fwloadctl
# status finds the first by its lock (/proc/locks). No free inode either:
# the file cannot be made: one line, its directory locked instead, hotplugd
# listens and serves; a second one refuses; fwloadctl status finds it by
# the directory's lock. A pid file in a directory that cannot be made: no
# lock at all, said, and still served. The control: a tmpfs with room gets
# the pid. Before, hotplugd exited 111 ("cannot write the pid file:
# ENOSPC") before it listened, and nothing answered any request.
# shellcheck disable=SC2016 # wait_for takes sh code, expanded when it runs
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=hotplugd-lib
. "$REPO/test/unit/hotplugd-lib"

[ "$(id -u)" = 0 ] || fail "this case mounts file systems: run it as root"
FULL=$T/full
mkdir -p "$FULL"
# (hotplugd killed and gone before the tmpfs it holds can be unmounted)
trap 'hpd_kill; [ -z "$HPID" ] || wait_for "! alive $HPID" "hotplugd $HPID did not die" 2>/dev/null
umount "$FULL" 2>/dev/null; rm -rf "$T"' EXIT
standin 0
RUN=$FULL

# fill blocks|inodes|room: a fresh tiny tmpfs on $FULL, full as asked.
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
		i=0
		while command : 2>/dev/null >"$FULL/f$i"; do
			i=$((i + 1))
			[ "$i" -lt 100 ] || fail "the tmpfs has more than 8 inodes"
		done
		;;
	room) mount -t tmpfs -o size=64k,mode=700 fwload-full "$FULL" || fail "cannot mount a tmpfs" ;;
	esac
}

# started PIDFILE WHAT: hotplugd -p PIDFILE -D 3 (fwloadctl's way: ready
# once it listens) has served a pending request. Sets HPID.
started() {
	rm -rf "$T"/runs/* "$SYS/class/firmware" "$SYS$TF"/*.bin
	pending "$2.bin"
	: >"$T/hpd.err"
	: >"$T/ready"
	"$HPD" -x "$T/prog" -S "$SYS" -p "$1" -D 3 3>"$T/ready" 2>"$T/hpd.err" </dev/null &
	bg_pid $!
	HPID=$bgpid
	wait_for '[ -s "$T/ready" ] || ! alive $HPID' "$2: hotplugd is neither ready nor gone"
	[ -s "$T/ready" ] || fail "$2: hotplugd did not start: $(cat "$T/hpd.err")"
	wait_for '[ "$(runs)" = 1 ]' "$2: the pending request was not served: $(cat "$T/hpd.err")"
}

# stopped: SIGTERM to it, and it is gone (not through wait: under yash it
# is the child of the subshell $! named).
stopped() {
	kill -TERM "$HPID" || fail "hotplugd is gone before SIGTERM"
	wait_for '! alive $HPID' "hotplugd $HPID did not stop"
	wait
	HPID=
}

# refused PIDFILE LINE: a second hotplugd with PIDFILE refuses (111), LINE.
refused() {
	run timeout "$GUARD" "$HPD" -x "$T/prog" -S "$SYS" -p "$1"
	status_is 111
	stderr_is "$2"
}

# status_names: fwloadctl status names hotplugd (pid $HPID), found by its
# lock. (Not where hotplugd runs under qemu-user, test/cross.sh: its
# /proc/PID/exe is qemu, never the hotplugd fwloadctl trusts.)
status_names() {
	# shellcheck disable=SC3013 # -ef: every shell we test has it
	[ "/proc/$HPID/exe" -ef "$HPD" ] || return 0
	# shellcheck disable=SC2086 # TEST_SH is a command line ("busybox sh")
	run kernel_env FWLOAD_HOTPLUGD="$HPD" $TEST_SH "$REPO/fwloadctl" status
	grep -q "^source: *hotplugd (pid $HPID)$" "$T/stdout" || fail "$1: status (want hotplugd, pid $HPID): $(cat "$T/stdout" "$T/stderr")"
}

fill blocks
started "$FULL/hotplugd.pid" blocks
file_is "$T/hpd.err" "hotplugd: cannot write the pid into $FULL/hotplugd.pid: errno 28 (ENOSPC): it stays empty, and locked
" "hotplugd's lines (no free block)"
file_is "$FULL/hotplugd.pid" "" "the pid file (no free block)"
refused "$FULL/hotplugd.pid" "hotplugd: already running: $FULL/hotplugd.pid is locked (pid )"
status_names "no free block"
stopped
no_file "$FULL/hotplugd.pid" "the pid file after hotplugd stopped"

fill inodes
started "$FULL/hotplugd.pid" inodes
file_is "$T/hpd.err" "hotplugd: cannot make the pid file $FULL/hotplugd.pid: errno 28 (ENOSPC): running without it, its directory locked instead
" "hotplugd's lines (no free inode)"
no_file "$FULL/hotplugd.pid"
refused "$FULL/hotplugd.pid" "hotplugd: already running: cannot make the pid file $FULL/hotplugd.pid: errno 28 (ENOSPC), and its directory is locked"
status_names "no free inode"
stopped
# A pid file whose directory cannot be made either: no lock, said; served.
started "$FULL/sub/hotplugd.pid" "no-directory"
file_is "$T/hpd.err" "hotplugd: cannot make the pid file $FULL/sub/hotplugd.pid: errno 28 (ENOSPC), nor open its directory: running without either (nothing keeps a second hotplugd out)
" "hotplugd's lines (no directory)"
stopped

# The control: room for it.
fill room
started "$FULL/hotplugd.pid" room
file_is "$FULL/hotplugd.pid" "$HPID
" "the pid file (room)"
file_is "$T/hpd.err" "" "hotplugd's lines (room)"
stopped
