# SPDX-License-Identifier: MIT
# -D FD: hotplugd stays in the foreground and writes one newline to FD, then
# closes it, once its socket listens and its start rescan is under way (the
# child for a pending request already started). A hotplugd that fails
# before that closes FD without a word. The idiom fwloadctl and the
# sysvinit script use to start it in the background and wait for that line
# works in every shell we know of: dash, busybox sh, mksh, yash, bash
# --posix (those installed). (yash keeps the subshell as hotplugd's parent
# until hotplugd exits; the idiom returns all the same.)
# shellcheck disable=SC2016 # sh code for other shells and for wait_for
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=hotplugd-lib
. "$REPO/test/unit/hotplugd-lib"

holdin
pending r.bin
# start SHELL...: the idiom under SHELL, with hotplugd's stderr to
# $T/hpd.err; prints "ready" or "not ready". Under a hang guard.
start() {
	timeout "$GUARD" "$@" -c '
		if ("$1" -v -x "$2" -S "$3" -p "$4" -D 3 3>&1 >/dev/null 2>"$5" </dev/null &) | IFS= read -r _; then
			echo ready
		else
			echo not ready
		fi' start "$HPD" "$T/prog" "$SYS" "$T/pid" "$T/hpd.err"
}
n=0
for sh in dash "busybox sh" mksh yash "bash --posix"; do
	# shellcheck disable=SC2086 # a command line
	command -v ${sh%% *} >/dev/null || continue
	rm -f "$T/pid"
	# shellcheck disable=SC2086 # a command line
	got=$(start $sh)
	[ "$got" = ready ] || fail "$sh: $got; hotplugd: $(cat "$T/hpd.err")"
	read -r HPID <"$T/pid" || fail "$sh: no pid file once ready"
	grep -q '^hotplugd: listening' "$T/hpd.err" || fail "$sh: ready before listening: $(cat "$T/hpd.err")"
	awk -v p="$HPID" '$2 == 15 && $3 == p && $4 == "00000001" { f = 1 } END { exit !f }' /proc/net/netlink ||
		fail "$sh: ready, but no uevent socket with port id $HPID"
	[ -n "$(pgrep -P "$HPID")" ] || fail "$sh: ready before the start rescan's child: $(cat "$T/hpd.err")"
	case $(readlink "/proc/$HPID/fd/3") in pipe:*) fail "$sh: FD 3 is still open after the line" ;; esac
	kill -TERM "$HPID"
	: >"$T/release"
	wait_for "! alive $HPID" "$sh: hotplugd did not stop"
	rm "$T/release"
	HPID=
	n=$((n + 1))
done
[ $n -ge 2 ] || fail "only $n shells to try"
echo "the start idiom worked in $n shells"

# $NOTIFY_SOCKET (systemd's Type=notify, fwload.service): READY=1 once, at
# the same point as -D's line; a path and an abstract name (@). A listener
# of python3's receives it and checks, at that moment, what -D's line
# promises; the request's child never sees the variable.
standin 0
pending n.bin
for addr in "$T/notify" "@fwload-test-$$"; do
	rm -f "$T/pid" "$T/notify" "$T/got"
	timeout "$GUARD" python3 -c 'import os, socket, subprocess, sys
addr, hpd, prog, sysfs, pid, err, guard = sys.argv[1:8]
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind("\0" + addr[1:] if addr[0] == "@" else addr)
s.settimeout(int(guard) - 5)
with open(err, "w") as e:
    p = subprocess.Popen([hpd, "-v", "-x", prog, "-S", sysfs, "-p", pid],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=e,
                         env=dict(os.environ, NOTIFY_SOCKET=addr))
msgs = [s.recv(4096).decode()]
print(p.pid, msgs[0], any(l.startswith("hotplugd: listening") for l in open(err)),
      any(l.split()[2:4] == [str(p.pid), "00000001"] and l.split()[1] == "15"
          for l in open("/proc/net/netlink")))
s.settimeout(1)
try:
    msgs.append(s.recv(4096).decode())
except socket.timeout:
    pass
print(len(msgs))
' "$addr" "$HPD" "$T/prog" "$SYS" "$T/pid" "$T/hpd.err" "$GUARD" >"$T/got" ||
		fail "$addr: no READY=1 from hotplugd: $(cat "$T/got" "$T/hpd.err")"
	read -r HPID msg listening socket <"$T/got"
	assert_eq "$addr: what hotplugd sent, listening, its uevent socket" "READY=1 True True" "$msg $listening $socket"
	assert_eq "$addr: messages to the socket" 1 "$(sed -n 2p "$T/got")"
	wait_for "[ \"\$(runs)\" -ge 1 ]" "$addr: the start rescan's child did not run"
	grep -l 'NOTIFY_SOCKET' "$T"/runs/* && fail "$addr: the child saw NOTIFY_SOCKET"
	kill -TERM "$HPID"
	wait_for "! alive $HPID" "$addr: hotplugd did not stop"
	rm -f "$T"/runs/*
done
HPID=

# Not ready: a failure before listening closes FD without the line.
rm -f "$T/pid"
: >"$T/release"
hpd_start -x "$T/prog" -S "$SYS" -p "$T/pid"
got=$(start sh)
[ "$got" = "not ready" ] || fail "a second hotplugd on the same pid file: $got"
grep -q '^hotplugd: already running' "$T/hpd.err" || fail "stderr: $(cat "$T/hpd.err")"
hpd_stop TERM
