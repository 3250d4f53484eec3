# SPDX-License-Identifier: MIT
# Stopping an upload. While fwload writes the image: Ctrl-C (typed on a
# pseudo-terminal), SIGTERM, or a second command (fwloadctl upload
# --cancel, which finds fwload by the device's lock) stop it: "-1" after
# "1", nothing handed over, the device still idle, exit 3. After the
# hand-off: "1" to the device's cancel, then its answer, user-abort, is
# reported as any other (exit 12) by the upload and by the second command,
# in each phase. A device that refuses to cancel (the write fails while it
# is busy): "cannot stop now", and the answer still waited for. Nothing to
# cancel: exit 1. The wait limit (--timeout): exit 9, the device left to
# go on. The device (a fake one) moves on only once fwloadctl has shown
# where it is.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
needs fwloadctl fwloadctl-upload.sh
# shellcheck source=upload-lib
. "$REPO/test/unit/upload-lib"

slow_xz
conf "LOG=$LOGF"
upload_dev up.bin
mkimage "$T/img.xz" 3000

# fresh: the device idle, nothing written, slow_xz waiting again.
fresh() {
	rm -f "$T/started" "$T/go"
	: >"$UP/loading"
	: >"$UP/data"
	: >"$UP/cancel"
	: >"$LOGF"
	up_set status idle
	up_set error ""
}

# stopped_writing FILE: the upload stopped while it wrote: "-1" after "1",
# the device idle with nothing handed over, the line and the log say so.
stopped_writing() {
	status_is 3
	file_is "$UP/loading" 1-1 "loading (stopped while writing)"
	file_is "$UP/cancel" "" "cancel (stopped while writing)"
	grep -q "^fwloadctl: upload up.bin: stopped while its image was written (Ctrl-C, SIGTERM or fwloadctl upload --cancel; loading -1): nothing handed over" "$1" ||
		fail "no stop said: $(show "$1")"
	log_matches "fwload: upload up\\.bin to $(ere "$UP_DEV"): stopped while its image was written .*"
}

# 1. While writing. Ctrl-C on the terminal:
fresh
in_pty 80 "$T/pty" upload up.bin "$T/img.xz"
until_true "the image being written" [ -e "$T/started" ]
kill -USR1 "$PTY"
wait "$PTY"
st=$?
stopped_writing "$T/pty"
# SIGTERM to fwloadctl itself (started by env, which becomes it):
fresh
ctl_cmd
# shellcheck disable=SC2086 # CTL is a command line of words without blanks
(exec $CTL upload up.bin "$T/img.xz" >"$T/stdout" 2>"$T/stderr") &
c=$!
until_true "the image being written" [ -e "$T/started" ]
kill -TERM "$c"
wait "$c"
st=$?
stopped_writing "$T/stderr"
# A second command (it trusts a pid only when /proc/PID/exe is fwload:
# under qemu-user, test/cross.sh, it is qemu, and nothing is stopped):
fresh
ctl upload up.bin "$T/img.xz" >"$T/first" 2>&1 &
c=$!
until_true "the image being written" [ -e "$T/started" ]
run ctl upload --cancel up.bin
if [ -n "${TEST_QEMU-}" ]; then
	status_is 1
	: >"$T/go"
	wait "$c"
	echo "note: a second command while writing not stopped under qemu-user (/proc/PID/exe is qemu)"
else
	status_is 3
	stdout_is ""
	grep -Eq "^fwloadctl: upload up.bin: stopped while its image was written \\(fwload pid [0-9]+; loading -1\\): nothing handed over$" \
		"$T/stderr" || fail "the second command: $(cat "$T/stderr")"
	log_matches "fwload: upload up\\.bin to .*: stopping the fwload \\(pid [0-9]+\\) writing an image to it \\(fwloadctl upload --cancel\\)"
	wait "$c"
	st=$?
	stopped_writing "$T/first"
fi

