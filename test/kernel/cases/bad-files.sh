# SPDX-License-Identifier: MIT
# What sits at the firmware's path is not a usable file: a directory, a
# FIFO (must not hang anything), a device node, a dangling link. Each is
# skipped like the kernel does, and with nothing else found the request is
# cancelled at once (ENOENT); fwloadctl explain says what each one is. A link that ends outside
# every searched directory is not followed there: the request is aborted.
# A link that ends inside one is loaded.
. ../lib.sh
mkdir "$FW/fwload-test-dir.bin"
mkfifo "$FW/fwload-test-fifo.bin"
mknod "$FW/fwload-test-dev.bin" c 1 3
ln -s nowhere "$FW/fwload-test-dangling.bin"
for what in dir:'a directory' fifo:'not a regular file' dev:'not a regular file' dangling:'dangling symlink'; do
	name=fwload-test-${what%%:*}.bin
	request_fails "$name" 2
	kmsg "fwload: cancelled $name for .*; not found in .*"
	fwloadctl explain "$name" >/run/explain.out
	grep -qx "search:   $FW/$name: ${what#*:}, skipped" /run/explain.out || fail "explain $name: $(cat /run/explain.out)"
done

mkdir -p /run/secret
printf 'not firmware' >/run/secret/key
ln -s /run/secret/key "$FW/fwload-test-escape.bin"
request_fails fwload-test-escape.bin 2
kmsg "fwload: fwload-test-escape.bin: $FW/fwload-test-escape.bin resolves to /run/secret/key, outside the firmware directories; request aborted"

mkimage fwload-test-vendor2/real.bin 5000
ln -s fwload-test-vendor2/real.bin "$FW/fwload-test-link.bin"
trigger trigger_request fwload-test-link.bin
[ "$err" = 0 ] || fail "a link inside the firmware directory was not loaded (errno $err)"
cmp "$FW/fwload-test-vendor2/real.bin" /dev/test_firmware || fail "link: wrong image"
echo "ok: a link inside the firmware directories is followed"
