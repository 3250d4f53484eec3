# SPDX-License-Identifier: MIT
# The configuration the agent decided from is the one fwload checks: a
# held agent decided from cache C1 (FIRMWARE_PATH=/a); the configuration
# changes (FIRMWARE_PATH=/b) and another event writes C2; a file then
# appears in /a, a directory no longer configured. The held agent's fwload
# -K gets the stamp the agent read from C1, which is stale: nothing is
# loaded from /a, the agent decides again (now /b) and serves the file that
# appears there. (Checked against the cache file at the path, C2, fresh,
# the stale decision was approved and /a's file loaded.) The held agent is
# stopped (SIGSTOP) while the configuration changes, so that it sees the
# change only through its fwload.
# shellcheck disable=SC2016 # sh -c's own expansions
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
mkdir -p "$R/lib/firmware" "$R/a" "$R/b"
echo 6.12.0-test >"$T/proc/sys/kernel/osrelease"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" FIRMWARE_PATH=/a HOLD=30
aged
mkfw "$R/lib/firmware/prime.bin" x
request prime.bin
run agent firmware
status_is 0
[ -f "$RUN/conf.cache" ] || fail "no cache C1 made"
cp "$RUN/conf.cache" "$T/c1"

request x.bin
x=$REQ xdev=$E_DEVPATH
hold_rec
(
	agent firmware >"$T/bg.out" 2>&1
	echo $? >"$T/bg.st"
) &
until_true "the hold record" test -f "$REC"
read -r _ pid _ <"$REC"
kill -STOP "$pid"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" FIRMWARE_PATH=/b HOLD=30
aged
request prime.bin
run agent firmware
status_is 0
cmp -s "$RUN/conf.cache" "$T/c1" && fail "no cache C2 made by the second event"
grep -q "fw_path='/b'" "$RUN/conf.cache" || fail "C2 is not for FIRMWARE_PATH=/b: $(cat "$RUN/conf.cache")"
mkfw "$R/a/x.bin" "from /a, no longer configured"
kill -CONT "$pid"
# The held agent finds /a's file (its decision's directories), sees it
# twice unchanged, and asks fwload to load it: stale (7), it reads the
# files again and holds on, searching /b. Served from /b once there.
until_true "the held agent's decision again (a new hold line)" sh -c '[ "$(grep -c "x\.bin held for" "$1")" -ge 2 ]' - "$LOGF"
file_is "$x/loading" "" "x.bin after /a's file appeared"
mkfw "$R/b/x.bin" "from /b"
wait
read -r st <"$T/bg.st"
[ "$st" = 0 ] || fail "the held agent ended with $st: $(cat "$T/bg.out" "$LOGF")"
REQ=$x
file_is "$REQ/data" "from /b"
grep -q "from $(ere "$R/a/x.bin")" "$LOGF" && fail "loaded from /a: $(cat "$LOGF")"
log_matches "fwload: loaded x\.bin \(7 bytes, [0-9]+ ms\) from $(ere "$R/b/x.bin") for $(ere "$xdev")"
