# SPDX-License-Identifier: MIT
# HOLD=SECONDS: a request whose image is not found is held, not cancelled:
# the agent searches again until the file is there (renamed in, or copied:
# loaded only once it stops changing), the request is gone (exit 5, quietly),
# another agent takes the hold over (exit 5), or HOLD ends (cancelled, one
# line). fwloadctl settle's marker (RUN/settled) ends holding: cancelled at
# once. The hold record RUN/held/KEY (KEY the request's identity, fwload
# -i) holds "UNTIL PID START DEVPATH" while it lasts, UNTIL on the boot
# clock. SIGTERM (hotplugd ending its child) cancels a held request.
# Wall-clock here is only a bound in one direction (HOLD's end not before
# HOLD) and a hang guard; how soon a file is served is measured on the real
# kernel (doc/performance.md).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
D=$R/lib/firmware
mkdir -p "$D"
echo 6.12.0-test >"$T/proc/sys/kernel/osrelease"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" HOLD=30

# bg_stop: at the case's end (a failure among them), no agent of its own
# still runs: one still in the background gets SIGTERM through its timeout
# (a held request is cancelled) and is waited for before $T goes.
bg_stop() {
	for _j in ${bg-} ${second-}; do
		pkill -TERM -P "$_j" 2>/dev/null
		wait "$_j" 2>/dev/null
	done
	rm -rf "$T"
}
trap bg_stop EXIT
# held NAME: the agent holds the request for NAME: the hold's line is in the
# log, written after the record, the hold's SIGTERM trap and fd 9.
held() {
	until_true "the hold's line for $1 in the log" grep -q "^fwload: $(ere "$1") held for " "$LOGF"
}

# Held, then renamed into place: loaded.
request late.bin
hold_rec
uptime_s
up0=$up
agent_bg
until_true "the hold record" test -f "$REC"
read -r until pid start dev <"$REC"
uptime_s
{ [ "$until" -ge $((up0 + 30)) ] && [ "$until" -le $((up + 30)) ]; } ||
	fail "hold until $until, boot clock $up0 before the agent and $up after its record, HOLD=30"
