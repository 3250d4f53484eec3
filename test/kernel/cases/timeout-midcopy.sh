# SPDX-License-Identifier: MIT
# The request times out in the middle of a load: the kernel tears the
# request down, fwload's next write to data fails (ENODEV), and fwload
# reports the request gone (exit 111; one line to stderr and the kernel log) instead of committing. The driver sees the
# timeout (ETIMEDOUT, 110). A helper of our own feeds fwload a stream that
# stalls after 64 KiB, longer than the 2 s timeout (fwload's own limit on a
# silent stream, -t, is 30 s here, so that the kernel's comes first).
# Then the other way round: the kernel waits 60 s, fwload gives the silent
# stream 1 s and aborts: the driver gets ENOENT (2) at once.
. ../lib.sh
mkimage fwload-test-slow.bin 200000
cat >/run/slow-helper <<'HELPER'
#!/bin/sh
exec </dev/null >/dev/null 2>/run/slow.err
[ "$1" = firmware ] && [ "$ACTION" = add ] || exit 0
{ head -c 65536 "/run/fw/$FIRMWARE"; sleep 4; cat "/run/fw/$FIRMWARE"; } |
	/sbin/fwload -l kmsg -t "$(cat /run/slow.t)" "$DEVPATH" -
echo $? >/run/slow.status
HELPER
chmod +x /run/slow-helper

# slow FWLOAD_T KERNEL_TIMEOUT WANT_ERRNO WANT_STATUS: one request through
# the helper; the driver must see WANT_ERRNO, and fwload exit WANT_STATUS.
slow() {
	rm -f /run/slow.status
	echo "$1" >/run/slow.t
	echo /run/slow-helper >/proc/sys/kernel/hotplug
	echo "$2" >/sys/class/firmware/timeout
	trigger trigger_request fwload-test-slow.bin
	echo /sbin/hotplug >/proc/sys/kernel/hotplug
	[ "$err" = "$3" ] || fail "fwload -t $1, timeout $2: want errno $3, got $err after $ms ms"
	i=0
	until [ -s /run/slow.status ] || [ $i -ge 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	read -r status </run/slow.status || fail "fwload did not finish"
	[ "$status" = "$4" ] || fail "fwload exited $status, want $4: $(cat /run/slow.err)"
}

slow 30 2 110 111
grep -q 'cannot write /sys/devices/virtual/misc/test_firmware/fwload-test-slow.bin/data: errno 19 (ENODEV); the request is gone' /run/slow.err ||
	fail "unexpected message: $(cat /run/slow.err)"
kmsg "fwload: fwload-test-slow.bin: .*/data: errno 19 \(ENODEV\); the request is gone"
echo "ok: timed out mid-copy after $ms ms; fwload: $(cat /run/slow.err)"

slow 1 60 2 2
kmsg "fwload: fwload-test-slow.bin: nothing for 1 s from standard input; request aborted"
echo "ok: a stream silent for fwload's 1 s: aborted after $ms ms"
