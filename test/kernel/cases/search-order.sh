# SPDX-License-Identifier: MIT
# The agent searches in the kernel's order -- firmware_class.path, then
# updates/RELEASE, updates, RELEASE, /lib/firmware -- then FIRMWARE_PATH.
# The directories sit under FIRMWARE_ROOT=/stage, where the kernel's own
# loader cannot see them; each one is removed after it has been served.
. ../lib.sh
name=fwload-test-order.bin
conf FIRMWARE_ROOT=/stage FIRMWARE_PATH=/extra LOG=kmsg
printf /custom >/sys/module/firmware_class/parameters/path
dirs="/custom /lib/firmware/updates/$REL /lib/firmware/updates /lib/firmware/$REL /lib/firmware /extra"
for d in $dirs; do
	mkdir -p "/stage$d"
	printf 'image from %s\n' "$d" >"/stage$d/$name"
done
for d in $dirs; do
	trigger trigger_request "$name"
	[ "$err" = 0 ] || fail "request failed with errno $err while $d was first"
	cmp "/stage$d/$name" /dev/test_firmware || fail "want the image from $d, got: $(cat /dev/test_firmware)"
	echo "ok: served from $d"
	rm "/stage$d/$name"
done
request_fails "$name" 2