kill -0 "$pid" || fail "the hold record names pid $pid, not running"
read -r stat <"/proc/$pid/stat"
# shellcheck disable=SC2086 # the fields after "(comm) "
set -- ${stat##*) }
[ "$start" = "${20}" ] || fail "the hold record's start time $start is not that of pid $pid (${20})"
assert_eq "the hold record's DEVPATH" "$E_DEVPATH" "$dev"
[ "$(find "$RUN/held" -maxdepth 0 -perm 700)" = "$RUN/held" ] || fail "$RUN/held not 0700"
held late.bin
log_matches "fwload: late\.bin held for $(ere "$TF/late.bin"): not found in $(ere "$R") .*; waiting up to (29|30) s for it \(HOLD=30\)"
sleep 0.6
untouched
mkimage "$T/late.tmp" 10000
mv "$T/late.tmp" "$D/late.bin"
bg_status_is 0
file_is "$REQ/loading" 10
data_is "$D/late.bin"
no_file "$REC" "the hold record after the load"

# Copied in slowly: a file still growing is not loaded until it stops.
# The copy goes on as the agent looks: fwload-stamp (a wrapper here) first
# adds 4000 bytes to it at each look (-W FILE), until all 40000 are there:
# two looks always see two sizes, however slow either side is.
rm "$D/late.bin"
request late.bin
hold_rec
mkimage "$T/full" 40000
own_libexec
rm "$LIBEXEC/fwload-stamp"
cat >"$LIBEXEC/fwload-stamp" <<END
#!/bin/sh
if [ "\$1 \$2" = "-W $D/late.bin" ]; then
	n=\$(wc -c <"\$2")
	[ "\$n" -ge 40000 ] || head -c \$((n + 4000)) "$T/full" >"\$2"
fi
exec "$HELPERS/fwload-stamp" "\$@"
END
chmod 755 "$LIBEXEC/fwload-stamp"
agent_bg
until_true "the hold record" test -f "$REC"
head -c 4000 "$T/full" >"$D/late.bin"
bg_status_is 0
LIBEXEC=$HELPERS
file_is "$REQ/loading" 10
data_is "$T/full"

# The request goes (answered by someone else): the agent leaves, quietly.
request gone.bin
hold_rec
: >"$LOGF"
agent_bg
until_true "the hold record" test -f "$REC"
rm -r "$REQ"
bg_status_is 5
no_file "$REC" "the hold record of a request gone"
log_matches "fwload: gone\.bin held for .*"
[ "$(wc -l <"$LOGF")" -eq 1 ] || fail "more than the hold's line: $(cat "$LOGF")"

# Another agent takes the hold over (a rescan after switch_root): the first
# leaves (5), the second keeps the first's end and serves the file.
rm -f "$D/late.bin"
request late.bin
hold_rec
agent_bg
first=$bg
until_true "the hold record" test -f "$REC"
read -r until1 pid1 _ <"$REC"
(
	agent firmware >"$T/bg2.out" 2>&1
	echo $? >"$T/bg2.st"
) &
second=$!
# shellcheck disable=SC2016 # the inner shell's own expansions
until_true "the second agent's record" sh -c 'read -r u p _ <"$1" && [ "$p" != "$2" ]' - "$REC" "$pid1"
read -r until2 _ <"$REC"
[ "$until2" = "$until1" ] || fail "taken over, the hold ends at $until2, not at the first's $until1"
bg=$first
bg_status_is 5
untouched
mkfw "$D/late.bin" "here now"
wait "$second"
second=
read -r s2 <"$T/bg2.st"
[ "$s2" = 0 ] || fail "the second agent: status $s2: $(cat "$T/bg2.out")"
file_is "$REQ/data" "here now"

# HOLD's end: cancelled, not before HOLD seconds, one line.
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" HOLD=2
: >"$LOGF"
request never.bin
t0=$(date +%s)
run agent firmware
t1=$(date +%s)
status_is 1
file_is "$REQ/loading" -1
[ $((t1 - t0)) -ge 2 ] || fail "cancelled after $((t1 - t0)) s, before HOLD=2"
log_matches "fwload: cancelled never\.bin for $(ere "$TF/never.bin"); not found in .* \(held until HOLD's end, HOLD=2\)"
[ "$(grep -c cancelled "$LOGF")" = 1 ] || fail "cancelled lines: $(cat "$LOGF")"

# The kernel's timeout for the request is shorter than HOLD: held until
# 2 s before it; a timeout of 2 s or less leaves no hold at all.
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" HOLD=30
request short.bin
E_TIMEOUT=2
run agent firmware
status_is 1
file_is "$REQ/loading" -1
log_matches "fwload: cancelled short\.bin .*\(HOLD=30, but the kernel's timeout for it, 2 s, leaves no time to hold\)"

# Settled: cancelled at once, saying why.
mkdir -p "$RUN"
: >"$RUN/settled"
request late2.bin
run agent firmware
status_is 1
file_is "$REQ/loading" -1
log_matches "fwload: cancelled late2\.bin .*\(HOLD=30, but fwloadctl settle has run\)"
# and a held agent leaves when settle runs (settle's rescan answers it)
rm "$RUN/settled"
request late3.bin
hold_rec
agent_bg
until_true "the hold record" test -f "$REC"
: >"$RUN/settled"
bg_status_is 5
untouched
rm "$RUN/settled"

# SIGTERM to the held agent: the request is cancelled, saying so.
rm -f "$RUN/settled"
: >"$LOGF"
request term.bin
hold_rec
agent_bg
until_true "the hold record" test -f "$REC"
held term.bin  # (its SIGTERM trap is set by then)
read -r _ tpid _ <"$REC"
kill -TERM "$tpid"
bg_status_is 1
file_is "$REQ/loading" -1
log_matches "fwload: cancelled term\.bin .*\(stopped by a signal while held\)"

# A hold record left by an agent that died (SIGKILL), its end passed: a new
# agent takes its end over, so the request is cancelled at once, saying why.
rm -f "$D/late.bin"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" HOLD=30
request late.bin
hold_rec
uptime_s
printf '%s 999999 1 %s\n' "$((up - 5))" "$E_DEVPATH" >"$REC"
: >"$LOGF"
run agent firmware
status_is 1
file_is "$REQ/loading" -1
log_matches "fwload: cancelled late\.bin .*\(HOLD=30, taken over from an earlier hold that ended\)"
no_file "$REC" "the hold record after the cancel"

# A firmware-upload device is never held.
request flash.bin
: >"$REQ/remaining_size"
run agent firmware
status_is 6
untouched

# HOLD=0 (the default) and bad values: cancelled at once.
for v in 0 -1 x 86401; do
	conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "HOLD=$v"
	request late4.bin
	run agent firmware
	status_is 1
	file_is "$REQ/loading" -1 "loading with HOLD=$v"
done
grep -q "HOLD wants whole seconds, 0 to 86400, not 'x'" "$LOGF" || fail "no warning for HOLD=x: $(cat "$LOGF")"

# A hold decided from the configuration cache: the cache is checked before
# the hold (a stale one is read again: HOLD=2 now, not the cached 30) and
# once a second while it lasts (a new FIRMWARE_PATH is searched at once).
rm -rf "$RUN"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" HOLD=30
aged
mkfw "$D/prime.bin" x
request prime.bin
run agent firmware
status_is 0
[ -f "$RUN/conf.cache" ] || fail "no cache made"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" HOLD=2
request stale.bin
t0=$(date +%s)
run agent firmware
t1=$(date +%s)
status_is 1
[ $((t1 - t0)) -lt 15 ] || fail "held $((t1 - t0)) s: the stale cache's HOLD=30, not HOLD=2"
log_matches "fwload: cancelled stale\.bin .*\(held until HOLD's end, HOLD=2\)"

conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" HOLD=30
aged
request prime.bin
run agent firmware
status_is 0
request late5.bin
hold_rec
t0=$(date +%s)
agent_bg
until_true "the hold record" test -f "$REC"
mkfw "$R/other/late5.bin" "from the new path"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" HOLD=30 FIRMWARE_PATH=/other
bg_status_is 0
t1=$(date +%s)
[ $((t1 - t0)) -lt 15 ] || fail "served after $((t1 - t0)) s: the new FIRMWARE_PATH was not searched while held"
file_is "$REQ/data" "from the new path"
