# SPDX-License-Identifier: MIT
# A board rule by device-tree compatible: qemu's virt machine has a real
# device tree whose compatible is "linux,dummy-virt"; a rule for it picks a
# per-board directory, a rule for another board does not apply, and
# "fwloadctl explain" names the rule that applied.
. ../lib.sh
compat=$(tr '\0' ' ' </sys/firmware/devicetree/base/compatible)
[ "$compat" = "linux,dummy-virt " ] || fail "compatible is '$compat', want linux,dummy-virt"
mkimage cal.bin 2000
mkimage cal.bin 3000 /opt/boards/acme
mkimage cal.bin 4000 /opt/boards/virt
cat >/etc/fwload.rules <<'RULES'
compatible=acme,widget firmware=cal.bin dir=/opt/boards/acme
compatible=linux,dummy-virt firmware=cal.bin dir=/opt/boards/virt
RULES
request cal.bin /opt/boards/virt/cal.bin
kmsg "fwload: loaded cal\\.bin \\(4000 bytes, [0-9]+ ms\\) from /opt/boards/virt/cal\\.bin for "
fwloadctl explain cal.bin >/run/explain.out 2>&1
grep -q 'fwload\.rules:2' /run/explain.out || fail "fwloadctl explain does not name rule 2: $(cat /run/explain.out)"
echo "ok: compatible=linux,dummy-virt chose /opt/boards/virt; explain names /etc/fwload.rules:2"
