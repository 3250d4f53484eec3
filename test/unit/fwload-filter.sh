# SPDX-License-Identifier: MIT
# fwload DEVPATH FILE COMMAND...: FILE is COMMAND's standard input, and
# COMMAND's output is the image. "0" only when COMMAND exits 0 after giving
# at least one byte; everything else ends in "-1": a failing or missing
# program, a corrupt or truncated archive (a part of the image already
# written), a program killed, one that stays silent past -t, one that does
# not exit by the deadline (-T), no output. COMMAND is an absolute path
# (execve, no PATH search); the first line of its stderr is in the failure
# line. What it inherits: test/unit/fwload-child.sh.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkimage "$T/img" 300001
# The real programs: busybox sh would run its own xz applet, which only
# decompresses.
/usr/bin/zstd -q -c "$T/img" >"$T/img.zst" || fail "zstd"
/usr/bin/xz -c "$T/img" >"$T/img.xz" || fail "xz"

BB=/bin/busybox
[ -x "$BB" ] || BB=/usr/bin/busybox
for c in "$T/img.zst /usr/bin/zstd -dcq" "$T/img.xz /usr/bin/xz -dc" "$T/img.xz $BB unxz -c" "$T/img.xz $BB xzcat"; do
	request x.bin
	# shellcheck disable=SC2086 # FILE COMMAND ARG...
	run clean "$FWLOAD" -s "$SYS" -l "$LOGF" -n x.bin "$E_DEVPATH" $c
	status_is 0
	file_is "$REQ/loading" 10 "loading ($c)"
	data_is "$T/img"
done
log_matches "fwload: loaded x\.bin \(300001 bytes, [0-9]+ ms\) from $(ere "$T/img.zst") via /usr/bin/zstd for $(ere "$E_DEVPATH")"

# Standard input through a filter.
request x.bin
run clean "$FWLOAD" -s "$SYS" "$E_DEVPATH" - /usr/bin/zstd -dcq <"$T/img.zst"
status_is 0
data_is "$T/img"

# Corrupt: the middle byte replaced by its complement, so it differs
# whatever the random image made it (xz checks its CRC-64, which sees any
# one changed byte); truncated: the first half. Output may already be in
# data: the answer must still be "-1".
size=$(wc -c <"$T/img.xz")
head -c $((size / 2)) "$T/img.xz" >"$T/half.xz"
b=$(od -An -tu1 -j $((size / 2)) -N1 "$T/img.xz") || fail "od"
# shellcheck disable=SC2059 # the format is the byte's octal escape
{ head -c $((size / 2)) "$T/img.xz" && printf "\\$(printf %o $((b ^ 255)))" &&
	tail -c +$((size / 2 + 2)) "$T/img.xz"; } >"$T/bad.xz"
[ "$(cmp -l "$T/img.xz" "$T/bad.xz" | wc -l)" -eq 1 ] || fail "bad.xz is not img.xz with one byte changed"
size=$(wc -c <"$T/img.zst")
head -c $((size / 2)) "$T/img.zst" >"$T/half.zst"
for c in "half.xz /usr/bin/xz -dc" "bad.xz /usr/bin/xz -dc" "half.zst /usr/bin/zstd -dcq" "half.xz $BB unxz -c"; do
	request x.bin
	# shellcheck disable=SC2086
	set -- $c
	f=$1
	shift
	run clean "$FWLOAD" -s "$SYS" -n x.bin "$E_DEVPATH" "$T/$f" "$@"
	status_is 2
	file_is "$REQ/loading" 1-1 "loading ($c)"
	grep -Eq "^fwload: x\.bin: $1 failed \(exit status [0-9]+\) on $(ere "$T/$f")(: .+)?; request aborted$" "$T/stderr" ||
		fail "no failure line for $c: $(cat "$T/stderr")"
done

# The first line of the program's stderr, control bytes escaped, goes into
# the failure line (at most 200 bytes of it).
request x.bin
# shellcheck disable=SC2016 # the program's own script
run clean "$FWLOAD" -s "$SYS" -n x.bin "$E_DEVPATH" "$T/img" /bin/sh -c 'printf "bad\tmagic\nsecond line\n" >&2; exit 3'
status_is 2
file_is "$REQ/loading" 1-1
stderr_is "fwload: x.bin: /bin/sh failed (exit status 3) on $T/img: bad\x09magic; request aborted"
request x.bin
run clean "$FWLOAD" -s "$SYS" -n x.bin "$E_DEVPATH" "$T/img" /bin/sh -c 'head -c 1000 /dev/zero | tr "\0" e >&2; exit 4'
status_is 2
stderr_matches "fwload: x\.bin: /bin/sh failed \(exit status 4\) on $(ere "$T/img"): e{200}; request aborted"

