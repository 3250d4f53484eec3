# SPDX-License-Identifier: MIT
# A hold record under this request's key (fwload-pending -k) that names another
# DEVPATH is another request's: keys never repeat within a boot, but they
# start again at the next, and a run directory that is not a tmpfs keeps
# records across it (doc/kernel-facts.md). A new request's hold must not
# take that record's end for its own: here the stale record's end has
# passed, and the new request, HOLD=30, is held (its line in the log) and
# served when its file appears (before, it was cancelled at once: "taken
# over from an earlier hold that ended"). The control: a record of this
# very request (its DEVPATH) keeps its end.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
D=$R/lib/firmware
mkdir -p "$D" "$RUN/held"
echo 6.12.0-test >"$T/proc/sys/kernel/osrelease"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" HOLD=30
uptime_s
request new.bin
hold_rec
printf '%s 99999999 1 %s\n' "$((up - 5))" "/devices/virtual/misc/test_firmware/old.bin" >"$REC"
(
	agent firmware >"$T/out" 2>&1
	echo $? >"$T/st"
) &
# held, or ended: the hold's line in the log (written once it holds), or
# the agent's status.
held_or_ended() { [ -e "$T/st" ] || grep -qs '^fwload: new\.bin held for ' "$LOGF"; }
until_true "new.bin held, or its agent's end" held_or_ended
[ ! -e "$T/st" ] || fail "not held: status $(cat "$T/st"), $(cat "$T/out"); log: $(cat "$LOGF")"
mkimage "$D/new.bin" 3000
until_true "the held request served" test -e "$T/st"
file_is "$T/st" "0
" "the agent's status"
file_is "$REQ/loading" 10
data_is "$D/new.bin"
wait

# The control: the record is this request's: its end is kept (passed:
# cancelled at once, the line says it was taken over).
request same.bin
hold_rec
printf '%s 99999999 1 %s\n' "$((up - 5))" "$E_DEVPATH" >"$REC"
run agent firmware
status_is 1
file_is "$REQ/loading" -1
grep -q "taken over from an earlier hold that ended" "$LOGF" || fail "log: $(cat "$LOGF")"

# A record nobody will remove (its agent gone, and no request of its key:
# answered, or gone, meanwhile) is removed by the next hold; one of a dead
# agent whose request is still there is kept (the control above took its
# end over). Here: a dead agent's record for a request that went, another
# for one that is still pending, then a new request held.
request gone.bin
hold_rec
gone_rec=$REC
printf '%s 99999999 1 %s\n' "$((up + 100))" "$E_DEVPATH" >"$gone_rec"
gone_dir=$REQ
request still.bin
hold_rec
still_rec=$REC
printf '%s 99999999 1 %s\n' "$((up + 100))" "$E_DEVPATH" >"$still_rec"
request later.bin
rm -r "$gone_dir"  # after the others are made: no inode of it reused here
(
	agent firmware >"$T/out" 2>&1
	echo $? >"$T/st2"
) &
hold_rec
until_true "the later request held (its record)" test -s "$REC"
[ ! -e "$gone_rec" ] || fail "the record of a gone request and a dead agent is still there: $(cat "$gone_rec")"
[ -e "$still_rec" ] || fail "the record of a pending request (its agent dead) was removed"
mkimage "$D/later.bin" 100
until_true "the later request served" test -e "$T/st2"
file_is "$T/st2" "0
" "the later agent's status"
wait
