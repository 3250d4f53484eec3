# SPDX-License-Identifier: MIT
# fwload DEVPATH FILE COMMAND...: FILE is COMMAND's standard input, and
# COMMAND's output is the image. "0" only when COMMAND exits 0 after giving
# at least one byte; everything else ends in "-1": a failing or missing
# program, a corrupt or truncated archive (a part of the image already
# written), a program killed, one that stays silent past -t, no output.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkimage "$T/img" 300001
# The real programs: busybox sh would run its own xz applet, which only
# decompresses.
/usr/bin/zstd -q -c "$T/img" >"$T/img.zst" || fail "zstd"
/usr/bin/xz -c "$T/img" >"$T/img.xz" || fail "xz"

for c in "$T/img.zst zstd -dcq" "$T/img.xz xz -dc" "$T/img.xz busybox unxz -c" "$T/img.xz busybox xzcat"; do
	request x.bin
	# shellcheck disable=SC2086 # FILE COMMAND ARG...
	run clean "$FWLOAD" -s "$SYS" -l "$LOGF" -n x.bin "$E_DEVPATH" $c
	status_is 0
	file_is "$REQ/loading" 10 "loading ($c)"
	data_is "$T/img"
done
log_matches "fwload: loaded x\.bin \(300001 bytes, [0-9]+ ms\) from $(ere "$T/img.zst") via zstd for $(ere "$E_DEVPATH")"

# Standard input through a filter.
request x.bin
run clean "$FWLOAD" -s "$SYS" "$E_DEVPATH" - zstd -dcq <"$T/img.zst"
status_is 0
data_is "$T/img"

# Corrupt: a flipped byte in the middle (zstd checks its frame checksum,
# xz its CRC); truncated: the first half. Output may already be in data:
# the answer must still be "-1".
size=$(wc -c <"$T/img.xz")
head -c $((size / 2)) "$T/img.xz" >"$T/half.xz"
{ head -c $((size / 2)) "$T/img.xz" && printf 'X' && tail -c +$((size / 2 + 2)) "$T/img.xz"; } >"$T/bad.xz"
size=$(wc -c <"$T/img.zst")
head -c $((size / 2)) "$T/img.zst" >"$T/half.zst"
for c in "half.xz xz -dc" "bad.xz xz -dc" "half.zst zstd -dcq" "half.xz busybox unxz -c"; do
	request x.bin
	# shellcheck disable=SC2086
	set -- $c
	f=$1
	shift
	run clean "$FWLOAD" -s "$SYS" -n x.bin "$E_DEVPATH" "$T/$f" "$@"
	status_is 2
	file_is "$REQ/loading" 1-1 "loading ($c)"
	grep -Eq "^fwload: x\.bin: $1 failed \(exit status [0-9]+\) on $(ere "$T/$f"); request aborted$" "$T/stderr" ||
		fail "no failure line for $c: $(cat "$T/stderr")"
done

# A program that does not exist: nothing starts.
request x.bin
run clean "$FWLOAD" -s "$SYS" -n x.bin "$E_DEVPATH" "$T/img.zst" /nonexistent/zstd -dcq
status_is 2
file_is "$REQ/loading" -1
stderr_is "fwload: x.bin: cannot run /nonexistent/zstd: No such file or directory (errno 2)"

# fork() fails: nothing started, "-1", and no kill() aimed at anything but
# a real child (kill(-1) from root would hit every process).
request x.bin
fault_run FAULT_NO_FORK=1 -- -s "$SYS" -n x.bin "$E_DEVPATH" "$T/img.zst" zstd -dcq
status_is 2
file_is "$REQ/loading" -1
stderr_is "fwload: x.bin: cannot start zstd: Resource temporarily unavailable (errno 11)"
stat_is kill_group 0

# Killed by a signal after some output.
request x.bin
run clean "$FWLOAD" -s "$SYS" -n x.bin "$E_DEVPATH" "$T/img" sh -c 'head -c 5000; kill -9 $$'
status_is 2
file_is "$REQ/loading" 1-1
stderr_is "fwload: x.bin: sh killed by signal 9 on $T/img; request aborted"

# Exit 0 but no output: nothing to load.
request x.bin
run clean "$FWLOAD" -s "$SYS" -n x.bin "$E_DEVPATH" "$T/img" true
status_is 2
file_is "$REQ/loading" 1-1
stderr_is "fwload: x.bin: empty image from $T/img via true; request aborted"

# Silent past the wait time (-t 1): given up, the program killed, no hang.
request x.bin
run clean "$FWLOAD" -s "$SYS" -n x.bin -t 1 "$E_DEVPATH" "$T/img" sh -c 'head -c 100; exec sleep 50'
status_is 2
file_is "$REQ/loading" 1-1
stderr_is "fwload: x.bin: nothing more came in the wait time from $T/img via sh; request aborted"

# Output closed, but no exit: killed after the wait time (-t 1), no hang.
request x.bin
run clean "$FWLOAD" -s "$SYS" -n x.bin -t 1 "$E_DEVPATH" "$T/img" sh -c 'head -c 100; exec >&-; exec sleep 50'
status_is 2
file_is "$REQ/loading" 1-1
stderr_is "fwload: x.bin: no exit in the wait time from sh; killed; request aborted"

# A signal to fwload while the program runs: aborted, exit 3, program gone.
request x.bin
# shellcheck disable=SC2016 # the filter's own script
env -i PATH="$KPATH" "$FWLOAD" -s "$SYS" -n x.bin "$E_DEVPATH" "$T/img" \
	sh -c 'echo $$ >"$0"; head -c 100; exec sleep 50' "$T/pid" >"$T/stdout" 2>"$T/stderr" &
pid=$!
i=0
until [ -s "$T/pid" ] && [ -s "$REQ/data" ]; do
	i=$((i + 1))
	[ $i -lt 500 ] || fail "the filter did not start"
	sleep 0.01
done
kill -TERM "$pid"
wait "$pid"
st=$?
status_is 3
file_is "$REQ/loading" 1-1
stderr_is "fwload: x.bin: stopped by signal; request aborted"
i=0
while kill -0 "$(cat "$T/pid")" 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 500 ] || fail "the filter outlived fwload"
	sleep 0.01
done
