# SPDX-License-Identifier: MIT
# A compressed image: NAME.xz in FIRMWARE_PATH, decompressed by busybox's
# xz on its way to the driver (COMPRESSED=yes), 1,000,003 bytes exact; a
# truncated .xz is aborted (ENOENT), never a short image. Then the kernel's
# own loader (CONFIG_FW_LOADER_COMPRESS_XZ) with NAME.xz in /lib/firmware:
# with a CRC32 check it decompresses the file itself and no helper is asked;
# with xz's default check (CRC64), which the kernel's decompressor refuses,
# the direct load fails with EINVAL, the kernel falls back to user space,
# and fwload serves the same file decompressed.
. ../lib.sh
conf FIRMWARE_PATH=$FW LOG=kmsg COMPRESSED=yes
cp "$FIXTURES/image.xz" "$FW/xz.bin.xz"
request xz.bin "$FIXTURES/image"
kmsg "fwload: loaded xz\\.bin \\(1000003 bytes, [0-9]+ ms\\) from $FW/xz\\.bin\\.xz via [^ ]*xz"

head -c 500000 "$FIXTURES/image.xz" >"$FW/cut.bin.xz"
request_fails cut.bin 2
kmsg "fwload: cut\\.bin: [^ ]*xz failed"

mkdir -p /lib/firmware
cp "$FIXTURES/image.xz" /lib/firmware/direct-xz.bin.xz
request direct-xz.bin "$FIXTURES/image"
rm -f /lib/firmware/direct-xz.bin.xz
asked='sysfs fallback for: direct-xz\.bin|fwload: .*direct-xz\.bin'
if dmesg | grep -Eq "$asked"; then
	fail "direct-xz.bin: the kernel asked user space: $(dmesg | grep -E "$asked")"
fi
echo "ok: the kernel's own loader read /lib/firmware/direct-xz.bin.xz (CRC32), no fallback"

cp "$FIXTURES/image-crc64.xz" /lib/firmware/crc64.bin.xz
request crc64.bin "$FIXTURES/image"
rm -f /lib/firmware/crc64.bin.xz
kmsg "Direct firmware load for crc64\\.bin failed with error -22"
kmsg "fwload: loaded crc64\\.bin \\(1000003 bytes, [0-9]+ ms\\) from /lib/firmware/crc64\\.bin\\.xz via [^ ]*xz"
echo "ok: a CRC64 .xz: the kernel's loader refused it (EINVAL), the fallback served it"
