# SPDX-License-Identifier: MIT
# Board rules on the real request path: a device-tree compatible string
# picks a per-board directory, a DEVPATH glob another file name. UML has no
# device tree: a tmpfs over /sys/firmware stands in for it, read as the
# agent reads a real one (NUL-separated compatible list).
. ../lib.sh
mount -t tmpfs dt /sys/firmware || fail "cannot mount a tmpfs on /sys/firmware"
trap 'umount /sys/firmware; rm -f /etc/fwload.rules' EXIT
mkdir -p /sys/firmware/devicetree/base
printf 'Acme Widget v2\0' >/sys/firmware/devicetree/base/model
printf 'acme,widget-v2\0acme,widget\0' >/sys/firmware/devicetree/base/compatible
mkimage fwload-test-cal.bin 2000
mkimage fwload-test-cal.bin 3000 /run/boards/v2
mkimage fwload-test-real.bin 4000
cat >/etc/fwload.rules <<'RULES'
compatible=acme,widget-v1 firmware=fwload-test-cal.bin dir=/run/boards/v1
compatible=acme,widget-v2 firmware=fwload-test-cal.bin dir=/run/boards/v2
devpath=/devices/virtual/misc/test_firmware/* firmware=fwload-test-alias.bin name=fwload-test-real.bin
RULES
trigger trigger_request fwload-test-cal.bin
[ "$err" = 0 ] || fail "cal: errno $err"
cmp /run/boards/v2/fwload-test-cal.bin /dev/test_firmware || fail "cal: not the board's file"
kmsg "fwload: loaded fwload-test-cal.bin \(3000 bytes, [0-9]+ ms\) from /run/boards/v2/fwload-test-cal.bin for "
echo "ok: compatible=acme,widget-v2 chose /run/boards/v2"
trigger trigger_request fwload-test-alias.bin
[ "$err" = 0 ] || fail "alias: errno $err"
cmp "$FW/fwload-test-real.bin" /dev/test_firmware || fail "alias: not the renamed file"
kmsg "fwload: loaded fwload-test-alias.bin \(4000 bytes, [0-9]+ ms\) from $FW/fwload-test-real.bin for "
echo "ok: devpath= renamed the request"
fwloadctl explain fwload-test-cal.bin >/run/explain.out
grep -qx "rule:     /etc/fwload.rules:2 applies: dir=/run/boards/v2" /run/explain.out ||
	fail "fwloadctl explain: $(cat /run/explain.out)"
