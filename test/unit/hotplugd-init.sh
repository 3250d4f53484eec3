# SPDX-License-Identifier: MIT
# contrib/init: the sysvinit script starts hotplugd once (a second start
# does nothing), returns once it listens, reports it, stops it; the runit
# and s6 run files exec hotplugd in the foreground with the one pid file
# path, s6 with its readiness line on fd 3 (notification-fd); OpenRC puts it
# in the background with that pid file; the systemd unit (fwload.service)
# names that pid file and, with fwload-settle.service, passes
# systemd-analyze verify where systemd is installed. (The busybox inittab line runs in the stock kernel layer,
# test/stock.)
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=hotplugd-lib
. "$REPO/test/unit/hotplugd-lib"
C=$REPO/contrib/init

standin 0
mkdir -p "$SYS/class/firmware"
# the script's hotplugd: ours, with the stand-in and the fake sysfs, -v
cat >"$T/hotplugd" <<END
#!/bin/sh
exec "$HPD" -v -x "$T/prog" -S "$SYS" "\$@" 2>>"$T/hpd.err"
END
chmod 755 "$T/hotplugd"
initd() {
	# shellcheck disable=SC2086 # TEST_SH is a command line
	run env HOTPLUGD="$T/hotplugd" PIDFILE="$T/pid" $TEST_SH "$C/sysvinit/hotplugd" "$@"
}
initd status
status_is 3
stdout_is "hotplugd is not running"
initd start
status_is 0
read -r pid <"$T/pid" || fail "no pid file after start"
HPID=$pid
kill -0 "$pid" || fail "hotplugd is not running after start"
grep -q "^hotplugd: listening (pid $pid)" "$T/hpd.err" || fail "start returned before hotplugd listened"
initd start
status_is 0
read -r again <"$T/pid"
assert_eq "pid after a second start" "$pid" "$again"
[ "$(pgrep -c -f "hotplugd.* -v -x $T/prog -S $SYS")" = 1 ] || fail "more than one hotplugd: $(pgrep -a -f "hotplugd")"
initd status
status_is 0
stdout_is "hotplugd is running (pid $pid)"
initd restart
status_is 0
read -r new <"$T/pid" || fail "no pid file after restart"
[ "$new" != "$pid" ] || fail "restart kept pid $pid"
# gone, or a zombie waiting for whoever adopted it
state=$(sed 's/.*) \([A-Z]\).*/\1/' "/proc/$pid/stat" 2>/dev/null)
case $state in '' | Z) ;; *) fail "the old hotplugd ($pid) still runs after restart (state $state)" ;; esac
HPID=$new
initd stop
status_is 0
wait_for "[ ! -e '$T/pid' ]" "the pid file is still there after stop"
HPID=

# A pid file left by a hotplugd that died (unlocked), naming a process of
# another user's by now: not taken for hotplugd (status says not running,
# stop leaves that process alone, start starts hotplugd). Root only.
if [ "$(id -u)" = 0 ]; then
	chmod 755 "$T"
	/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups sleep 300 &
	other=$!
	echo "$other" >"$T/pid"
	initd status
	status_is 3
	stdout_is "hotplugd is not running"
	initd stop
	status_is 0
	kill -0 "$other" 2>/dev/null || fail "stop signalled the process a stale pid file named"
	initd start
	status_is 0
	read -r pid <"$T/pid" || fail "no pid file after start"
	[ "$pid" != "$other" ] || fail "start took the stale pid file's process for hotplugd"
	HPID=$pid
	grep -q "^hotplugd: listening (pid $pid)" "$T/hpd.err" || fail "start did not start hotplugd"
	initd stop
	status_is 0
	wait_for "[ ! -e '$T/pid' ]" "the pid file is still there after stop"
	HPID=
	kill "$other"
fi

# A start that fails says so.
printf '#!/bin/sh\nexit 111\n' >"$T/hotplugd"
initd start
status_is 1
stderr_is "hotplugd did not start (the kernel log says why)"

for f in runit/hotplugd/run s6/hotplugd/run; do
	[ -x "$C/$f" ] || fail "$f is not executable"
done
grep -qx 'exec /sbin/hotplugd -p /run/fwload/hotplugd.pid' "$C/runit/hotplugd/run" ||
	fail "runit: no foreground hotplugd with the pid file"
grep -qx 'exec /sbin/hotplugd -p /run/fwload/hotplugd.pid -D 3' "$C/s6/hotplugd/run" ||
	fail "s6: no foreground hotplugd with the pid file and -D 3"
file_is "$C/s6/hotplugd/notification-fd" "3
" "s6 notification-fd"
grep -qx '::respawn:/sbin/hotplugd -p /run/fwload/hotplugd.pid' "$C/busybox/inittab" || fail "no inittab line"
grep -qx 'command_args="-p /run/fwload/hotplugd.pid"' "$C/openrc/hotplugd" || fail "OpenRC: command_args"
grep -qx 'command_background=yes' "$C/openrc/hotplugd" || fail "OpenRC: not command_background"
grep -qx 'pidfile=/run/fwload/hotplugd.pid' "$C/openrc/hotplugd" || fail "OpenRC: pidfile"
# Nowhere a -d, nowhere another pid file.
grep -rn -e 'hotplugd.* -d' -e '/run/hotplugd' "$C" && fail "an init file uses -d or another pid file"
# The systemd unit (fwload.service): setup first (--own: it starts no
# hotplugd), then hotplugd itself, the main process, ready by
# $NOTIFY_SOCKET: no pid file (on a full /run hotplugd runs without its
# number in it, and systemd would wait for it), no guess (a job's process
# that ends while systemd looks is taken for a second candidate).
grep -q '^PIDFile=' "$C/systemd/fwload.service" && fail "fwload.service: a PIDFile="
grep -qx 'Type=notify' "$C/systemd/fwload.service" || fail "fwload.service: not Type=notify"
grep -qx 'ExecStartPre=/sbin/fwloadctl setup --hotplugd --own' "$C/systemd/fwload.service" || fail "fwload.service: no ExecStartPre= setup --own"
grep -qx 'ExecStart=/sbin/hotplugd -p /run/fwload/hotplugd.pid' "$C/systemd/fwload.service" || fail "fwload.service: ExecStart= is not hotplugd"
if command -v systemd-analyze >/dev/null; then
	# verify runs man for the Documentation= pages: ours, from the tree.
	mkdir -p "$T/man/man8" "$T/man/man5" "$T/unit"
	{ cp "$REPO"/man/*.8 "$T/man/man8/" && cp "$REPO"/man/*.5 "$T/man/man5/"; } || fail "cannot copy the man pages"
	for u in fwload.service fwload-settle.service; do
		sed -e "s|/sbin/fwloadctl|$REPO/fwloadctl|" -e "s|/sbin/hotplugd|$REPO/hotplugd|" "$C/systemd/$u" >"$T/unit/$u"
	done
	run env MANPATH="$T/man" systemd-analyze verify "$T/unit/fwload.service" "$T/unit/fwload-settle.service"
	status_is 0
fi
