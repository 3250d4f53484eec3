# SPDX-License-Identifier: MIT
# The agent searches in the kernel's order, with a rule's dir= first and
# FIRMWARE_PATH last: dir=, firmware_class.path, updates/RELEASE, updates,
# RELEASE, /lib/firmware, FIRMWARE_PATH. The directories sit under
# FIRMWARE_ROOT=/stage, where the kernel's own loader (which searches the
# same list in this very root) cannot see them; each copy is removed once it
# has been served, so the next request must come from the next directory.
. ../lib.sh
name=order.bin
conf FIRMWARE_ROOT=/stage FIRMWARE_PATH=/extra LOG=kmsg
printf '%s\n' "compatible=linux,dummy-virt firmware=$name dir=/board" >/etc/fwload.rules
printf /custom >/sys/module/firmware_class/parameters/path
dirs="/board /custom /lib/firmware/updates/$REL /lib/firmware/updates /lib/firmware/$REL /lib/firmware /extra"
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