# A program that does not exist: it cannot run, and says why.
request x.bin
run clean "$FWLOAD" -s "$SYS" -n x.bin "$E_DEVPATH" "$T/img.zst" /nonexistent/zstd -dcq
status_is 2
file_is "$REQ/loading" 1-1
stderr_is "fwload: x.bin: /nonexistent/zstd failed (exit status 127) on $T/img.zst: cannot run /nonexistent/zstd: errno 2 (ENOENT); request aborted"

# Not an absolute path: a usage error, nothing written (no PATH search).
request x.bin
run clean "$FWLOAD" -s "$SYS" -n x.bin "$E_DEVPATH" "$T/img.zst" zstd -dcq
status_is 100
untouched

# fork() fails: nothing started, "-1", and no kill() aimed at anything but
# a real child (kill(-1) from root would hit every process).
request x.bin
fault_run FAULT_NO_FORK=1 -- -s "$SYS" -n x.bin "$E_DEVPATH" "$T/img.zst" /usr/bin/zstd -dcq
status_is 2
file_is "$REQ/loading" -1
stderr_is "fwload: x.bin: cannot start /usr/bin/zstd: errno 11 (EAGAIN); request aborted"
stat_is kill_group 0

# Killed by a signal after some output.
request x.bin
run clean "$FWLOAD" -s "$SYS" -n x.bin "$E_DEVPATH" "$T/img" /bin/sh -c 'head -c 5000; kill -9 $$'
status_is 2
file_is "$REQ/loading" 1-1
stderr_is "fwload: x.bin: /bin/sh killed by signal 9 on $T/img; request aborted"

# Exit 0 but no output: nothing to load.
request x.bin
run clean "$FWLOAD" -s "$SYS" -n x.bin "$E_DEVPATH" "$T/img" /bin/true
status_is 2
file_is "$REQ/loading" 1-1
stderr_is "fwload: x.bin: empty image from $T/img via /bin/true; request aborted"

# Silent past the wait time (-t 1): given up, the program killed, no hang.
request x.bin
run clean "$FWLOAD" -s "$SYS" -n x.bin -t 1 "$E_DEVPATH" "$T/img" /bin/sh -c 'head -c 100; exec sleep 50'
status_is 2
file_is "$REQ/loading" 1-1
stderr_is "fwload: x.bin: nothing for 1 s from $T/img via /bin/sh; request aborted"

# Output closed, but no exit: killed at the deadline (-T 1), no hang.
request x.bin
run clean "$FWLOAD" -s "$SYS" -n x.bin -T 1 "$E_DEVPATH" "$T/img" /bin/sh -c 'head -c 100; exec >&-; exec sleep 50'
status_is 2
file_is "$REQ/loading" 1-1
stderr_is "fwload: x.bin: deadline of 1 s passed reading $T/img via /bin/sh; request aborted"

# Never silent, never done: a trickle is ended by the deadline (-T 2), and
# the request too, whatever -t says.
request x.bin
run clean "$FWLOAD" -s "$SYS" -n x.bin -t 60 -T 2 "$E_DEVPATH" "$T/img" /bin/sh -c 'while :; do echo x; sleep 0.1; done'
status_is 2
file_is "$REQ/loading" 1-1
stderr_is "fwload: x.bin: deadline of 2 s passed reading $T/img via /bin/sh; request aborted"

# A signal to fwload while the program runs: aborted, exit 3, program gone.
request x.bin
# shellcheck disable=SC2016 # the filter's own script
env -i PATH="$KPATH" "$FWLOAD" -s "$SYS" -n x.bin "$E_DEVPATH" "$T/img" \
	/bin/sh -c 'echo $$ >"$0"; head -c 100; exec sleep 50' "$T/pid" >"$T/stdout" 2>"$T/stderr" &
pid=$!
bg_pid "$pid"  # fwload (under yash, $! is a subshell that waits for it)
started() { [ -s "$T/pid" ] && [ -s "$REQ/data" ]; }
until_true "the filter's start" started
kill -TERM "$bgpid"
wait "$pid"
st=$?
status_is 3
file_is "$REQ/loading" 1-1
stderr_is "fwload: x.bin: stopped by signal 15; request aborted"
filter_gone() { ! kill -0 "$(cat "$T/pid")" 2>/dev/null; }
until_true "the filter's end with fwload's" filter_gone
