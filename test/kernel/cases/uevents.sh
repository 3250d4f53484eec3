# SPDX-License-Identifier: MIT
# Non-firmware uevents pass through /sbin/hotplug harmlessly: the hooks of
# their subsystem and the default hooks run, the firmware agent does not,
# and a firmware request right after is still served. Firmware "remove"
# events reach the hooks too and change nothing.
. ../lib.sh
mkdir -p /etc/hotplug.d/misc /etc/hotplug.d/default
cat >/etc/hotplug.d/default/10-record.hotplug <<'HOOK'
#!/bin/sh
echo "default $1 $ACTION $DEVPATH" >>/run/events
HOOK
cat >/etc/hotplug.d/misc/10-record.hotplug <<'HOOK'
#!/bin/sh
echo "misc $1 $ACTION $DEVPATH" >>/run/events
HOOK
chmod +x /etc/hotplug.d/default/10-record.hotplug /etc/hotplug.d/misc/10-record.hotplug
: >/run/events
i=0
while [ $i -lt 20 ]; do
	echo change >"$TF/uevent"
	i=$((i + 1))
done
mkimage fwload-test-uevents.bin 7000
request fwload-test-uevents.bin
sleep 1  # the remove event of the request runs after the request ends
rm /etc/hotplug.d/default/10-record.hotplug /etc/hotplug.d/misc/10-record.hotplug
n=$(grep -c '^misc misc change /devices/virtual/misc/test_firmware$' /run/events)
[ "$n" = 20 ] || fail "misc hook saw $n of 20 change events"
n=$(grep -c '^default misc change /devices/virtual/misc/test_firmware$' /run/events)
[ "$n" = 20 ] || fail "default hook saw $n of 20 change events"
grep -q '^default firmware add /devices/virtual/misc/test_firmware/fwload-test-uevents.bin$' /run/events ||
	fail "default hook did not see the firmware add event"
grep -q '^default firmware remove /devices/virtual/misc/test_firmware/fwload-test-uevents.bin$' /run/events ||
	fail "default hook did not see the firmware remove event"
! grep -q '^misc firmware' /run/events || fail "misc hook ran for a firmware event"
echo "ok: 20 misc events, firmware add and remove seen by the right hooks"
