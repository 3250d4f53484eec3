# SPDX-License-Identifier: MIT
# A hold is timed on the boot clock (PROCFS/uptime: CLOCK_BOOTTIME, the
# same across switch_root), never on the wall clock:
#   - a wall clock stepped decades ahead while a request is held (NTP or
#     hwclock on a board without an RTC; here a date first on PATH) neither
#     shortens nor ends the hold: the file that appears after is served;
#   - a record made before (in an initramfs, whose wall clock said 1970)
#     keeps its end when an agent takes the hold over: held until then;
#   - no boot clock that can be read ends the hold (cancelled, one line),
#     at its start and while it lasts.
# The held agent's searches are counted through a fwload-stamp that logs
# its calls (it checks the cache once a second while it holds).
# shellcheck disable=SC2016 # sh -c's own expansions
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
D=$R/lib/firmware
mkdir -p "$D" "$T/fakebin"
echo 6.12.0-test >"$T/proc/sys/kernel/osrelease"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" HOLD=30
for date in /bin/date /usr/bin/date; do
	[ -x "$date" ] && break
done
cat >"$T/fakebin/date" <<END
#!/bin/sh
[ -e "$T/stepped" ] && [ "\$*" = +%s ] && { echo 4000000000; exit 0; }
exec "$date" "\$@"
END
own_libexec
rm "$LIBEXEC/fwload-stamp"
cat >"$LIBEXEC/fwload-stamp" <<END
#!/bin/sh
echo "\$*" >>"$T/calls"
exec "$HELPERS/fwload-stamp" "\$@"
END
chmod 755 "$T/fakebin/date" "$LIBEXEC/fwload-stamp"
KPATH=$T/fakebin:$KPATH
checks() {
	grep -c '^-K ' "$T/calls" 2>/dev/null || :
}

# A cache, for the checks to count.
aged
mkfw "$D/prime.bin" x
request prime.bin
run agent firmware
status_is 0
[ -f "$RUN/conf.cache" ] || fail "no cache made"

# The wall clock stepped while held: the hold goes on, the file is served.
request step.bin
hold_rec
agent_bg
until_true "the hold record" test -f "$REC"
: >"$T/stepped"
[ "$("$T/fakebin/date" +%s)" = 4000000000 ] || fail "the stand-in date does not step"
n0=$(checks)
until_true "two more checks of the held agent" sh -c '[ "$(grep -c "^-K " "$1")" -ge $(($2 + 2)) ]' - "$T/calls" "$n0"
file_is "$REQ/loading" "" "the held request after the wall clock stepped"
mkfw "$D/step.bin" "after the step"
bg_status_is 0
file_is "$REQ/data" "after the step"
rm "$T/stepped"

# A record made before (an initramfs's agent, gone), its end 3 s ahead on
# the boot clock: the agent that takes it over holds until then (not for
# HOLD=30), the wall clock stepped meanwhile or not.
: >"$T/stepped"
request late.bin
hold_rec
uptime_s
mkdir -p "$RUN/held"
printf '%s 999999 1 %s\n' "$((up + 3))" "$E_DEVPATH" >"$REC"
: >"$LOGF"
agent_bg
until_true "the taking over agent's record" sh -c 'read -r u p _ <"$1" && [ "$p" != 999999 ]' - "$REC"
read -r until2 _ <"$REC"
assert_eq "the end, taken over" "$((up + 3))" "$until2"
bg_status_is 1
uptime_s
[ "$up" -lt "$((until2 + 10))" ] || fail "held until $up on the boot clock, the record's end was $until2"
file_is "$REQ/loading" -1
log_matches "fwload: late\.bin held for $(ere "$E_DEVPATH"): not found in .*; waiting up to [0-3] s for it \(HOLD=30\)"
log_matches "fwload: cancelled late\.bin .*\(held until HOLD's end, HOLD=30\)"
rm "$T/stepped"

# No boot clock: no hold (cancelled at once, saying why); one that goes
# while a request is held ends the hold.
rm "$T/proc/uptime"
request noclock.bin
: >"$LOGF"
run agent firmware
status_is 1
file_is "$REQ/loading" -1
log_matches "fwload: cancelled noclock\.bin .*\(HOLD=30, but no boot clock to time it \($(ere "$T/proc/uptime") cannot be read\)\)"
ln -s /proc/uptime "$T/proc/uptime"
request gone.bin
hold_rec
: >"$LOGF"
agent_bg
until_true "the hold record" test -f "$REC"
rm "$T/proc/uptime"
bg_status_is 1
file_is "$REQ/loading" -1
log_matches "fwload: cancelled gone\.bin .*\(held, but the boot clock \($(ere "$T/proc/uptime")\) can no longer be read\)"
[ "$(grep -c cancelled "$LOGF")" = 1 ] || fail "cancelled lines: $(cat "$LOGF")"
