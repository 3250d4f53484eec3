# SPDX-License-Identifier: MIT
# part: helper
# Calibration data on flash, as a board keeps it: block2mtd over a loop
# device makes an MTD partition named "art" (found by name in /proc/mtd),
# and busybox dd reads it back through its character device /dev/mtdN,
# whole and at an offset (0x1000, 0x844 bytes: where an ath9k/ath10k board
# keeps its calibration); fwload-extract, by the partition's name, reads
# the same bytes, and 0x844 bytes past the end fail (status 2, nothing
# written). The flash image is 256 KiB of random bytes made on
# the build host. Once per boot (lib.sh: mtd_add).
. ../lib.sh
img=/run/flash.img
cp "$FIXTURES/flash.img" "$img"
mtd_add art "$img"
read -r _ size erase _ <<EOT
$(grep "^$mtd:" /proc/mtd)
EOT
if [ "$size" != 00040000 ] || [ "$erase" != 00010000 ]; then
	fail "$mtd: size 0x$size, erase size 0x$erase; want 0x00040000, 0x00010000"
fi
echo "ok: $mtd \"art\" in /proc/mtd (size 0x$size, erase 0x$erase)"
dd if="/dev/$mtd" of=/run/art.all bs=65536 2>/dev/null || fail "dd from /dev/$mtd failed"
cmp "$img" /run/art.all || fail "/dev/$mtd differs from the flash image"
dd if="/dev/$mtd" of=/run/art.cal bs=1 skip=4096 count=2116 2>/dev/null || fail "dd at 0x1000 failed"
dd if="$img" of=/run/img.cal bs=1 skip=4096 count=2116 2>/dev/null
[ "$(wc -c </run/art.cal)" = 2116 ] || fail "read $(wc -c </run/art.cal) bytes at 0x1000, want 2116"
cmp /run/img.cal /run/art.cal || fail "0x844 bytes at 0x1000 differ"
echo "ok: /dev/$mtd read back with dd: 262144 bytes whole, 0x844 bytes at 0x1000, exact"
x=/lib/fwload/fwload-extract
"$x" mtd:art 0x1000 0x844 >/run/extract.cal || fail "$x mtd:art 0x1000 0x844: status $?"
cmp /run/img.cal /run/extract.cal || fail "$x: 0x844 bytes at 0x1000 differ"
"$x" mtd:art 0x3f800 0x844 >/run/extract.short 2>/run/extract.err
st=$?
{ [ "$st" = 2 ] && [ ! -s /run/extract.short ]; } ||
	fail "$x past the end: status $st, $(wc -c </run/extract.short) bytes written: $(cat /run/extract.err)"
grep -q "^fwload-extract: mtd:art: 2048 bytes at offset 260096 of /dev/$mtd, want 2116\$" /run/extract.err ||
	fail "$x past the end said: $(cat /run/extract.err)"
echo "ok: $x mtd:art 0x1000 0x844 exact; 0x844 bytes at 0x3f800: status 2, nothing written"

# The same bytes as a board serves them: a rule's extract= answers a
# request for calibration data through fwload's COMMAND slot (fwload
# DEVPATH - fwload-extract ...), nothing written to a firmware directory;
# 0x844 bytes past the end: the driver gets ENOENT, nothing committed.
cat >/etc/fwload.rules <<'RULES'
firmware=cal-art.bin extract=mtd:art,0x1000,0x844
firmware=cal-short.bin extract=mtd:art,0x3f800,0x844
RULES
request cal-art.bin /run/img.cal
kmsg "fwload: loaded cal-art\\.bin \\(2116 bytes, [0-9]+ ms\\) from standard input via /lib/fwload/fwload-extract for "
request_fails cal-short.bin 2
kmsg "fwload: cal-short\\.bin: .*fwload-extract.*2048 bytes at offset 260096 of /dev/$mtd, want 2116"
if [ -e "$FW/cal-art.bin" ] || [ -e /lib/firmware/cal-art.bin ]; then fail "extract= wrote a file"; fi
echo "ok: rule extract=mtd:art,0x1000,0x844 served 0x844 exact bytes through fwload; past the end: ENOENT"
