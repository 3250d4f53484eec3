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
	timeout 20 "$@" -c '
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

# Not ready: a failure before listening closes FD without the line.
rm -f "$T/pid"
: >"$T/release"
hpd_start -x "$T/prog" -S "$SYS" -p "$T/pid"
got=$(start sh)
[ "$got" = "not ready" ] || fail "a second hotplugd on the same pid file: $got"
grep -q '^hotplugd: already running' "$T/hpd.err" || fail "stderr: $(cat "$T/hpd.err")"
hpd_stop TERM
