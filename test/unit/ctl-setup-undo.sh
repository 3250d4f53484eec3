# SPDX-License-Identifier: MIT
# shellcheck disable=SC2086 # $TEST_SH is a command line ("busybox sh")
# fwloadctl setup --undo puts back what the first setup since boot changed:
# the kernel's uevent helper (mdev, say: it makes /dev nodes again, and no
# record of it is left), force_sysfs_fallback and the timeout, and stops
# the hotplugd that setup started (not one it found running). The chain
# hook an earlier version wrote into hotplug.d/default/ (/etc: writes at
# run time go to /run now) is taken away by setup and by --undo. One line
# says what was done.
# shellcheck disable=SC3013 # -ef: every shell we test has it
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

P=$T/proc
H=$P/sys/kernel/hotplug
F=$P/sys/kernel/firmware_config/force_sysfs_fallback
TO=$SYS/class/firmware/timeout
CHAIN=$RUN/previous-helper
mkdir -p "${F%/*}" "$SYS/class/firmware" "$T/bin"
printf '#!/bin/sh\n' >"$T/bin/mdev"
chmod 755 "$T/bin/mdev"
echo "$T/bin/mdev" >"$H"
echo 0 >"$F"
echo 60 >"$TO"
conf "LOG=$LOGF" TIMEOUT=30

# ctl_ ARG...: fwloadctl, our hotplug at /sbin/hotplug.
ctl_() {
	run kernel_env FWLOAD_HOTPLUG=/sbin/hotplug FWLOAD_HOTPLUGD="$T/hotplugd" $TEST_SH "$REPO/fwloadctl" "$@"
}
# said TEXT: the line on stdout is TEXT.
said() {
	grep -qxF "fwloadctl: $1" "$T/stdout" || fail "said: $(cat "$T/stdout") $(cat "$T/stderr"); want: $1"
}

# The hook fwload 0.1.0's setup wrote: setup takes it away (mdev would
# run twice).
mkdir -p "$HOOKS/default"
# shellcheck disable=SC2016 # the hook's own expansions
printf '%s\n' '#!/bin/sh' '# Written by "fwloadctl setup": the uevent helper set before fwload, kept' \
	"prev='$T/bin/mdev'" 'exec "$prev" "$@"' >"$HOOKS/default/00-previous-helper.hotplug"
chmod 755 "$HOOKS/default/00-previous-helper.hotplug"
ctl_ setup
status_is 0
file_is "$H" '/sbin/hotplug
'
file_is "$CHAIN" "$T/bin/mdev
"
file_is "$F" '1
'
file_is "$TO" '30
'
no_file "$HOOKS/default/00-previous-helper.hotplug" "the chain hook of 0.1.0 after setup"
# A second setup changes nothing of what --undo will put back.
ctl_ setup
status_is 0

ctl_ setup --undo
status_is 0
file_is "$H" "$T/bin/mdev
"
no_file "$CHAIN" "the record of the kept helper after --undo"
file_is "$F" '0
'
file_is "$TO" '60
'
no_file "$RUN/setup.state"
said "setup --undo: uevent helper $T/bin/mdev again, $T/bin/mdev no longer kept in $CHAIN, force_sysfs_fallback 0 again, timeout 60 s again"
log_has "fwload: setup --undo: uevent helper $T/bin/mdev again, $T/bin/mdev no longer kept in $CHAIN, force_sysfs_fallback 0 again, timeout 60 s again"
# Nothing left to undo.
ctl_ setup --undo
status_is 0
said "setup --undo: uevent helper left as it is ($T/bin/mdev: not ours); no record of an earlier setup (run dir $RUN)"

# No helper before: --undo clears ours.
: >"$H"
ctl_ setup
status_is 0
file_is "$H" '/sbin/hotplug
'
ctl_ setup --undo
status_is 0
file_is "$H" '
'

# hotplugd: the one setup started is stopped (a stand-in, a program of its
# own: setup trusts a pid only when /proc/PID/exe is $FWLOAD_HOTPLUGD);
# one that was running before is left alone.
rm "$H"
standin_hotplugd
ctl_ setup
status_is 0
read -r pid <"$RUN/hotplugd.pid"
[ "/proc/$pid/exe" -ef "$T/hotplugd" ] || fail "pid $pid is not the hotplugd stand-in"
ctl_ setup --undo
status_is 0
said "setup --undo: force_sysfs_fallback 0 again, timeout 60 s again, hotplugd (pid $pid) stopped"
until_true "hotplugd (pid $pid) gone after --undo" test ! -e "/proc/$pid/exe"

rm -f "$RUN/hotplugd.pid"  # (the stand-in leaves its file behind)
"$T/hotplugd" -p "$RUN/hotplugd.pid" -D 3 3>/dev/null &
until_true "the stand-in's pid file" test -s "$RUN/hotplugd.pid"
read -r daemon <"$RUN/hotplugd.pid"  # (yash's $! is a subshell's)
ctl_ setup
status_is 0
ctl_ setup --undo
status_is 0
said "setup --undo: force_sysfs_fallback 0 again, timeout 60 s again, hotplugd (pid $daemon) left running (setup did not start it)"
kill -0 "$daemon" || fail "a hotplugd setup did not start was stopped"
kill "$daemon"
until_true "the stand-in (pid $daemon) gone" test ! -e "/proc/$daemon/exe"