# 2. After the hand-off, in each phase: Ctrl-C, then the second command.
for how in ctrl-c command; do
	for phase in preparing transferring programming; do
		fresh
		if [ "$how" = ctrl-c ]; then
			in_pty 80 "$T/out" upload up.bin "$T/img.xz"
			c=$PTY
		else
			ctl upload up.bin "$T/img.xz" >"$T/out" 2>&1 &
			c=$!
		fi
		start_go
		seen "$T/out" receiving
		up_set status "$phase"
		seen "$T/out" "$phase"
		if [ "$how" = ctrl-c ]; then
			kill -USR1 "$PTY"
		else
			ctl upload --cancel up.bin >"$T/second" 2>&1 &
			second=$!
		fi
		until_true "1 in cancel ($how, $phase)" grep -qx 1 "$UP/cancel"
		if [ "$how" = ctrl-c ]; then
			seen "$T/out" "cancel requested ($phase)"
		else
			seen "$T/second" "cancel requested ($phase)"
		fi
		up_set error "$phase:user-abort"
		up_set status idle
		wait "$c"
		st=$?
		status_is 12
		grep -q "^fwloadctl: upload up.bin: $phase:user-abort: the upload was cancelled (Ctrl-C, SIGTERM or fwloadctl upload --cancel) and the device stopped: upload again to program it" "$T/out" ||
			fail "$how, $phase: $(show "$T/out")"
		log_matches "fwload: upload up\\.bin to .*: $phase:user-abort \\($(ere "$T/img.xz"), 3000 bytes, no digest, [0-9]+ s\\)"
		if [ "$how" = command ]; then
			wait "$second"
			st=$?
			status_is 12
			grep -q "^fwloadctl: upload up.bin: $phase:user-abort: " "$T/second" || fail "the second command: $(cat "$T/second")"
			# the upload logs its outcome; the second command its request
			[ "$(grep -c "user-abort" "$LOGF")" = 1 ] || fail "the outcome logged twice: $(cat "$LOGF")"
			log_matches "fwload: upload up\\.bin to .*: cancel requested while $phase \\(fwloadctl upload --cancel\\)"
		fi
	done
done

# 3. A device that cannot stop now (its cancel refuses while it is busy):
# said, and its answer waited for.
fresh
rm -f "$UP/cancel"
mkdir "$UP/cancel"
in_pty 80 "$T/out" upload up.bin "$T/img.xz"
start_go
up_set status programming
seen "$T/out" programming
kill -USR1 "$PTY"
seen "$T/out" "the device cannot stop now (programming: it refused to cancel); waiting for its answer"
up_set status idle
wait "$PTY"
st=$?
status_is 0
grep -q "^fwloadctl: upload up.bin: programmed: " "$T/out" || fail "no answer after the refusal: $(show "$T/out")"
rmdir "$UP/cancel"
: >"$UP/cancel"

# 4. Nothing to cancel; --no-wait returns once "1" is written.
fresh
run ctl upload --cancel up.bin
status_is 1
stderr_is "fwloadctl: upload: up.bin: idle, no upload to cancel"
file_is "$UP/cancel" "" "cancel (nothing to cancel)"
up_set status transferring
run ctl upload --cancel --no-wait up.bin
status_is 0
file_is "$UP/cancel" 1 "cancel (--no-wait)"

# 5. The wait limit: the device still busy after it, left to go on.
fresh
ctl upload --timeout 1 up.bin "$T/img.xz" >"$T/stdout" 2>"$T/stderr" &
c=$!
# (transferring before the hand-off: the limit counts whole seconds of the
# boot clock and can pass at fwloadctl's first look after it, before a
# change made here after the hand-off)
until_true "the image being written" [ -e "$T/started" ]
up_set status transferring
: >"$T/go"
wait "$c"
st=$?
status_is 9
grep -q "^fwloadctl: upload up.bin: still transferring after the wait limit of 1 s (--timeout): the device goes on; fwloadctl status shows it, fwloadctl upload --cancel up.bin stops it$" \
	"$T/stderr" || fail "the wait limit: $(cat "$T/stderr")"
file_is "$UP/cancel" "" "cancel (the wait limit)"
log_matches "fwload: upload up\\.bin to .*: still transferring after the wait limit of 1 s .*"
