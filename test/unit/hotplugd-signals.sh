# SPDX-License-Identifier: MIT
# SIGHUP is harmless, SIGINT and SIGTERM end hotplugd with status 0 and
# remove its pid file. -d returns once it listens (status 0), leaves the
# daemon running with its pid in the pid file, and a second hotplugd with
# the same pid file refuses to start (status 111, one line).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=hotplugd-lib
. "$REPO/test/unit/hotplugd-lib"

standin 0
mkdir -p "$SYS/class/firmware"
hpd_start -x "$T/prog" -S "$SYS" -p "$T/pid"
file_is "$T/pid" "$HPID
" "the pid file"
kill -HUP "$HPID"
sleep 0.2
kill -0 "$HPID" 2>/dev/null || fail "SIGHUP ended hotplugd"
hpd_stop INT
no_file "$T/pid" "the pid file after SIGINT"
hpd_start -x "$T/prog" -S "$SYS" -p "$T/pid"
hpd_stop TERM
no_file "$T/pid" "the pid file after SIGTERM"

# -d
run "$HPD" -d -x "$T/prog" -S "$SYS" -p "$T/pid"
status_is 0
stdout_is ''
stderr_is ''
read -r pid <"$T/pid" || fail "no pid file after -d"
HPID=$pid  # for the clean-up
kill -0 "$pid" 2>/dev/null || fail "the detached hotplugd ($pid) is not running"
[ "$(readlink "/proc/$pid/exe")" = "$(readlink -f "$HPD")" ] || fail "pid $pid is not hotplugd"
sid=$(awk '{ print $6 }' "/proc/$pid/stat")
[ "$sid" = "$pid" ] || fail "the detached hotplugd is not in a session of its own (sid $sid)"
for fd in 0 1 2; do
	[ "$(readlink "/proc/$pid/fd/$fd")" = /dev/null ] || fail "detached: fd $fd is $(readlink "/proc/$pid/fd/$fd")"
done
run "$HPD" -d -x "$T/prog" -S "$SYS" -p "$T/pid"
status_is 111
stderr_is "hotplugd: already running: $T/pid is locked (pid $pid)"
kill -TERM "$pid"
wait_for "[ ! -e '$T/pid' ]" "the pid file is still there after SIGTERM"
wait_for "! kill -0 $pid 2>/dev/null" "the detached hotplugd did not exit on SIGTERM"
HPID=
