# SPDX-License-Identifier: MIT
# 64 concurrent requests for 64 different images (test/kernel/driver), three
# rounds, while 1,000 non-firmware uevents go through /sbin/hotplug: every
# request must end with exactly its own image (size and CRC32 as the driver
# saw them) and none may time out. The timeout is set to 480 s so a request
# left unanswered would fail the round instead of passing late.
. ../lib.sh
ST=/sys/devices/virtual/misc/fwload_stress
[ -e "$ST/trigger" ] || fail "the fwload_stress driver is missing from the test kernel"
echo 480 >/sys/class/firmware/timeout
n=64
i=0
while [ $i -lt $n ]; do
	mkimage "fwload-test-stress-$i.bin" $((1 + i * 16411))
	i=$((i + 1))
done
# What the driver must report: "INDEX SIZE CRC32", CRC32 from gzip's trailer.
i=0
while [ $i -lt $n ]; do
	f=$FW/fwload-test-stress-$i.bin
	crc=$(gzip -c <"$f" | tail -c 8 | od -An -tx4 -N4 | tr -d ' ')
	echo "$i $(wc -c <"$f" | tr -d ' ') $crc"
	i=$((i + 1))
done >/run/stress.want

mkdir -p /etc/hotplug.d/misc
printf '#!/bin/sh\nprintf x >>/run/storm.count\n' >/etc/hotplug.d/misc/10-count.hotplug
chmod +x /etc/hotplug.d/misc/10-count.hotplug
: >/run/storm.count
(
	i=0
	while [ $i -lt 1000 ]; do
		echo change >"$TF/uevent"
		i=$((i + 1))
	done
) &
storm=$!

for round in 1 2 3; do
	trigger_at "$ST/trigger" "$n fwload-test-stress"
	[ "$err" = 0 ] || fail "round $round: trigger failed with errno $err"
	diff /run/stress.want "$ST/results" || fail "round $round: results differ (size -1 = failed request)"
	echo "ok: round $round, $n concurrent requests, all served in $ms ms"
done
wait $storm
i=0
while [ "$(wc -c </run/storm.count)" -lt 1000 ] && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
rm /etc/hotplug.d/misc/10-count.hotplug
count=$(wc -c </run/storm.count)
[ "$count" -eq 1000 ] || fail "the multiplexer ran the misc hook $count times for 1000 events"
echo "ok: 1000 non-firmware uevents all went through /sbin/hotplug meanwhile"
