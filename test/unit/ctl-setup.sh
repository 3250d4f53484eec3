# SPDX-License-Identifier: MIT
# shellcheck disable=SC2086 # $TEST_SH is a command line ("busybox sh")
# fwloadctl setup, what an init script runs once: our hotplug as the uevent
# helper, the sysfs fallback forced on, the timeout from TIMEOUT=, then a
# rescan that serves a request made before; one line says what it did.
# It never breaks a board: a helper already set (busybox mdev) is kept for
# every other subsystem (its path in $FWLOAD_RUNDIR/previous-helper, run by
# hotplug after its hooks, never for firmware: mdev would cancel every
# request), or setup refuses unless --replace, which says what it drops.
# A kernel without the fallback, or without a uevent helper (then
# hotplugd, started once), is named; status shows hotplugd beside a helper.
# shellcheck disable=SC3013 # -ef: every shell we test has it
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
needs fwloadctl

P=$T/proc
H=$P/sys/kernel/hotplug
F=$P/sys/kernel/firmware_config/force_sysfs_fallback
CHAIN=$RUN/previous-helper
mkdir -p "${F%/*}" "$SYS/class/firmware" "$HOOKS/firmware"
: >"$H"
echo 0 >"$F"
echo 60 >"$SYS/class/firmware/timeout"
conf "LOG=$LOGF" "FIRMWARE_PATH=$T/fw" TIMEOUT=9
mkimage "$T/fw/early.bin" 3000
pending early.bin
unset E_ACTION E_DEVPATH E_FIRMWARE E_SUBSYSTEM E_TIMEOUT E_ASYNC E_SEQNUM

# setup [ARG...]: fwloadctl setup as root runs it, hotplug at /sbin/hotplug.
setup() {
	run kernel_env FWLOAD_HOTPLUG=/sbin/hotplug FWLOAD_HOTPLUGD="$T/hotplugd" STANDIN_LOG="$T/hotplugd-ran" \
		$TEST_SH "$REPO/fwloadctl" setup "$@"
}
# said TEXT: setup's line on stdout is TEXT.
said() {
	grep -qxF "fwloadctl: $1" "$T/stdout" || fail "setup said: $(cat "$T/stdout") $(cat "$T/stderr"); want: $1"
}

setup
status_is 0
file_is "$H" '/sbin/hotplug
'
file_is "$F" '1
'
file_is "$SYS/class/firmware/timeout" '9
'
file_is "$REQ/loading" 10
data_is "$T/fw/early.bin"
line="setup: uevent helper /sbin/hotplug, sysfs fallback forced, timeout 9 s; rescanning pending requests"
log_has "fwload: $line"
said "$line"
no_file "$CHAIN" "a kept helper with no previous helper"
# A request its rescan cancels is that request's outcome (its line), not
# setup's: set up, 0 (fwload.service runs setup without "-").
pending lost.bin
setup
status_is 0
file_is "$REQ/loading" -1
grep -qx "lost.bin: 1" "$T/stdout" || fail "setup's rescan: $(cat "$T/stdout")"

# FORCE_FALLBACK=no leaves the sysctl alone; a bad TIMEOUT is reported.
echo 0 >"$F"
conf "LOG=$LOGF" FORCE_FALLBACK=no TIMEOUT=soon
aged
rm "$SYS/class/firmware/early.bin"
rm -r "$RUN"
setup
status_is 0
# Nothing pending, yet the config cache is made: the first event need not.
[ -f "$RUN/conf.cache" ] || fail "setup made no config cache"
log_has "fwload: $CONF:3: TIMEOUT wants whole seconds; ignored"
file_is "$F" '0
'
file_is "$SYS/class/firmware/timeout" '9
'
grep -qx "fwload: $CONF:3: TIMEOUT wants whole seconds; ignored" "$T/stderr" || fail "stderr: $(cat "$T/stderr")"

