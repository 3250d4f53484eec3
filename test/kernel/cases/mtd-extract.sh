# SPDX-License-Identifier: MIT
# fwload-extract on a real MTD partition: a file of known bytes behind a
# loop device, block2mtd over it with the label "art" (the test kernel has
# CONFIG_MTD, CONFIG_MTD_BLOCK2MTD and CONFIG_BLK_DEV_LOOP; MTD needs
# HAS_IOMEM, which UML gets from CONFIG_VIRTIO_UML and
# CONFIG_UML_PCI_OVER_VIRTIO), so that /proc/mtd names it and /dev/mtdN is
# its character device. Custom-fallback requests (no uevent: only we
# answer) are answered by hand, as the agent will:
#   fwload DEVPATH - /lib/fwload/fwload-extract mtd:art 0x5000 0x844 ...
# The driver gets exactly the bytes at 0x5000, then the same with the
# ath10k MAC patch (its address from the partition's first bytes, plus 1,
# and the checksum at 0x2 updated), then the same behind fwload-sha256; a
# short extract (past the partition's end) is aborted: the driver gets an
# error, never a cut image, and the kernel log has fwload-extract's reason.
# Where strace is at hand (the dash root), the partition's ECC statistics
# are seen read before and after the data.
# (A read through the loop device makes the kernel start a kblockd worker,
# kworker/0:1H, about 5 s later: hotplugd-storm leaves kernel threads out
# of its count of forks.)
. ../lib.sh
X=/lib/fwload/fwload-extract
b2m=/sys/module/block2mtd/parameters/block2mtd
[ -x "$X" ] || fail "$X is not installed"
[ -e "$b2m" ] || fail "no $b2m: the kernel has no CONFIG_MTD_BLOCK2MTD"

# The partition: 64 KiB (one erase block), random, except the address at
# 0x0 (00:03:7f:12:34:ff) and ath10k-like calibration data at 0x5000:
# its length 0x0844 (44 08), the checksum word bb f7 (the XOR of all its
# 16-bit words is then ffff), zeros.
img=/run/art.img
head -c 65536 /dev/urandom >"$img" || fail "cannot make $img"
printf '\000\003\177\022\064\377' | dd of="$img" conv=notrunc 2>/dev/null || fail "dd"
{ printf '\104\010\273\367'; head -c 2112 /dev/zero; } |
	dd of="$img" bs=1 seek=20480 conv=notrunc 2>/dev/null || fail "dd"
[ "$(wc -c <"$img")" = 65536 ] || fail "$img is not 64 KiB"

loop=$(losetup -f) || fail "no free loop device"
losetup "$loop" "$img" || fail "losetup $loop $img"
trap 'losetup -d "$loop" 2>/dev/null' EXIT
printf '%s' "$loop,65536,art" >"$b2m" || fail "block2mtd did not take $loop"
mtd=$(sed -n 's/^\(mtd[0-9]*\): 00010000 00010000 "art"$/\1/p' /proc/mtd)
[ -n "$mtd" ] || fail "no art partition in /proc/mtd: $(cat /proc/mtd)"
[ -c "/dev/$mtd" ] || fail "/dev/$mtd is not a character device"
echo "ok: $loop as $mtd \"art\" ($(cat "/sys/class/mtd/$mtd/type" 2>/dev/null))"

# answer NAME ARG...: a custom-fallback request for NAME answered by fwload
# with ARG... as its COMMAND; sets $st (fwload's status), $err and $ms.
answer() {
	name=$1
	shift
	custom_request "$name"
	/sbin/fwload -l kmsg "$dev" - "$@" </dev/null
	st=$?
	custom_result
}

# Plain: the bytes at 0x5000, through the character device.
dd if="$img" of=/run/cal.want bs=1 skip=20480 count=2116 2>/dev/null || fail "dd"
answer fwload-test-extract-plain.bin "$X" mtd:art 0x5000 0x844
{ [ "$st" = 0 ] && [ "$err" = 0 ]; } || fail "plain: fwload status $st, errno $err"
cmp /run/cal.want /dev/test_firmware || fail "plain: the driver got other bytes"
echo "ok: mtd:art 0x5000 0x844 loaded (2116 bytes) in $ms ms"

# The OpenWrt ath10k lines: the address 00:03:7f:12:34:ff + 1 =
# 00:03:7f:12:35:00 at 0x6, the checksum bb f7 becomes f1 e6 (XOR 00 7f 35,
# 03 12 00: the words' XOR stays ffff).
{ printf '\104\010\361\346\000\000\000\003\177\022\065\000'; head -c 2104 /dev/zero; } >/run/cal.patched
answer fwload-test-extract-mac.bin "$X" mtd:art 0x5000 0x844 --valid 4408 \
	--mac-binary mtd:art,0x0 --macaddr-add 1 --ath10k-patch-mac
{ [ "$st" = 0 ] && [ "$err" = 0 ]; } || fail "patched: fwload status $st, errno $err"
cmp /run/cal.patched /dev/test_firmware || fail "patched: the driver got other bytes"
echo "ok: the ath10k patch loaded in $ms ms"

# Behind fwload-sha256: the digest of the patched data.
sum=$(sha256sum </run/cal.patched)
answer fwload-test-extract-sha.bin /lib/fwload/fwload-sha256 "${sum%% *}" "$X" mtd:art 0x5000 0x844 \
	--mac-binary mtd:art,0x0 --macaddr-add 1 --ath10k-patch-mac
{ [ "$st" = 0 ] && [ "$err" = 0 ]; } || fail "behind fwload-sha256: fwload status $st, errno $err"
cmp /run/cal.patched /dev/test_firmware || fail "behind fwload-sha256: the driver got other bytes"
echo "ok: behind fwload-sha256, loaded in $ms ms"

# Short: 0x844 bytes at 0xf800 of a 0x10000-byte partition.
answer fwload-test-extract-short.bin "$X" mtd:art 0xf800 0x844
[ "$st" = 2 ] || fail "short: fwload status $st, want 2 (aborted)"
[ "$err" != 0 ] || fail "short: the driver got an image"
kmsg "fwload: fwload-test-extract-short.bin: $X failed \\(exit status 2\\) on standard input: fwload-extract: mtd:art: 2048 bytes at offset 63488 of /dev/$mtd, want 2116; request aborted"
echo "ok: a short extract aborted (errno $err)"

# The ECC statistics of the real partition are read before and after
# (block2mtd has no ECC: both all zeros), where strace is at hand (strace
# names the request "MIXER_READ(18) or ECCGETSTATS": the same number).
if command -v strace >/dev/null 2>&1; then
	strace -o /run/extract.strace -e trace=ioctl "$X" mtd:art 0x5000 0x844 >/run/cal.out ||
		fail "fwload-extract under strace: status $?"
	cmp /run/cal.want /run/cal.out || fail "under strace: other bytes"
	n=$(grep -c 'ECCGETSTATS, {corrected=0, failed=0, badblocks=0, bbtblocks=0}) = 0$' /run/extract.strace)
	[ "$n" = 2 ] || fail "ECCGETSTATS $n times, want 2: $(cat /run/extract.strace)"
	echo "ok: ECCGETSTATS before and after the read"
fi
