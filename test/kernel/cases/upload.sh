# SPDX-License-Identifier: MIT
# A firmware-upload device (CONFIG_FW_UPLOAD; test_firmware's
# upload_register) sends an add uevent with SUBSYSTEM=firmware and
# FIRMWARE=NAME, and has loading and data: writing 1, data, 0 starts a
# flash. With a file of that name in a searched directory, the chain runs
# (hotplug, agent, fwload) and nothing is written to it: no image
# (upload_read stays empty) and no cancel (status stays idle, error empty).
# Before, the agent loaded the file into it: a flash nobody asked for.
. ../lib.sh
[ -e "$TF/upload_register" ] || { echo "SKIP: no upload_register (CONFIG_FW_UPLOAD off)"; exit 77; }
name=fwload-test-upload.bin
head -c 100 /dev/urandom >"$FW/$name"
mkdir -p /etc/hotplug.d/firmware
# shellcheck disable=SC2016 # the hook's own script
printf '#!/bin/sh\necho "$ACTION $FIRMWARE" >>/run/probe\n' >/etc/hotplug.d/firmware/99-probe.hotplug
chmod 755 /etc/hotplug.d/firmware/99-probe.hotplug
rm -f /run/probe
trap 'printf %s "$name" >"$TF/upload_unregister"; rm -f /etc/hotplug.d/firmware/99-probe.hotplug' EXIT

echo /sbin/hotplug >/proc/sys/kernel/hotplug
printf %s "$name" >"$TF/upload_register" || fail "upload_register"
i=0
until grep -q "^add $name\$" /run/probe 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 500 ] || fail "the upload device's add uevent did not run the chain"
	sleep 0.01
done
d=/sys/class/firmware/$name
[ -e "$d/remaining_size" ] || fail "no $d/remaining_size: not an upload device?"
sleep 0.5  # anything written would have started the update by now
read -r status <"$d/status"
[ "$status" = idle ] || fail "the upload device's status is '$status', want idle"
[ -z "$(cat "$d/error")" ] || fail "the upload device has an error: $(cat "$d/error")"
printf %s "$name" >"$TF/config_upload_name" || fail "config_upload_name"
got=$(wc -c <"$TF/upload_read")
[ "$got" = 0 ] || fail "upload_read gives $got bytes: the file was flashed"
dmesg | grep -E "fwload: (loaded|cancelled) $name" && fail "fwload answered the upload device"
# By hand: fwload says what it is, and leaves it alone.
dev=$(cd -P "$d" && pwd) || fail "cannot resolve $d"
dev=${dev#/sys}
/sbin/fwload -l kmsg "$dev" "$FW/$name" 2>/run/u.err
st=$?
[ "$st" = 6 ] || fail "fwload on the upload device exited $st, want 6: $(cat /run/u.err)"
/sbin/fwload -l kmsg -c "$dev" 2>/run/u.err
st=$?
[ "$st" = 6 ] || fail "fwload -c on the upload device exited $st, want 6: $(cat /run/u.err)"
read -r status <"$d/status"
[ "$status" = idle ] || fail "status after fwload by hand: '$status'"
echo "ok: the upload device got nothing, not even a cancel (status idle, upload_read empty)"
