# SPDX-License-Identifier: MIT
# A child past its deadline is stopped and logged, and its job slot freed:
# with -j 1, a hook that never ends (and ignores SIGTERM) gets SIGTERM at
# its deadline, SIGKILL 2 s later, with the processes it started (its
# process group), and then the next request is served. The deadline is -T
# for a request whose TIMEOUT is 0 (the kernel waits for ever), and the
# request's TIMEOUT plus 5 s otherwise.
# shellcheck disable=SC2016 # wait_for takes sh code, expanded when it runs
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=hotplugd-lib
. "$REPO/test/unit/hotplugd-lib"

# PROGRAM: the first run (whichever request) gets stuck: it ignores
# SIGTERM, starts a sleeper of its own and loops; any other run records
# its FIRMWARE. The sleeper is a script in this test's directory.
printf '#!/bin/sh\nwhile :; do sleep 1; done\n' >"$T/sleeper"
chmod 755 "$T/sleeper"
cat >"$T/prog" <<END
#!/bin/sh
if mkdir "$T/stuck" 2>/dev/null; then
	trap '' TERM
	echo \$\$ >"$T/stuck/pid"
	"$T/sleeper" &
	while :; do sleep 0.1; done
fi
echo "\$FIRMWARE" >>"$T/served"
END
chmod 755 "$T/prog"
sleeper() {
	pgrep -f "$T/sleeper" >/dev/null
}

pending one.bin
printf 'FIRMWARE=one.bin\nTIMEOUT=0\nASYNC=1\n' >"$REQ/uevent"
pending two.bin
printf 'FIRMWARE=two.bin\nTIMEOUT=0\nASYNC=1\n' >"$REQ/uevent"
hpd_start -x "$T/prog" -S "$SYS" -j 1 -T 1
wait_for '[ -s "$T/stuck/pid" ] && sleeper' "the first run did not start: $(cat "$T/hpd.err")"
read -r stuck <"$T/stuck/pid"
wait_for '[ -s "$T/served" ]' "the second request was never served: $(cat "$T/hpd.err")" 20
hpd_stop TERM
grep -Eq "^hotplugd: $T/prog for add $TF/(one|two)\\.bin \\(pid $stuck\\) past its deadline of 1 s: stopped \\(SIGTERM\\)\$" \
	"$T/hpd.err" || fail "no SIGTERM line: $(cat "$T/hpd.err")"
grep -Eq "^hotplugd: $T/prog for add $TF/(one|two)\\.bin \\(pid $stuck\\) past its deadline of 1 s: killed \\(SIGKILL\\), its job slot freed\$" \
	"$T/hpd.err" || fail "no SIGKILL line: $(cat "$T/hpd.err")"
! alive "$stuck" || fail "the stuck run ($stuck) still runs"
! sleeper || fail "the stuck run's own child still runs: the process group was not killed"
[ "$(wc -l <"$T/served")" = 1 ] || fail "served: $(cat "$T/served")"

# A request with a timeout: TIMEOUT + 5 s.
rm -rf "$T/stuck" "$T/served" "$SYS/class/firmware" "$SYS$TF"
mkdir -p "$SYS$TF"
pending three.bin
printf 'FIRMWARE=three.bin\nTIMEOUT=1\nASYNC=1\n' >"$REQ/uevent"
hpd_start -x "$T/prog" -S "$SYS" -j 1 -T 100
wait_for '[ -s "$T/stuck/pid" ]' "the run did not start: $(cat "$T/hpd.err")"
read -r stuck <"$T/stuck/pid"
wait_for "grep -q 'killed (SIGKILL)' '$T/hpd.err'" "the run was not killed: $(cat "$T/hpd.err")" 20
hpd_stop TERM
grep -q "^hotplugd: $T/prog for add $TF/three.bin (pid $stuck) past its deadline of 6 s: stopped (SIGTERM)\$" \
	"$T/hpd.err" || fail "no SIGTERM line at TIMEOUT + 5 s: $(cat "$T/hpd.err")"
wait_for "! alive $stuck" "the stuck run ($stuck) still runs"