# busybox mdev as the helper before: kept for every other subsystem, never
# for firmware. A stand-in records how it is run.
conf "LOG=$LOGF" "FIRMWARE_PATH=$T/fw"
mkdir -p "$T/bin"
# shellcheck disable=SC2016 # expanded by the stand-in
printf '#!/bin/sh\necho "${0##*/} $* $ACTION $SUBSYSTEM" >>"%s"\n' "$T/mdev-ran" >"$T/bin/mdev"
chmod 755 "$T/bin/mdev"
echo "$T/bin/mdev" >"$H"
setup
status_is 0
file_is "$H" '/sbin/hotplug
'
file_is "$CHAIN" "$T/bin/mdev
"
said "setup: uevent helper /sbin/hotplug (the previous one, $T/bin/mdev, still runs for every other subsystem: $CHAIN), sysfs fallback forced; rescanning pending requests"
ln -s "$REPO/firmware.agent" "$HOOKS/firmware/50-firmware.hotplug"
mkdir -p "$HOOKS/default"
# shellcheck disable=SC2016 # the hook's own expansions
printf '#!/bin/sh\necho "hook $1" >>"%s"\n' "$T/mdev-ran" >"$HOOKS/default/10-other.hotplug"
chmod 755 "$HOOKS/default/10-other.hotplug"
E_ACTION=add E_SUBSYSTEM=block E_DEVPATH=/devices/virtual/block/loop0
run hotplug block
status_is 0
file_is "$T/mdev-ran" "hook block
mdev block add block
" "what the hooks and the previous helper got"
# A firmware event: the agent answers it; mdev never sees it.
mkimage "$T/fw/later.bin" 5000
request later.bin
run hotplug firmware
file_is "$REQ/loading" 10
data_is "$T/fw/later.bin"
file_is "$T/mdev-ran" "hook block
mdev block add block
hook firmware
" "mdev after a firmware event"
unset E_ACTION E_DEVPATH E_FIRMWARE E_SUBSYSTEM E_TIMEOUT E_ASYNC E_SEQNUM
run ctl status
grep -qx "source:   uevent helper /sbin/hotplug, $T/bin/mdev kept for the other subsystems ($CHAIN)" "$T/stdout" ||
	fail "status: $(cat "$T/stdout")"

# A second setup keeps what the first one did, and says so.
setup
status_is 0
said "setup: uevent helper /sbin/hotplug ($T/bin/mdev still runs for every other subsystem: $CHAIN), sysfs fallback forced; rescanning pending requests"
file_is "$H" '/sbin/hotplug
'
file_is "$CHAIN" "$T/bin/mdev
"

# The record cannot be written (the run directory is a file here): refused,
# the helper left alone, unless --replace, which says what it drops.
RUN_WAS=$RUN
RUN=$T/run-file/fwload
: >"$T/run-file"
CHAIN_WAS=$CHAIN
CHAIN=$RUN/previous-helper
echo "$T/bin/mdev" >"$H"
setup
status_is 111
file_is "$H" "$T/bin/mdev
"
grep -qx "fwloadctl: setup: the uevent helper is $T/bin/mdev, and $CHAIN cannot be written to keep it for the other subsystems; not replacing it (fwloadctl setup --replace would)" "$T/stderr" ||
	fail "stderr: $(cat "$T/stderr")"
setup --replace
status_is 0
file_is "$H" '/sbin/hotplug
'
said "setup: uevent helper /sbin/hotplug (replacing $T/bin/mdev, which no longer runs for any subsystem: --replace), sysfs fallback forced; rescanning pending requests"
RUN=$RUN_WAS CHAIN=$CHAIN_WAS

# --hotplugd beside a helper that would still get every event: refused
# (hotplugd installed; not installed, setup says that first).
echo "$T/bin/mdev" >"$H"
setup --hotplugd
status_is 111
grep -qx "fwloadctl: setup: hotplugd needs $T/hotplugd, not installed (the HOTPLUGD part of fwload); nothing changed" "$T/stderr" ||
	fail "stderr: $(cat "$T/stderr")"
standin_hotplugd
setup --hotplugd
status_is 111
grep -q "the uevent helper is $T/bin/mdev: beside hotplugd it would still get every event" "$T/stderr" ||
	fail "stderr: $(cat "$T/stderr")"
file_is "$H" "$T/bin/mdev
"

