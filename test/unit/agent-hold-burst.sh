# SPDX-License-Identifier: MIT
# The limit of 64 holds is kept by a burst too: with 63 requests held (hold
# records whose agents run), four names not found whose agents start at
# the same moment each see 63 before any of them has written its record;
# once their records are there, the later ones count those ahead of them
# (start time, then pid) and cancel: one is held, three are cancelled,
# each with one line, and 64 requests are held in all (the count alone
# let all four hold: 67).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
mkdir -p "$R/lib/firmware" "$RUN/held"
echo 6.12.0-test >"$T/proc/sys/kernel/osrelease"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" HOLD=30
uptime_s
held_by_sleepers 0 63 /devices/x/held-%s

# Four requests, their agents started together, released at once.
for n in 1 2 3 4; do
	request "burst-$n.bin"
	(
		until [ -e "$T/go" ]; do sleep 0.01; done
		agent firmware >"$T/out.$n" 2>&1
		echo $? >"$T/st.$n"
	) &
done
: >"$T/go"
# done: $cancelled, how many of the four ended (cancelled).
done_() {
	cancelled=0
	for n in 1 2 3 4; do
		[ ! -s "$T/st.$n" ] || cancelled=$((cancelled + 1))
	done
	[ "$cancelled" -ge 3 ]
}
until_true "three of the four cancelled" done_
held='' nheld=0
for n in 1 2 3 4; do
	if [ -s "$T/st.$n" ]; then
		read -r s <"$T/st.$n"
		assert_eq "burst-$n.bin's agent" 1 "$s"
		file_is "$SYS$TF/burst-$n.bin/loading" -1 "burst-$n.bin's loading"
	else
		held="$held burst-$n.bin" nheld=$((nheld + 1))
	fi
done
assert_eq "held of the four ($held)" 1 "$nheld"
live=0
for f in "$RUN/held"/*; do
	read -r _ p _ <"$f" && [ -e "/proc/$p" ] && live=$((live + 1))
done
assert_eq "requests held" 64 "$live"
[ "$(grep -cE 'requests (are held already|held by agents that started before this one) \(at most 64\)' "$LOGF")" = 3 ] ||
	fail "not one line for each cancelled: $(cat "$LOGF")"
: >"$RUN/settled"
wait
