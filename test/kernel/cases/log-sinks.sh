# SPDX-License-Identifier: MIT
# No log sink can hold a request: fwload answers first, then logs, and
# opens its sinks so that they cannot block.
#  1. -l /FILE that is a FIFO nobody reads (an open for writing would wait
#     for ever): the driver gets ENOENT at once and fwload exits 2;
#  2. -l syslog with /dev/log a datagram socket whose queue is full (a
#     syslog daemon that stopped reading): the same (needs python3 to make
#     the socket: the host-tools root only);
#  3. a kmsg line longer than the kernel takes (976 bytes with the "<N>"
#     and the newline) is cut and marked "...", not lost.
# Before, failures were logged before "-1": the request waited out its
# timeout, and fwload never ended.
. ../lib.sh
# sink_case NAME LOG: a helper answers the request for NAME (a missing file)
# with -l LOG; the driver must get ENOENT within 5 s.
sink_case() {
	cat >/run/sink-helper <<HELPER
#!/bin/sh
exec </dev/null >/dev/null 2>/run/sink.err
[ "\$1" = firmware ] && [ "\$ACTION" = add ] || exit 0
/sbin/fwload -l $2 "\$DEVPATH" /run/fw/nonexistent
echo \$? >/run/sink.status
HELPER
	chmod +x /run/sink-helper
	rm -f /run/sink.status
	echo 30 >/sys/class/firmware/timeout
	echo /run/sink-helper >/proc/sys/kernel/hotplug
	trigger trigger_request "$1"
	echo /sbin/hotplug >/proc/sys/kernel/hotplug
	echo 60 >/sys/class/firmware/timeout
	[ "$err" = 2 ] || fail "-l $2: errno $err after $ms ms, want 2 (ENOENT)"
	[ "${ms%%.*}" -lt 5000 ] || fail "-l $2: the answer took $ms ms"
	i=0
	until [ -s /run/sink.status ] || [ $i -ge 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	read -r st </run/sink.status || fail "-l $2: fwload did not finish"
	[ "$st" = 2 ] || fail "-l $2: fwload exited $st, want 2: $(cat /run/sink.err)"
	echo "ok: -l $2: answered in $ms ms, fwload exited 2"
}

rm -f /run/log.fifo
mkfifo /run/log.fifo
sink_case fwload-test-sink-fifo.bin /run/log.fifo

if command -v python3 >/dev/null 2>&1; then
	rm -f /dev/log /run/log.full
	python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind("/dev/log")
c = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
c.setblocking(False)
try:
    while True:
        c.sendto(b"x" * 200, "/dev/log")
except BlockingIOError:
    pass
open("/run/log.full", "w").close()
time.sleep(60)
' &
	sock=$!
	i=0
	until [ -e /run/log.full ]; do
		i=$((i + 1))
		[ $i -lt 500 ] || fail "could not fill /dev/log"
		sleep 0.01
	done
	sink_case fwload-test-sink-syslog.bin syslog
	kill "$sock"
	wait "$sock" 2>/dev/null
	rm -f /dev/log
else
	echo "note: no python3 in this root: the full /dev/log part is not run here"
fi

long=$(head -c 1500 /dev/zero | tr '\0' L)
/lib/fwload/fwload-log -l kmsg "fwload-test-long $long" || fail "fwload-log"
line=$(dmesg | grep -o 'fwload: fwload-test-long L*\.\.\.$' | tail -n 1)
[ -n "$line" ] || fail "the long line is not in the kernel log: $(dmesg | grep fwload-test-long | cut -c1-100)"
[ ${#line} = 972 ] || fail "the long line has ${#line} bytes after the level, want 972"
echo "ok: a 1500-byte message became a 976-byte kmsg record ending in ..."
