# SPDX-License-Identifier: MIT
# shellcheck disable=SC2086 # $PRELOAD and $DYN are word lists (see lib.sh)
# Every standard terminating signal (HUP INT QUIT TERM USR1 USR2 ALRM
# VTALRM PROF XCPU XFSZ IO PWR) in the middle of a load: fwload aborts it
# ("1-1") and exits 3 with one message naming the signal. The injector
# slows every call on data so the signal lands mid-copy; every copy path.
# Before, QUIT, USR1, ALRM and the others killed fwload with "1" written.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkimage "$T/big" 1048677

# signum NAME: the signal's number (Linux, generic numbering).
signum() {
	set -- "$1" HUP 1 INT 2 QUIT 3 USR1 10 USR2 12 ALRM 14 TERM 15 XCPU 24 XFSZ 25 VTALRM 26 \
		PROF 27 IO 29 PWR 30
	_n=$1
	shift
	while [ $# -gt 0 ]; do
		[ "$1" = "$_n" ] && echo "$2" && return
		shift 2
	done
}

# stops SIG HOW FAULT...
stops() {
	sig=$1
	how=$2
	shift 2
	request x.bin
	case $how in
	file)
		env -i PATH="$KPATH" $PRELOAD FAULT_SLOW=20000 FAULT_SHORT=4096 "$@" \
			$DYN -s "$SYS" "$E_DEVPATH" "$T/big" >"$T/stdout" 2>"$T/stderr" &
		;;
	pipe)
		head -c 2000000 "$T/big" |
			env -i PATH="$KPATH" $PRELOAD FAULT_SLOW=20000 FAULT_SHORT=4096 "$@" \
				$DYN -s "$SYS" "$E_DEVPATH" - >"$T/stdout" 2>"$T/stderr" &
		;;
	esac
	pid=$!
	bg_pid "$pid"  # fwload (under yash, $! is a subshell that waits for it)
	until_true "the load's start ($how)" test -s "$REQ/data"
	send_sig "$sig" "$bgpid"
	wait "$pid"
	st=$?
	status_is 3
	file_is "$REQ/loading" 1-1 "loading (SIG$sig, $how)"
	stderr_is "fwload: x.bin: stopped by signal $(signum "$sig"); request aborted"
	[ "$(wc -c <"$REQ/data")" -lt 1048677 ] || fail "the whole image went through before SIG$sig"
}

stops TERM file
stops INT file FAULT_NO_SENDFILE=1
stops HUP pipe
stops TERM pipe FAULT_NO_SPLICE=1
for sig in QUIT USR1 USR2 ALRM VTALRM PROF XCPU XFSZ IO PWR; do
	stops "$sig" file
done
stops QUIT pipe
stops USR1 pipe FAULT_NO_SPLICE=1

# has_signalfd PID: PID has a signalfd open.
has_signalfd() {
	for _f in /proc/"$1"/fd/*; do
		case $(readlink "$_f" 2>/dev/null) in *signalfd*) return 0 ;; esac
	done
	return 1
}

# While waiting for the request to appear: exit 3, nothing created.
env -i PATH="$KPATH" "$FWLOAD" -s "$SYS" -t 20 "$TF/late.bin" "$T/big" >"$T/stdout" 2>"$T/stderr" &
pid=$!
bg_pid "$pid"
# Its signals are blocked once it has its signalfd (made right after the
# mask is set). Not /proc/PID/status's SigBlk: under qemu-user that is
# qemu's own mask, which qemu sets for moments of its own before fwload
# has blocked anything (a TERM then ended it: 143).
until_true "fwload to block its signals (its signalfd)" has_signalfd "$bgpid"
kill -TERM "$bgpid"
wait "$pid"
st=$?
status_is 3
no_file "$SYS$TF/late.bin"

# No signalfd (EMFILE: no fd left when fwload starts): a signal is still
# seen within a wait's 100 ms, not when the wait ends. Here the wait is
# for a silent stream (-t 30): before, fwload slept in poll() for the 30 s,
# and hotplugd's SIGKILL would come first.
request x.bin
mkfifo "$T/silent"
exec 8<>"$T/silent"  # a writer that never writes
env -i PATH="$KPATH" $PRELOAD FAULT_NO_SIGNALFD=1 $DYN -s "$SYS" -t 30 "$E_DEVPATH" - \
	<"$T/silent" >"$T/stdout" 2>"$T/stderr" &
pid=$!
bg_pid "$pid"
until_true "fwload to start the load" grep -q 1 "$REQ/loading"
kill -TERM "$bgpid"
i=0
while kill -0 "$bgpid" 2>/dev/null; do
	i=$((i + 1))
	[ "$i" -lt 50 ] || fail "fwload without a signalfd still runs 5 s after SIGTERM"
	sleep 0.1
done
wait "$pid"
st=$?
exec 8>&-
status_is 3
file_is "$REQ/loading" 1-1
stderr_is "fwload: x.bin: stopped by signal 15; request aborted"
