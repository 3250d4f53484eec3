# SPDX-License-Identifier: MIT
# SIGTERM: hotplugd reads and starts nothing more, waits for the children
# running (a load in progress is not orphaned), then exits 0. With -j 2, six
# pending requests and a PROGRAM that runs until the test lets it end:
# after SIGTERM hotplugd is still there while the first two run, exits 0
# when they have ended, and the other four never start. A child that never
# ends is waited for 5 s: then hotplugd exits 0 and logs that it still runs.
# shellcheck disable=SC2016 # wait_for takes sh code, expanded when it runs
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=hotplugd-lib
. "$REPO/test/unit/hotplugd-lib"

holdin
for n in 0 1 2 3 4 5; do
	pending "s$n.bin"
done
: >"$T/jobs"
hpd_start -x "$T/prog" -S "$SYS" -j 2
wait_for '[ "$(grep -c "^+" "$T/jobs")" -ge 2 ]' "the children did not start: $(cat "$T/hpd.err")"
kill -TERM "$HPID"
wait_for "grep -q '^hotplugd: stopped by signal 15' '$T/hpd.err'" "hotplugd did not take SIGTERM"
sleep 0.3
alive "$HPID" || fail "hotplugd did not wait for its running children: $(cat "$T/hpd.err")"
: >"$T/release"
wait "$HPJOB"
st=$?
HPID=
[ "$st" = 0 ] || fail "exit status $st after SIGTERM: $(cat "$T/hpd.err")"
[ "$(runs)" = 2 ] || fail "$(runs) runs finished when hotplugd exited, want 2"
[ "$(grep -c '^+' "$T/jobs")" = 2 ] || fail "a child started after SIGTERM: $(tr '\n' ' ' <"$T/jobs")"
grep -q 'still running' "$T/hpd.err" && fail "a finished child was reported running: $(cat "$T/hpd.err")"

# A child that never ends.
rm -rf "$SYS/class/firmware" "$SYS$TF" "$T/runs"/* "$T/release"
mkdir -p "$SYS$TF"
pending forever.bin
: >"$T/jobs"
hpd_start -x "$T/prog" -S "$SYS"
wait_for '[ "$(grep -c "^+" "$T/jobs")" -ge 1 ] && grep -q "^hotplugd: run " "$T/hpd.err"' \
	"the child did not start: $(cat "$T/hpd.err")"
child=$(sed -n "s/^hotplugd: run .* (pid \([0-9]*\))\$/\1/p" "$T/hpd.err")
# (the boot clock in hundredths of a second, before SIGTERM and after the
# exit: hotplugd's 5 s lie between, however late either is read)
read -r t0 _ </proc/uptime
kill -TERM "$HPID"
wait_for "grep -q '^hotplugd: stopped by signal 15' '$T/hpd.err'" "hotplugd did not take SIGTERM"
wait_for "! alive $HPID" "hotplugd did not exit after SIGTERM (it waits 5 s for a child)"
read -r t1 _ </proc/uptime
waited=$((${t1%.*}${t1#*.} - ${t0%.*}${t0#*.}))
[ "$waited" -ge 500 ] || fail "hotplugd exited $waited hundredths of a second after SIGTERM: it did not wait 5 s for its running child"
wait "$HPJOB"
st=$?
HPID=
[ "$st" = 0 ] || fail "exit status $st after SIGTERM: $(cat "$T/hpd.err")"
grep -qx "hotplugd: exiting with $T/prog for add $TF/forever.bin (pid $child) still running: it finishes on its own" \
	"$T/hpd.err" || fail "no line for the child still running: $(cat "$T/hpd.err")"
alive "$child" || fail "the child ($child) was not left to finish"
: >"$T/release"
wait_for "! alive $child" "the child ($child) did not end"
