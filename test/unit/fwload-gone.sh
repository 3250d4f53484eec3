# SPDX-License-Identifier: MIT
# A request answered by another before this answerer got to it is gone, not
# a fault: with -e (the caller saw the request: the kernel makes its files
# before its uevent) a request directory that is no longer there, or one
# without loading, ends fwload at once with status 5, one line on stderr
# and nothing logged, for a load and for a cancel. Without -e fwload still
# waits up to -t for a request to appear (fwload-no-request). And one
# answered between the other's unlock and our lock (the directory goes a
# little after the answer): the kernel then ignores our "1", and loading
# reads 0; the fault injector's FAULT_ANSWERED takes writes to loading as
# the kernel does then: status 5, nothing written to data, no -1, nothing
# logged, the lock file gone. Before, fwload waited the whole TIMEOUT for
# the directory and logged "no request: ... ENOENT", or wrote the image
# into an answered request and logged an error (or a second "loaded").
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkimage "$T/img" 5000
D=$TF/gone.bin

# gone_fast ARG...: fwload -e ARG... on no request: 5 within 5 s (TIMEOUT
# is 60), its line on stderr, nothing logged, nothing created.
gone_fast() {
	uptime_s
	t0=$up
	run clean TIMEOUT=60 "$FWLOAD" -e -s "$SYS" -l "$LOGF" -k "$T/lock" "$@"
	uptime_s
	status_is 5
	[ $((up - t0)) -le 5 ] || fail "fwload -e $*: $((up - t0)) s for a request that is gone"
	stderr_is "fwload: gone.bin: $D is gone: answered by another; left alone"
	no_file "$LOGF" "a log line for a request answered by another"
}
gone_fast "$D" "$T/img"
no_file "$SYS$D" "fwload created the request directory"
gone_fast -c "$D"
no_file "$SYS$D" "fwload created the request directory"
mkdir -p "$SYS$D"  # a directory without loading: on its way out
: >"$SYS$D/data"
gone_fast "$D" "$T/img"
file_is "$SYS$D/data" "" "data of a request on its way out"
no_file "$SYS$D/loading"

# Answered before our "1": the kernel ignores it; loading reads 0.
request x.bin
printf 0 >"$REQ/loading"
mkdir -p "$T/lock" && chmod 700 "$T/lock"
fault_run FAULT_ANSWERED=1 -- -e -s "$SYS" -l "$LOGF" -k "$T/lock" -n x.bin "$E_DEVPATH" "$T/img"
status_is 5
stderr_is "fwload: x.bin: $E_DEVPATH was answered by another before this answer; left alone"
file_is "$REQ/loading" 0 "loading (answered before us)"
file_is "$REQ/data" "" "data of a request answered before us"
no_file "$LOGF" "a log line for a request answered by another"
[ -z "$(ls -A "$T/lock")" ] || fail "a lock file left behind: $(ls -A "$T/lock")"
# The same with a COMMAND: ended with the rest (the load's usual end).
fault_run FAULT_ANSWERED=1 -- -e -s "$SYS" -l "$LOGF" -k "$T/lock" -n x.bin "$E_DEVPATH" - /bin/cat "$T/img"
status_is 5
file_is "$REQ/data" "" "data of a request answered before us (COMMAND)"
no_file "$LOGF" "a log line for a request answered by another"

# The control: a request nobody answered loads (loading read back as 1).
request x.bin
fault_run -- -e -s "$SYS" -l "$LOGF" -k "$T/lock" -n x.bin "$E_DEVPATH" "$T/img"
status_is 0
file_is "$REQ/loading" 10
data_is "$T/img"
