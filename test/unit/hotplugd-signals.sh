# SPDX-License-Identifier: MIT
# SIGHUP is harmless, SIGINT and SIGTERM end hotplugd with status 0 and
# remove its pid file. While it runs, its pid file holds its pid and a
# second hotplugd with the same pid file refuses to start (status 111, one
# line). The pid file's directory is made (0700) when it is missing.
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
run "$HPD" -x "$T/prog" -S "$SYS" -p "$T/pid"
status_is 111
stderr_is "hotplugd: already running: $T/pid is locked (pid $HPID)"
file_is "$T/pid" "$HPID
" "the pid file after a second hotplugd"
hpd_stop INT
no_file "$T/pid" "the pid file after SIGINT"
hpd_start -x "$T/prog" -S "$SYS" -p "$T/pf/hotplugd.pid"
[ "$(stat -c %a "$T/pf")" = 700 ] || fail "the pid file's directory: mode $(stat -c %a "$T/pf")"
file_is "$T/pf/hotplugd.pid" "$HPID
" "the pid file in a directory made for it"
hpd_stop TERM
no_file "$T/pf/hotplugd.pid" "the pid file after SIGTERM"
