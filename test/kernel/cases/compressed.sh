# SPDX-License-Identifier: MIT
# Compressed images, found as NAME.xz / NAME.zst and decompressed by the
# system's own programs on the way to the driver: exact, 1,000,003 bytes.
# The .xz works in both roots (xz-utils on the host, busybox's xz in the
# busybox root); a .zst without zstd is skipped and said, and the request
# cancelled (ENOENT, 2). A corrupt archive ends in -1 (ENOENT), never in a
# truncated image. /fixtures: made by guest-init with the host's tools.
. ../lib.sh
conf FIRMWARE_PATH=/run/fw LOG=kmsg COMPRESSED=yes
cp /fixtures/image.xz "$FW/fwload-test-xz.bin.xz"
trigger trigger_request fwload-test-xz.bin
[ "$err" = 0 ] || fail ".xz: errno $err after $ms ms"
cmp /fixtures/image /dev/test_firmware || fail ".xz: the driver got a different image"
kmsg "fwload: loaded fwload-test-xz.bin \(1000003 bytes, [0-9]+ ms\) from $FW/fwload-test-xz.bin.xz via [^ ]*xz for /devices/virtual/misc/test_firmware/fwload-test-xz.bin"
echo "ok: .xz loaded in $ms ms"

cp /fixtures/image.zst "$FW/fwload-test-zst.bin.zst"
if command -v zstd >/dev/null; then
	trigger trigger_request fwload-test-zst.bin
	[ "$err" = 0 ] || fail ".zst: errno $err after $ms ms"
	cmp /fixtures/image /dev/test_firmware || fail ".zst: the driver got a different image"
	kmsg "fwload: loaded fwload-test-zst.bin \(1000003 bytes, [0-9]+ ms\) from $FW/fwload-test-zst.bin.zst via [^ ]*zstd for "
	echo "ok: .zst loaded in $ms ms"
else
	request_fails fwload-test-zst.bin 2
	kmsg "fwload: cancelled fwload-test-zst.bin for .*; not found in .*; skipped $FW/fwload-test-zst.bin.zst \(no zstd to decompress it\)"
fi

# Truncated: the decompressor fails after writing part of the image.
head -c 500000 /fixtures/image.xz >"$FW/fwload-test-cut.bin.xz"
request_fails fwload-test-cut.bin 2
kmsg "fwload: fwload-test-cut.bin: [^ ]*xz failed \(exit status [0-9]+\) on $FW/fwload-test-cut.bin.xz(: .*)?; request aborted"
