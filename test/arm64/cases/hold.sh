# SPDX-License-Identifier: MIT
# HOLD= on the board: a request whose file is not there yet is held (the
# driver waits), and served exact once the file is copied into
# FIRMWARE_PATH, with the uevent helper and with hotplugd alike; the time
# from the copy to the answer is printed.
. ../lib.sh
conf FIRMWARE_PATH=/opt/fw LOG=kmsg HOLD=30
echo 90 >/sys/class/firmware/timeout
name=late-$PART.bin
head -c 100000 /dev/urandom >/tmp/late.src
fwtrigger "$TF/trigger_request" "$name" >/tmp/hold.out &
tp=$!
# The hold record: /run/fwload/held/KEY, KEY the request's identity.
i=0 key=
until [ -n "$key" ] && [ -s "/run/fwload/held/$key" ]; do
	i=$((i + 1))
	[ "$i" -le 100 ] || fail "$name: not held after 10 s"
	sleep 0.1
	key=$(/lib/fwload/fwload-pending -k "/devices/virtual/misc/test_firmware/$name" 2>/dev/null)
done
sleep 1
[ -e "/sys/class/firmware/$name/loading" ] || fail "$name is no longer pending"
read -r u0 _ </proc/uptime
cp /tmp/late.src "$FW/$name"
wait "$tp"
read -r u1 _ </proc/uptime
read -r err ms </tmp/hold.out
echo 60 >/sys/class/firmware/timeout
[ "$err" = 0 ] || fail "$name: errno $err after $ms ms"
cmp "$FW/$name" /dev/test_firmware || fail "$name: the driver got a different image"
echo "ok: $name held, served $(( (${u1%.*}${u1#*.} - ${u0%.*}${u0#*.}) * 10 )) ms after the copy ($PART)"
