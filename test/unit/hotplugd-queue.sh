# SPDX-License-Identifier: MIT
# Far more pending requests than job slots (100, -j 8): the rescan starts
# what has a slot, stops, and reads on in the same open directory as
# slots come free, so each of the 100 requests runs exactly once -- none
# left out, none run again (here the requests stay pending after PROGRAM
# ran: a rescan starting over would run them for ever).
# shellcheck disable=SC2016 # wait_for takes sh code, expanded when it runs
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=hotplugd-lib
. "$REPO/test/unit/hotplugd-lib"

standin 0
i=0
while [ $i -lt 100 ]; do
	pending "q$i.bin"
	i=$((i + 1))
done
hpd_start -x "$T/prog" -S "$SYS" -j 8
wait_for '[ "$(runs)" -ge 100 ]' "only $(runs) of 100 runs"
sleep 1
hpd_stop TERM
[ "$(runs)" = 100 ] || fail "$(runs) runs for 100 pending requests"
grep -h '^DEVPATH=' "$T"/runs/* | sort -u >"$T/devs"
[ "$(wc -l <"$T/devs")" = 100 ] || fail "$(wc -l <"$T/devs") different requests ran, want 100"

# The same with requests answered as they run (their directories go, as a
# real request's does): the rescan reads on where it was, not after a
# count of entries, which the answered ones would shift (36 requests were
# then never run).
rm -rf "$SYS/class/firmware" "$SYS$TF" "$T/answered"
mkdir -p "$SYS$TF"
cat >"$T/answer" <<END
#!/bin/sh
rm -rf "$SYS\$DEVPATH" "$SYS/class/firmware/\${DEVPATH##*/}"
echo "\$DEVPATH" >>"$T/answered"
END
chmod 755 "$T/answer"
i=0
while [ $i -lt 100 ]; do
	pending "a$i.bin"
	i=$((i + 1))
done
hpd_start -x "$T/answer" -S "$SYS" -j 8
wait_for '[ -f "$T/answered" ] && [ "$(wc -l <"$T/answered")" -ge 100 ]' \
	"fewer than 100 of 100 pending requests answered"
sleep 1
hpd_stop TERM
[ "$(sort -u "$T/answered" | wc -l)" = 100 ] || fail "$(sort -u "$T/answered" | wc -l) different requests answered, want 100"
[ "$(wc -l <"$T/answered")" = 100 ] || fail "$(wc -l <"$T/answered") runs for 100 requests"