# A stale pid file whose pid now names another process (the hotplugd that
# setup started was killed, its pid reused): setup --hotplugd starts one
# (it did not: "already running"), and setup --undo signals nothing that
# is not our hotplugd (it killed the process).
sleep 100 &
other=$!
ctl_ setup --hotplugd
status_is 0
read -r pid <"$RUN/hotplugd.pid"
[ "/proc/$pid/exe" -ef "$T/hotplugd" ] || fail "setup --hotplugd started no hotplugd (pid file: $pid)"
kill "$pid"
until_true "hotplugd (pid $pid) gone" test ! -e "/proc/$pid/exe"
echo "$other" >"$RUN/hotplugd.pid"
sed "s/^hotplugd=.*/hotplugd=$other/" "$RUN/setup.state" >"$T/state" && cat "$T/state" >"$RUN/setup.state"
grep -qx "hotplugd=$other" "$RUN/setup.state" || fail "setup.state: $(cat "$RUN/setup.state")"
ctl_ setup --undo
status_is 0
kill -0 "$other" || fail "setup --undo killed pid $other, a sleep its stale pid file named"
said "setup --undo: force_sysfs_fallback 0 again, timeout 60 s again, hotplugd (pid $other) no longer runs"
echo "$other" >"$RUN/hotplugd.pid"
ctl_ setup --hotplugd
status_is 0
read -r pid <"$RUN/hotplugd.pid"
{ [ "$pid" != "$other" ] && [ "/proc/$pid/exe" -ef "$T/hotplugd" ]; } ||
	fail "a stale pid file naming pid $other (a sleep): setup --hotplugd started no hotplugd ($(cat "$T/stdout"))"
said "setup: hotplugd (pid $pid), as this kernel has no uevent helper, sysfs fallback forced, timeout 30 s; hotplugd's start rescan serves pending requests"
ctl_ setup --undo
status_is 0
until_true "hotplugd (pid $pid) gone after --undo" test ! -e "/proc/$pid/exe"
kill -0 "$other" || fail "pid $other (a sleep) was killed"
kill "$other"
wait "$other" 2>/dev/null || :  # (143: killed)

# The pid file naming our hotplugd's file run by another user (any user
# may run it, and keep it stopped before it checks who it is): not taken
# for the running hotplugd (setup said "already running" and started none:
# no request answered), never signalled by --undo.
chmod 755 "$T"
mkdir -p "$T/nb"
chown 65534 "$T/nb"
# (util-linux's setpriv: busybox sh would run its own applet, which has no
# --clear-groups)
/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups "$T/hotplugd" -p "$T/nb/pid" -D 3 3>/dev/null &
until_true "the stand-in run as uid 65534" test -s "$T/nb/pid"
read -r foreign <"$T/nb/pid"
[ "/proc/$foreign/exe" -ef "$T/hotplugd" ] || fail "pid $foreign is not the stand-in"
cp "$T/nb/pid" "$RUN/hotplugd.pid"
ctl_ setup --hotplugd
status_is 0
read -r pid <"$RUN/hotplugd.pid"
{ [ "$pid" != "$foreign" ] && [ "/proc/$pid/exe" -ef "$T/hotplugd" ]; } ||
	fail "setup --hotplugd took uid 65534's process for its hotplugd: $(cat "$T/stdout")"
echo "$foreign" >"$RUN/hotplugd.pid"
sed "s/^hotplugd=.*/hotplugd=$foreign/" "$RUN/setup.state" >"$T/state" && cat "$T/state" >"$RUN/setup.state"
ctl_ setup --undo
status_is 0
kill -0 "$foreign" || fail "setup --undo signalled uid 65534's process"
kill "$foreign" "$pid"
until_true "the stand-ins gone" test ! -e "/proc/$foreign/exe" -a ! -e "/proc/$pid/exe"

# A helper cleared by setup --hotplugd --replace (mdev: /dev nodes stop
# appearing) is the helper again after --undo.
echo "$T/bin/mdev" >"$H"
rm -f "$RUN/hotplugd.pid"
ctl_ setup --hotplugd --replace
status_is 0
file_is "$H" '
'
read -r pid <"$RUN/hotplugd.pid"
ctl_ setup --undo
status_is 0
file_is "$H" "$T/bin/mdev
" "the uevent helper after --undo of setup --hotplugd --replace"
said "setup --undo: uevent helper $T/bin/mdev again, force_sysfs_fallback 0 again, timeout 60 s again, hotplugd (pid $pid) stopped"
until_true "hotplugd (pid $pid) gone after --undo" test ! -e "/proc/$pid/exe"
