# SPDX-License-Identifier: MIT
# Every signal that can end fwload ends the request in -1 once "1" is
# written, with status 3: the standard ones, and those nothing caught
# before (SIGRTMIN, SIGRTMIN+3, SIGSTKFLT, SIGSYS, SIGTRAP, SIGSEGV sent by
# kill, and 32 and 33, which the C library keeps for itself). fwload
# blocks them all and watches them through a signalfd. The window: a
# COMMAND that gives 3 bytes, then sleeps. (Before, the uncaught ones
# killed fwload with only "1" written.)
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkimage "$T/img" 1000
# Signal numbers as Linux has them on x86, arm and most others. Not under
# qemu-user (the cross layer): 32 and 33 (it keeps some real-time signals
# for itself), and SEGV, BUS, FPE and ILL (it takes them as faults of the
# program it runs, not as signals sent to it).
sigs="HUP INT QUIT TERM USR1 USR2 ALRM VTALRM PROF XCPU XFSZ IO PWR SYS TRAP ABRT"
nums="16 34 37 64"
[ -n "${TEST_QEMU:-}" ] || sigs="$sigs SEGV BUS FPE ILL" nums="$nums 32 33"
data_abc() { [ "$(cat "$REQ/data")" = abc ]; }
for sig in $sigs $nums; do
	request x.bin
	# fwload itself in the background (env execs it: $! is its pid, or,
	# under yash, a subshell's that waits for it: bg_pid)
	# shellcheck disable=SC2016 # COMMAND's own script
	env -i PATH="$KPATH" "$FWLOAD" -s "$SYS" -k "$T/lock" -l none "$E_DEVPATH" "$T/img" \
		/bin/sh -c 'printf abc; exec sleep 30' >"$T/stdout" 2>"$T/stderr" &
	pid=$!
	bg_pid "$pid"
	until_true "$sig: the load's start" data_abc
	case $sig in
	[0-9]*) /bin/kill -s "$sig" "$bgpid" 2>/dev/null || kill -"$sig" "$bgpid" ;;
	*) send_sig "$sig" "$bgpid" ;;
	esac
	wait "$pid"
	st=$?
	file_is "$REQ/loading" 1-1 "loading after signal $sig"
	status_is 3
	grep -Eq '^fwload: x\.bin: stopped by signal [0-9]+; request aborted$' "$T/stderr" ||
		fail "$sig: $(cat "$T/stderr")"
done