# A kernel without a uevent helper: hotplugd (a stand-in here, a program
# of its own: setup trusts a pid whose /proc/PID/exe is $FWLOAD_HOTPLUGD),
# started once, with its pid file in the run directory.
standin_hotplugd
mv "$H" "$T/hotplug.off"
# A request pending: hotplugd's start rescan serves it; setup's own rescan
# would race it (two answerers: one gets 5, or 111 once the request is
# gone), so a setup that starts hotplugd runs none.
pending racing.bin
setup
status_is 0
file_is "$T/hotplugd-ran" "hotplugd -p $RUN/hotplugd.pid -D 3
"
read -r pid <"$RUN/hotplugd.pid"
said "setup: hotplugd (pid $pid), as this kernel has no uevent helper, sysfs fallback forced; hotplugd's start rescan serves pending requests"
untouched
rm -r "$REQ" "$SYS/class/firmware/racing.bin"
setup
status_is 0
file_is "$T/hotplugd-ran" "hotplugd -p $RUN/hotplugd.pid -D 3
" "hotplugd after a second setup (must not start twice)"
run kernel_env FWLOAD_HOTPLUGD="$T/hotplugd" $TEST_SH "$REPO/fwloadctl" status
grep -qx "helper:   none: no uevent helper in this kernel (CONFIG_UEVENT_HELPER is not set)" "$T/stdout" ||
	fail "status: $(cat "$T/stdout")"
grep -qx "source:   hotplugd (pid $pid)" "$T/stdout" || fail "status: $(cat "$T/stdout")"
[ "/proc/$pid/exe" -ef "$T/hotplugd" ] || fail "pid $pid is not the hotplugd stand-in"
# hotplugd running beside a helper: status says so (ours: two answerers;
# another: it gets every event too).
mv "$T/hotplug.off" "$H"
echo /sbin/hotplug >"$H"
run kernel_env FWLOAD_HOTPLUGD="$T/hotplugd" $TEST_SH "$REPO/fwloadctl" status
grep -qx "source:   TWO: the uevent helper /sbin/hotplug and hotplugd (pid $pid) both answer every request (fwloadctl setup chooses one)" "$T/stdout" ||
	fail "status: $(cat "$T/stdout")"
echo "$T/bin/mdev" >"$H"
run kernel_env FWLOAD_HOTPLUGD="$T/hotplugd" $TEST_SH "$REPO/fwloadctl" status
grep -qx "source:   hotplugd (pid $pid); the uevent helper $T/bin/mdev also gets every event, firmware included (fwloadctl setup --hotplugd --replace clears it)" "$T/stdout" ||
	fail "status: $(cat "$T/stdout")"
# --hotplugd --replace after mdev was kept: it says what no longer runs.
echo /sbin/hotplug >"$H"
echo "$T/bin/mdev" >"$CHAIN"
setup --hotplugd --replace
status_is 0
file_is "$H" '
'
no_file "$CHAIN" "the kept helper after --hotplugd --replace"
said "setup: hotplugd (pid $pid); the uevent helper /sbin/hotplug cleared: $T/bin/mdev no longer runs for any subsystem (--replace), sysfs fallback forced; rescanning pending requests"
mv "$H" "$T/hotplug.off"
kill "$pid"
until_true "hotplugd (pid $pid) gone" test ! -e "/proc/$pid/exe"
setup --helper
status_is 111
grep -q "no uevent helper in this kernel" "$T/stderr" || fail "stderr: $(cat "$T/stderr")"
# A hotplugd that fails before it listens: no line on fd 3.
printf '#!/bin/sh\nexit 111\n' >"$T/hotplugd"
setup
status_is 111
grep -qx "fwloadctl: setup: $T/hotplugd did not start (the kernel log says why)" "$T/stderr" ||
	fail "stderr: $(cat "$T/stderr")"
chmod 644 "$T/hotplugd"
setup
status_is 111
grep -qx "fwloadctl: setup: cannot run $T/hotplugd" "$T/stderr" || fail "stderr: $(cat "$T/stderr")"
rm "$T/hotplugd"
setup
status_is 111
grep -qx "fwloadctl: setup: hotplugd needs $T/hotplugd, not installed (the HOTPLUGD part of fwload); nothing changed" "$T/stderr" ||
	fail "stderr: $(cat "$T/stderr")"

# A kernel without the sysfs fallback: nothing to set up, and it says so.
: >"$H"
rm -r "$SYS/class/firmware"
setup
status_is 111
grep -q "this kernel has no sysfs firmware fallback" "$T/stderr" || fail "stderr: $(cat "$T/stderr")"
file_is "$H" ""
run ctl status
grep -q "^source:   none: no sysfs firmware fallback in this kernel" "$T/stdout" || fail "status: $(cat "$T/stdout")"

run ctl setup --bogus
status_is 100
run ctl setup --undo --replace
status_is 100
