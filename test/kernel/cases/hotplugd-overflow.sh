# SPDX-License-Identifier: MIT
# Nothing is lost in an overflow: hotplugd with a tiny receive buffer
# (-b 4096) and misc events too is stopped (SIGSTOP) while 200 misc uevents
# fill its buffer; then a firmware request is made, whose uevent has no room.
# Continued, hotplugd reads ENOBUFS, says so in the kernel log, rescans, and
# serves the request.
. ../lib.sh
. ./hotplugd-lib
cat >/run/hp-misc <<'END'
#!/bin/sh
[ "$1" = firmware ] && exec /sbin/hotplug "$@"
exit 0
END
chmod 755 /run/hp-misc
mkimage fwload-test-overflow.bin 6000
start_hotplugd -s misc -s firmware -b 4096 -x /run/hp-misc
kill -STOP "$HPID"
i=0
while [ $i -lt 200 ]; do
	echo change >"$TF/uevent"
	i=$((i + 1))
done
"$TRIGGER" "$TF/trigger_request" fwload-test-overflow.bin >/run/overflow.out &
t=$!
i=0
until [ -e "$TF/fwload-test-overflow.bin/loading" ] || [ $i -ge 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
kill -CONT "$HPID"
wait $t
read -r err ms </run/overflow.out
[ "$err" = 0 ] || fail "the request made during the overflow ended with errno $err after $ms ms"
cmp "$FW/fwload-test-overflow.bin" /dev/test_firmware || fail "wrong image"
kmsg 'hotplugd: receive buffer overflow: events were lost; rescanning pending firmware requests'
echo "ok: overflow reported, the lost request served by the rescan in $ms ms"
