# SPDX-License-Identifier: MIT
# A held request never keeps a job slot: hotplugd gives a firmware event's
# child FWLOAD_HOLD_DETACH=1, and an agent that would hold leaves the
# request to an agent of its own in the background (status 8) and ends,
# as under fwloadctl rescan. With -j 5 and 16 missing names held (HOLD=60,
# four devices with four names each: at most 8 a device are held), a
# request whose file
# is there from the start is served, and all 16 are held at once, each by
# an agent outside hotplugd's slots (in a slot each, at most 5 were held,
# the other requests waiting for HOLD to end). Counts, not times: the
# bound below is a hang guard.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=hotplugd-lib
. "$REPO/test/unit/hotplugd-lib"

R=$T/root
D=$R/lib/firmware
mkdir -p "$D"
echo 6.12.0-test >"$T/proc/sys/kernel/osrelease"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" HOLD=60
# PROGRAM: the agent, with the fake tree's settings (hotplugd passes the
# event's variables and FWLOAD_HOLD_DETACH only).
cat >"$T/prog" <<END
#!/bin/sh
export SYSFS='$SYS' FWLOAD_CONF='$CONF' FWLOAD='$FWLOAD' FWLOAD_LIBEXEC='$REPO' FWLOAD_RUNDIR='$RUN' PROCFS='$T/proc'
exec $TEST_SH '$REPO/firmware.agent' "\$@"
END
chmod 755 "$T/prog"
recs=
i=1
while [ "$i" -le 16 ]; do
	pending "missing-$i.bin" "/devices/virtual/misc/dev$((i % 4))/missing-$i.bin"
	hold_rec
	recs="$recs $REC"
	i=$((i + 1))
done
mkimage "$D/present.bin" 3000
pending present.bin
present=$REQ

hpd_start -x "$T/prog" -S "$SYS" -j 5
# shellcheck disable=SC2016 # wait_for takes sh code
wait_for 'grep -qx 10 "$present/loading"' "present.bin was not served: $(cat "$LOGF") $(cat "$T/hpd.err")" 20
REQ=$present data_is "$D/present.bin"
held=0
for r in $recs; do
	# shellcheck disable=SC2016
	wait_for '[ -s "$r" ]' "$(basename "$r"): not held ($held held): $(cat "$T/hpd.err")" 20
	read -r _ pid _ <"$r"
	kill -0 "$pid" || fail "the agent holding $r is gone"
	held=$((held + 1))
done
assert_eq "requests held at once" 16 "$held"
i=1
while [ "$i" -le 16 ]; do
	file_is "$SYS/devices/virtual/misc/dev$((i % 4))/missing-$i.bin/loading" "" "missing-$i.bin (held)"
	i=$((i + 1))
done
# Each held agent's job ended at once (status 8): no slot is kept.
# shellcheck disable=SC2016
wait_for '[ "$(grep -c ": exit status 8$" "$T/hpd.err")" = 16 ]' "jobs ended with 8: $(grep -c ': exit status 8$' "$T/hpd.err"): $(cat "$T/hpd.err")"
# Settle's marker ends the holds (each agent leaves at its next search).
: >"$RUN/settled"
for r in $recs; do
	# shellcheck disable=SC2016
	wait_for '[ ! -e "$r" ]' "$(basename "$r") still held after settle"
done
hpd_stop TERM
