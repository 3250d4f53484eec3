# SPDX-License-Identifier: MIT
# At most 64 requests are held at once (a device asking for name after
# name, or one built to, holds no more agents than that): with 64 hold
# records whose agents run (a pid and its start time, as recorded), a
# 65th name not found is cancelled at once, the line says why; records of
# agents gone (or a pid reused: another start time) do not count.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
mkdir -p "$R/lib/firmware" "$RUN/held"
echo 6.12.0-test >"$T/proc/sys/kernel/osrelease"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" HOLD=30
# 64 agents that run: sleeps, with their start times.
sleep 120 &
first=$!
read -r stat <"/proc/$first/stat"
# shellcheck disable=SC2086 # the fields after "(comm) "
set -- ${stat##*) }
start=${20}
uptime_s
printf '%s %s %s /devices/x/held-0\n' "$((up + 100))" "$first" "$start" >"$RUN/held/1-0"
pids=$first
held_by_sleepers 1 64 /devices/x/held-%s
# Not running: a pid that is gone, one whose start time differs.
printf '%s 999999 1 /devices/x/gone\n' "$((up + 100))" >"$RUN/held/1-gone"
printf '%s %s %s /devices/x/reused\n' "$((up + 100))" "$first" "$((start + 1))" >"$RUN/held/1-reused"

request too-many.bin
run agent firmware
status_is 1
file_is "$REQ/loading" -1
log_matches "fwload: cancelled too-many\.bin .*\(HOLD=30, but 64 requests are held already \(at most 64\)\)"

# One agent fewer: held again.
kill "$first"
wait "$first" 2>/dev/null
request one-more.bin
hold_rec
(
	agent firmware >"$T/bg.out" 2>&1
	echo $? >"$T/bg.st"
) &
until_true "one-more.bin held" test -f "$REC"
: >"$RUN/settled"
wait "$!"
read -r st <"$T/bg.st"
assert_eq "the held agent's status after settle" 5 "$st"
