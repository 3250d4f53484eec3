# SPDX-License-Identifier: MIT
# fwload-extract's sources on a fake board (PROCFS, SYSFS and DEVFS moved
# into the test's tree, regular files standing in for the device nodes):
# mtd:NAME by /sys/class/mtd/*/name (exactly: "art" is not "art-backup"
# nor "my art"), ubi:VOLUME by /sys/class/ubi/*/name, each name whole (a
# name with a newline in it is not two names: "data\nart" is not "art"),
# and part:PARTNAME by the PARTNAME= line of /sys/class/block/*/uevent,
# each read through DEVFS/ENTRY. A name that is not there, or that two devices
# carry (a second disk with a partition of the same name), is "no such
# source" (1): the data is never taken from a device that only might be
# the right one.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=extract-lib
. "$REPO/test/unit/extract-lib"

board
slice "$ART" 20480 2116 >"$T/want"
extract_is "$T/want" mtd:art 0x5000 0x844
extract_is "$T/want" mtd:my\ art 0x5000 0x844
extract_is "$T/want" ubi:caldata 0x5000 0x844
extract_is "$T/want" part:0:ART 0x5000 0x844
slice "$ART" 4096 16 >"$T/want"
extract_is "$T/want" mtd:art-backup 0 16
# The U-Boot environment, as it is.
extract_is "$T/dev/mtd1" mtd:u-boot-env 0 "$(wc -c <"$T/dev/mtd1")"

# Not there: 1, one line naming what was looked at.
extract_fails 1 "fwload-extract: mtd:ar: no MTD partition of that name in $(ere "$SYS/class/mtd")" mtd:ar 0 1
extract_fails 1 "fwload-extract: mtd:ART: no MTD partition of that name in .*" mtd:ART 0 1
extract_fails 1 "fwload-extract: mtd:\"art\": no MTD partition of that name in .*" 'mtd:"art"' 0 1
extract_fails 1 "fwload-extract: ubi:caldat: no UBI volume of that name in $(ere "$SYS/class/ubi")" ubi:caldat 0 1
extract_fails 1 "fwload-extract: ubi:mtd_num: no UBI volume of that name in .*" ubi:mtd_num 0 1
extract_fails 1 "fwload-extract: part:0:art: no partition of that name in $(ere "$SYS/class/block")" part:0:art 0 1
extract_fails 1 "fwload-extract: part:mmcblk0p2: no partition of that name in .*" part:mmcblk0p2 0 1
# Named, but its device node is missing.
rm "$T/dev/ubi0_1"
extract_fails 1 "fwload-extract: ubi:caldata: cannot open $(ere "$T/dev/ubi0_1"): errno [0-9]+ \\(ENOENT\\)" ubi:caldata 0 1

# Two of a name: refused, whichever would have been right.
mkdir -p "$SYS/class/mtd/mtd5"
echo art >"$SYS/class/mtd/mtd5/name"
cp "$ART" "$T/dev/mtd5"
extract_fails 1 "fwload-extract: mtd:art: 2 MTD partitions in .* have that name; refused" mtd:art 0 1
rm -r "$SYS/class/mtd/mtd5"

# A name with a newline in it is one name (before: each of its lines
# matched, and "data\nart" gave its volume's data for ubi:art).
mkdir -p "$SYS/class/ubi/ubi0_2" "$SYS/class/mtd/mtd6"
printf 'data\nrootfs\n' >"$SYS/class/ubi/ubi0_2/name"
printf 'data\nu-boot\n' >"$SYS/class/mtd/mtd6/name"
slice "$ART" 0 16 >"$T/dev/ubi0_2"
cp "$T/dev/ubi0_2" "$T/dev/mtd6"
extract ubi:rootfs 0 1
status_is 2  # rootfs itself (ubi0_0, empty): too short, not ubi0_2's bytes
stderr_matches "fwload-extract: ubi:rootfs: 0 bytes at offset 0 of $(ere "$T/dev/ubi0_0"), want 1"
extract ubi:data 0 1
status_is 1
extract mtd:u-boot 0 1
status_is 2
stderr_matches "fwload-extract: mtd:u-boot: 0 bytes at offset 0 of $(ere "$T/dev/mtd0"), want 1"
slice "$ART" 0 16 >"$T/want"
extract_is "$T/want" "ubi:data
rootfs" 0 16
extract_is "$T/want" "mtd:data
u-boot" 0 16
rm -r "$SYS/class/ubi/ubi0_2" "$SYS/class/mtd/mtd6"
mkdir -p "$SYS/class/block/sda1"
printf 'MAJOR=8\nMINOR=1\nDEVNAME=sda1\nDEVTYPE=partition\nPARTN=1\nPARTNAME=0:ART\n' >"$SYS/class/block/sda1/uevent"
cp "$ART" "$T/dev/sda1"
extract_fails 1 "fwload-extract: part:0:ART: 2 partitions in .* have that name; refused" part:0:ART 0 1
mkdir -p "$SYS/class/ubi/ubi1_0"
echo rootfs >"$SYS/class/ubi/ubi1_0/name"
extract_fails 1 "fwload-extract: ubi:rootfs: 2 UBI volumes in .* have that name; refused" ubi:rootfs 0 1

# A kernel without MTD or UBI: no /sys/class/mtd, no /sys/class/ubi.
rm -r "$SYS/class/mtd" "$SYS/class/ubi"
extract_fails 1 "fwload-extract: mtd:art: cannot open $(ere "$SYS/class/mtd"): errno [0-9]+ \\(ENOENT\\)" mtd:art 0 1
extract_fails 1 "fwload-extract: ubi:caldata: cannot open $(ere "$SYS/class/ubi"): errno [0-9]+ \\(ENOENT\\)" ubi:caldata 0 1

# Without SYSFS and DEVFS: the system's own /sys and /dev
# (this test's names are not there).
run clean "$EXTRACT" mtd:fwload-test-none 0 1
status_is 1
grep -Eq '^fwload-extract: mtd:fwload-test-none: (no MTD partition of that name in|cannot open) /sys/class/mtd' "$T/stderr" ||
	fail "not /sys/class/mtd: $(cat "$T/stderr")"
run clean "$EXTRACT" part:fwload-test-none 0 1
status_is 1
grep -q '^fwload-extract: part:fwload-test-none: no partition of that name in /sys/class/block$' "$T/stderr" ||
	fail "not /sys/class/block: $(cat "$T/stderr")"
:
