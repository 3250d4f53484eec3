# SPDX-License-Identifier: MIT
# hotplugd with -j 4 under the stress driver: 64 concurrent requests for 64
# different images, three rounds. Every request ends with exactly its own
# image; exactly 4 children run at once at the most (the bound is reached
# and never passed); one child per request (192, firmware "remove" events
# dropped by the filter); no zombie left.
. ../lib.sh
. ./hotplugd-lib
ST=/sys/devices/virtual/misc/fwload_stress
[ -e "$ST/trigger" ] || fail "the fwload_stress driver is missing from the test kernel"
echo 480 >/sys/class/firmware/timeout
n=64
i=0
while [ $i -lt $n ]; do
	mkimage "fwload-test-hpstress-$i.bin" $((1 + i * 16411))
	f=$FW/fwload-test-hpstress-$i.bin
	crc=$(gzip -c <"$f" | tail -c 8 | od -An -tx4 -N4 | tr -d ' ')
	echo "$i $(wc -c <"$f" | tr -d ' ') $crc"
	i=$((i + 1))
done >/run/hpstress.want

# PROGRAM: /sbin/hotplug, with a "+" and a "-" line around each run.
cat >/run/hp-wrap <<'END'
#!/bin/sh
echo "+ $FIRMWARE" >>/run/hp-jobs
/sbin/hotplug "$@"
echo "- $FIRMWARE" >>/run/hp-jobs
END
chmod 755 /run/hp-wrap
: >/run/hp-jobs
start_hotplugd -j 4 -x /run/hp-wrap
for round in 1 2 3; do
	trigger_at "$ST/trigger" "$n fwload-test-hpstress"
	[ "$err" = 0 ] || fail "round $round: trigger failed with errno $err"
	diff /run/hpstress.want "$ST/results" || fail "round $round: results differ (size -1 = failed request)"
	echo "ok: round $round, $n concurrent requests, all served in $ms ms"
done
i=0
while [ "$(grep -c '^-' /run/hp-jobs)" -lt 192 ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
starts=$(grep -c '^+' /run/hp-jobs)
[ "$starts" = 192 ] || fail "$starts runs for 192 requests"
max=$(awk '$1 == "+" { n++ } $1 == "-" { n-- } n > m { m = n } END { print m }' /run/hp-jobs)
[ "$max" = 4 ] || fail "$max children at once, want 4 (-j 4)"
z=$(zombies)
[ -z "$z" ] || fail "zombie children of hotplugd: $z"
echo "ok: 192 runs, at most $max at once, no zombie"
