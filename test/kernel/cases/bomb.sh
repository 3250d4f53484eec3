# SPDX-License-Identifier: MIT
# Limits on a stream, on the real kernel:
#  1. a decompression bomb: a 290 KB .xz (1024 copies of one xz stream of
#     1 MiB of zeros) that expands to 1 GiB, twice the guest's memory, fed
#     to fwload -S 1M through xz -dc: fwload stops at 1 MiB, writes "-1",
#     the driver gets ENOENT, and the guest keeps running (the next request
#     loads). Before, nothing bounded a stream: the kernel's page buffer
#     grew until the OOM killer came.
#  2. a custom-fallback request (no uevent, no kernel timeout) answered from
#     a stream that trickles for ever: -T 2 ends it, the driver gets its
#     error (ENODEV, as trigger_custom_fallback reports failures).
. ../lib.sh
xz=
for x in /usr/bin/xz /bin/xz; do
	[ -x "$x" ] && xz=$x && break
done
[ -n "$xz" ] || fail "no xz in this root"
# xz -9e of 1 MiB of zeros, 284 bytes.
base64 -d >/run/z1.xz <<'B64' || fail "base64"
/Td6WFoAAATm1rRGAgAhARwAAAAQz1jM7///ANldAABv/f//o7f/Rz5IFXI5YVG4kijmo4YH+e7k
HoLTL8U6PAFLsX7JiopNL6MN2X+m44wjEVPgWRjFdYrid/i2lH8MasDedElk4ulcU7IE2PdEDKtf
DW1G6eXDdoi3llestk3haR1v+0uIEGxCy4g/XACP0E6vJiiUcR89jyThcJ6nI1/sKMuF0ZWYin4q
kfIndfcZwAaYTZj92K/VkA/EJVP49ZE2MQWlsO5vwXBNRwzRkRGqrWAdus6xJxhcWYbpZlJYvul2
rFnk5VsFCPnH2q38+1Iq9+SVJQAAAAAAwva6PqJwa2AAAfUBgIBAAHmXf0exxGf7AgAAAAAEWVo=
B64
i=0
while [ $i -lt 1024 ]; do
	cat /run/z1.xz
	i=$((i + 1))
done >/run/bomb.xz
[ "$("$xz" -dc </run/z1.xz | wc -c)" = 1048576 ] || fail "the xz piece does not give 1 MiB"

cat >/run/bomb-helper <<HELPER
#!/bin/sh
exec </dev/null >/dev/null 2>/run/bomb.err
[ "\$1" = firmware ] && [ "\$ACTION" = add ] || exit 0
/sbin/fwload -l kmsg -S 1M "\$DEVPATH" /run/bomb.xz $xz -dc
echo \$? >/run/bomb.status
HELPER
chmod +x /run/bomb-helper
rm -f /run/bomb.status
echo /run/bomb-helper >/proc/sys/kernel/hotplug
trigger trigger_request fwload-test-bomb.bin
echo /sbin/hotplug >/proc/sys/kernel/hotplug
[ "$err" = 2 ] || fail "the bomb: errno $err after $ms ms, want 2 (ENOENT)"
i=0
until [ -s /run/bomb.status ] || [ $i -ge 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
read -r st </run/bomb.status || fail "fwload did not finish"
[ "$st" = 2 ] || fail "fwload exited $st, want 2: $(cat /run/bomb.err)"
kmsg "fwload: fwload-test-bomb.bin: more than 1048576 bytes from /run/bomb.xz via $xz; request aborted"
echo "ok: the bomb stopped at 1 MiB in $ms ms"
mkimage fwload-test-after-bomb.bin 100000
request fwload-test-after-bomb.bin

# 2. No kernel timeout, a stream that never ends: the deadline ends it.
custom_request fwload-test-trickle.bin
start=$(date +%s)
while :; do printf x || break; sleep 0.2; done 2>/dev/null |
	/sbin/fwload -l kmsg -T 2 "$dev" - 2>/run/trickle.err
st=$?
[ "$st" = 2 ] || fail "fwload exited $st, want 2: $(cat /run/trickle.err)"
custom_result
[ "$err" = 19 ] || fail "the custom fallback request: errno $err, want 19 (ENODEV)"
[ $(($(date +%s) - start)) -le 10 ] || fail "the deadline took too long"
grep -q "deadline of 2 s passed reading standard input; request aborted" /run/trickle.err ||
	fail "message: $(cat /run/trickle.err)"
echo "ok: a trickle with no kernel timeout ended at fwload's deadline (-T 2)"
