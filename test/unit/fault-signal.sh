# SPDX-License-Identifier: MIT
# shellcheck disable=SC2086 # $PRELOAD and $DYN are word lists (see lib.sh)
# SIGTERM (or SIGINT, SIGHUP) in the middle of a load: fwload aborts it
# ("1-1") and exits 3 with one message. The injector slows every call on
# data so the signal lands mid-copy; a copy path each.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkimage "$T/big" 1048677

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
	stderr_is "fwload: x.bin: stopped by signal; request aborted"
	[ "$(wc -c <"$REQ/data")" -lt 1048677 ] || fail "the whole image went through before SIG$sig"
}

stops TERM file
stops INT file FAULT_NO_SENDFILE=1
stops HUP pipe
stops TERM pipe FAULT_NO_SPLICE=1

# While waiting for the request to appear: exit 3, nothing created.
env -i PATH="$KPATH" "$FWLOAD" -s "$SYS" -t 20 "$TF/late.bin" "$T/big" >"$T/stdout" 2>"$T/stderr" &
pid=$!
sleep 0.3
kill -TERM "$pid"
wait "$pid"
st=$?
status_is 3
no_file "$SYS$TF/late.bin"
