# SPDX-License-Identifier: MIT
# shellcheck disable=SC2086 # $TEST_SH is a command line ("busybox sh")
# A setup again (fwload.service's restart, an upgrade) is not a first
# setup: settle's marker stays (holding ended at boot stays ended), and
# what --undo puts back is still what the first setup found. A hotplugd
# running that setup did not start is kept, said in one line. --own
# (fwload.service's ExecStartPre=, its ExecStart= the hotplugd): setup
# starts none and runs no rescan, drops the record of one an earlier setup
# started (gone), and refuses one already running, whoever started it:
# one line, status 111, nothing changed.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

P=$T/proc
F=$P/sys/kernel/firmware_config/force_sysfs_fallback
TO=$SYS/class/firmware/timeout
mkdir -p "${F%/*}" "$SYS/class/firmware"
echo 0 >"$F"
echo 60 >"$TO"
conf "LOG=$LOGF" HOLD=30

# ctl_ ARG...: fwloadctl, hotplugd a stand-in (a program of its own:
# fwloadctl trusts a pid only when /proc/PID/exe is its hotplugd).
ctl_() {
	run kernel_env FWLOAD_HOTPLUGD="$T/hotplugd" $TEST_SH "$REPO/fwloadctl" "$@"
}
standin_hotplugd

# service_start: what fwload.service does: setup --own, then hotplugd
# (the stand-in) in the foreground, here in the background; sets daemon.
service_start() {
	pending own.bin
	ctl_ setup --hotplugd --own
	status_is 0
	case $(cat "$T/stdout") in
	"fwloadctl: setup: hotplugd (the service starts it next), as this kernel has no uevent helper, sysfs fallback forced, timeout 90 s"*"; hotplugd's start rescan serves pending requests") ;;
	*) fail "setup --own said: $(cat "$T/stdout" "$T/stderr")" ;;
	esac
	untouched  # no rescan of setup's: the service's hotplugd makes it
	rm -r "$REQ" "$SYS/class/firmware/${E_DEVPATH##*/}"
	no_file "$RUN/hotplugd.pid" "a hotplugd started by setup --own"
	grep '^hotplugd=' "$RUN/setup.state" && fail "setup --own recorded a hotplugd as its own"
	"$T/hotplugd" -p "$RUN/hotplugd.pid" -D 3 3>/dev/null &
	until_true "the service's hotplugd" test -s "$RUN/hotplugd.pid"
	read -r daemon <"$RUN/hotplugd.pid"
}
# service_kill: the restart's SIGKILL to the unit's hotplugd.
service_kill() {
	kill -KILL "$daemon"
	until_true "hotplugd (pid $daemon) gone" test ! -e "/proc/$daemon/exe"
	wait 2>/dev/null
	rm -f "$RUN/hotplugd.pid"
}
service_start
file_is "$F" '1
'
ctl_ settle
status_is 0
[ -e "$RUN/settled" ] || fail "no $RUN/settled after settle"
# The restart: hotplugd killed, setup again. Holding stays ended.
service_kill
service_start
[ -e "$RUN/settled" ] || fail "setup again (a restart) allowed holding again: settle's marker is gone"
ctl_ status
grep -q '^hold:     settled' "$T/stdout" || fail "status after setup again: $(cat "$T/stdout")"
service_kill
# --undo puts back what the first setup found; the next setup is a first.
ctl_ setup --undo
status_is 0
file_is "$F" '0
'
ctl_ setup --hotplugd
status_is 0
no_file "$RUN/settled" "settle's marker after the first setup since --undo"
read -r daemon <"$RUN/hotplugd.pid"
ctl_ setup --undo
status_is 0
daemon_gone() { ! kill -0 "$daemon" 2>/dev/null; }
until_true "hotplugd (pid $daemon) to end after --undo" daemon_gone
wait "$daemon" 2>/dev/null || :

# A hotplugd that setup did not start: kept, one line; with --own refused.
"$T/hotplugd" -p "$RUN/hotplugd.pid" -D 3 3>/dev/null &
job=$!
bg_pid "$job"
daemon=$bgpid
until_true "the stand-in's pid file" test -s "$RUN/hotplugd.pid"
ctl_ setup --hotplugd --own
status_is 111
grep -qxF "fwloadctl: setup: hotplugd (pid $daemon) is already running (an initramfs's, one started by hand or by an earlier setup): refused (--own: the service starts its own once set up); stop it, then start again" "$T/stderr" ||
	fail "setup --own said: $(cat "$T/stdout" "$T/stderr")"
file_is "$F" '0
'
no_file "$RUN/setup.state" "a record of setup after --own refused"
ctl_ setup --hotplugd
status_is 0
grep -qxF "fwloadctl: setup: hotplugd (pid $daemon) was already running, not started by setup: kept as the event source (setup --undo leaves it running)" "$T/stdout" ||
	fail "setup said: $(cat "$T/stdout")"
ctl_ setup --helper --own
status_is 100
kill "$daemon"
wait "$job" 2>/dev/null || :
ctl_ setup --undo
status_is 0
rm -f "$RUN/hotplugd.pid"

# One that an earlier setup started: refused too (the service would run a
# second beside it); gone, its record is dropped (--undo must not take a
# later process with that pid for it).
ctl_ setup --hotplugd
status_is 0
read -r daemon <"$RUN/hotplugd.pid"
grep -qx "hotplugd=$daemon" "$RUN/setup.state" || fail "setup's record: $(cat "$RUN/setup.state")"
ctl_ setup --hotplugd --own
status_is 111
grep -qF "hotplugd (pid $daemon) is already running" "$T/stderr" || fail "setup --own said: $(cat "$T/stdout" "$T/stderr")"
service_kill
service_start
ctl_ setup --undo
status_is 0
grep -qF "hotplugd (pid $daemon) left running (setup did not start it)" "$T/stdout" || fail "setup --undo said: $(cat "$T/stdout")"
kill "$daemon"
wait 2>/dev/null || :
