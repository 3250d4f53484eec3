# SPDX-License-Identifier: MIT
# 12 events (pending requests found by the rescan) with -j 3 and a PROGRAM
# that takes 0.4 s: exactly 3 run at once (concurrently, and never more),
# all 12 run, and each child is reaped (no zombie left).
# shellcheck disable=SC2016 # wait_for takes sh code, expanded when it runs
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=hotplugd-lib
. "$REPO/test/unit/hotplugd-lib"

standin 0.4
i=0
while [ $i -lt 12 ]; do
	pending "f$i.bin"
	i=$((i + 1))
done
: >"$T/jobs"
hpd_start -x "$T/prog" -S "$SYS" -j 3
wait_for '[ "$(runs)" -ge 12 ]' "only $(runs) of 12 runs; hotplugd: $(cat "$T/hpd.err")"
wait_for '[ "$(grep -c "exit status 0" "$T/hpd.err")" -ge 12 ]' "hotplugd did not see 12 children end: $(cat "$T/hpd.err")"
[ "$(grep -c '^hotplugd: run ' "$T/hpd.err")" = 12 ] || fail "want 12 runs: $(cat "$T/hpd.err")"
z=$(zombies "$HPID")
[ -z "$z" ] || fail "zombie children of hotplugd: $z"
# the most children running at once, from the +/- log
max=$(awk '$1 == "+" { n++ } $1 == "-" { n-- } n > m { m = n } END { print m }' "$T/jobs")
[ "$max" = 3 ] || fail "$max children ran at once, want 3 (-j 3); log: $(tr '\n' ' ' <"$T/jobs")"
hpd_stop TERM

# -j 1: one at a time.
rm -f "$T"/runs/*
: >"$T/jobs"
standin 0.1
hpd_start -x "$T/prog" -S "$SYS" -j1
wait_for '[ "$(runs)" -ge 12 ]' "-j1: only $(runs) of 12 runs"
max=$(awk '$1 == "+" { n++ } $1 == "-" { n-- } n > m { m = n } END { print m }' "$T/jobs")
[ "$max" = 1 ] || fail "-j1: $max children ran at once"
hpd_stop TERM

