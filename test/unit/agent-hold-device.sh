# SPDX-License-Identifier: MIT
# One device cannot take every hold: at most 8 of the 64 are one device's
# (the requests under one device directory: DEVPATH less its last part).
# With 8 hold records of /devices/evil whose agents run, a ninth name of
# that device not found is cancelled at once, the line says why; a name of
# another device is still held. (Before, one device could fill all 64, and
# a request of another whose file came a second later was cancelled.)
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
mkdir -p "$R/lib/firmware" "$RUN/held"
echo 6.12.0-test >"$T/proc/sys/kernel/osrelease"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" HOLD=30
# 8 agents of /devices/evil that run: sleeps, with their start times.
uptime_s
held_by_sleepers 0 8 /devices/evil/name-%s.bin

request name-8.bin /devices/evil/name-8.bin
run agent firmware
status_is 1
file_is "$REQ/loading" -1
log_matches "fwload: cancelled name-8\\.bin .*\\(HOLD=30, but 8 requests of /devices/evil are held already \\(at most 8 a device\\)\\)"

# Another device's: held.
request late.bin
hold_rec
agent_bg
until_true "late.bin held" test -f "$REC"
mkfw "$R/lib/firmware/late.bin" "late"
wait "$bg"
read -r st <"$T/bg.st"
status_is 0
file_is "$REQ/data" "late"
