# SPDX-License-Identifier: MIT
# hotplugd's socket filter, run by the kernel (test/hotplugd-filter attaches
# it to an AF_UNIX socket pair) on uevents laid out as the kernel lays them
# out: the wanted subsystem passes, others are dropped, firmware events other
# than add are dropped, and what the filter cannot decide (a header longer
# than its scan, a layout it does not know) passes to user space.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
F=$REPO/test/hotplugd-filter
[ -x "$F" ] || fail "$F is missing: make check-fast builds it"

# ev ACTION DEVPATH SUBSYSTEM [MORE]: one uevent, '|' for each NUL.
ev() {
	echo "$1@$2|ACTION=$1|DEVPATH=$2|SUBSYSTEM=$3|${4:-SEQNUM=7|}"
}
# dev N: a DEVPATH of exactly N bytes.
dev() {
	printf '/devices/%s' "$(printf "%$(($1 - 9))s" '' | tr ' ' x)"
}

# Every header length from 20 to 60 bytes (each byte position of the NUL
# within a word), firmware add passes, remove and misc are dropped.
: >"$T/in"
: >"$T/want"
n=10
while [ $n -le 50 ]; do
	d=$(dev $n)
	{ ev add "$d" firmware; ev remove "$d" firmware; ev change "$d" misc; ev add "$d" firmwarex; ev add "$d" firm; } >>"$T/in"
	printf '%s\n' pass drop drop drop drop >>"$T/want"
	n=$((n + 1))
done
# A layout the filter does not know: SUBSYSTEM is not the third variable.
echo "add@/devices/x|ACTION=add|DEVPATH=/devices/x|EXTRA=1|SUBSYSTEM=misc|" >>"$T/in"
echo pass >>"$T/want"
# Cut off inside "SUBSYSTEM=": too short to decide. Cut off inside the
# value: too short to be firmware.
echo "add@/devices/y|ACTION=add|DEVPATH=/devices/y|SUBSYS" >>"$T/in"
echo "add@/devices/y|ACTION=add|DEVPATH=/devices/y|SUBSYSTEM=firmwar" >>"$T/in"
printf '%s\n' pass drop >>"$T/want"
run "$F" <"$T/in"
status_is 0
scan=$(head -n 1 "$T/stdout")
case $scan in
"scan "[1-9]*) scan=${scan#scan } ;;
*) fail "no filter attached: $scan" ;;
esac
tail -n +2 "$T/stdout" >"$T/got"
diff "$T/want" "$T/got" >"$T/diff" || fail "filter verdicts differ (want, got): $(cat "$T/diff")"

# Headers up to the scan's reach are decided; past it, everything passes.
d=$(dev $((scan - 8)))  # "change@" + DEVPATH + NUL ends inside the scan
d2=$(dev $((scan + 40)))
{ ev change "$d" misc; ev add "$d" firmware; ev change "$d2" misc; ev remove "$d2" firmware; } >"$T/in"
run "$F" <"$T/in"
printf '%s\n' "scan $scan" drop pass pass pass >"$T/want"
diff "$T/want" "$T/stdout" >"$T/diff" || fail "at the scan's edge ($scan bytes): $(cat "$T/diff")"

# Several subsystems: any of them passes; ACTION matters for firmware only.
{ ev change /devices/a misc; ev remove /devices/a misc; ev add /devices/b block; ev add /devices/c net; ev remove /devices/d firmware; } >"$T/in"
run "$F" -s misc -s block -s firmware <"$T/in"
printf '%s\n' "scan $scan" pass pass pass drop drop >"$T/want"
diff "$T/want" "$T/stdout" >"$T/diff" || fail "-s misc -s block -s firmware: $(cat "$T/diff")"

# -s all: no filter at all.
run "$F" -s all <"$T/in"
printf '%s\n' "scan 0" pass pass pass pass pass >"$T/want"
diff "$T/want" "$T/stdout" >"$T/diff" || fail "-s all: $(cat "$T/diff")"
