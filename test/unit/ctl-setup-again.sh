# SPDX-License-Identifier: MIT
# shellcheck disable=SC2086 # $TEST_SH is a command line ("busybox sh")
# A setup again (fwload.service's restart, an upgrade) is not a first
# setup: settle's marker stays (holding ended at boot stays ended), and
# what --undo puts back is still what the first setup found. A hotplugd
# running that setup did not start is kept, said in one line; with --own
# (fwload.service) it is refused, one line, status 111, nothing changed.
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

ctl_ setup --hotplugd --own
status_is 0
ctl_ settle
status_is 0
[ -e "$RUN/settled" ] || fail "no $RUN/settled after settle"
# The restart: setup again. Holding stays ended.
ctl_ setup --hotplugd --own
status_is 0
[ -e "$RUN/settled" ] || fail "setup again (a restart) allowed holding again: settle's marker is gone"
ctl_ status
grep -q '^hold:     settled' "$T/stdout" || fail "status after setup again: $(cat "$T/stdout")"
# hotplugd killed (the OOM killer), the unit starts again: setup starts a
# new one, and only that one is setup's (an older pid may name another
# hotplugd by now: --own would take it for its own).
read -r old <"$RUN/hotplugd.pid"
kill -KILL "$old"
until_true "hotplugd (pid $old) gone" test ! -e "/proc/$old/exe"
ctl_ setup --hotplugd --own
status_is 0
read -r new <"$RUN/hotplugd.pid"
[ "$new" != "$old" ] || fail "setup started no new hotplugd"
assert_eq "setup's record of the hotplugd it started" "hotplugd=$new" "$(grep '^hotplugd=' "$RUN/setup.state")"
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
i=0
while kill -0 "$daemon" 2>/dev/null && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
! kill -0 "$daemon" 2>/dev/null || fail "hotplugd (pid $daemon) still runs after --undo"
wait "$daemon" 2>/dev/null || :

# A hotplugd that setup did not start: kept, one line; with --own refused.
"$T/hotplugd" -p "$RUN/hotplugd.pid" -D 3 3>/dev/null &
job=$!
bg_pid "$job"
daemon=$bgpid
until_true "the stand-in's pid file" test -s "$RUN/hotplugd.pid"
ctl_ setup --hotplugd --own
status_is 111
grep -qxF "fwloadctl: setup: hotplugd (pid $daemon) is running and was not started by setup (an initramfs's, or one started by hand): refused (--own: the service runs its own); stop it, then start again" "$T/stderr" ||
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
