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
	i=0
	while [ ! -s "$REQ/data" ] && [ "$i" -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	[ -s "$REQ/data" ] || fail "the load did not start ($how)"
	kill "-$sig" "$pid"
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

# While waiting for the request to appear: exit 3, nothing created.
env -i PATH="$KPATH" "$FWLOAD" -s "$SYS" -t 20 "$TF/late.bin" "$T/big" >"$T/stdout" 2>"$T/stderr" &
pid=$!
sleep 0.3
kill -TERM "$pid"
wait "$pid"
st=$?
status_is 3
no_file "$SYS$TF/late.bin"
