# SPDX-License-Identifier: MIT
# The rules actions on the real kernel, through the whole chain (uevent,
# hotplug, firmware.agent, fwload; no file written to any firmware
# directory): extract= from a file and from a real MTD partition (block2mtd
# over a loop device, label "cal"), exact; the ath10k MAC patch (the
# address from the partition's first bytes, plus 1, the checksum at 0x2
# updated); a short extract aborted (the driver gets an error, never a cut
# image); run= (FIRMWARE and DEVPATH in its environment) as root and as
# a user of its own (user=, uid and gid from /etc/passwd, no supplementary
# groups; not nobody: every process of a uid can ptrace the program); a
# failing program aborted; a user= that does not exist refused.
. ../lib.sh
b2m=/sys/module/block2mtd/parameters/block2mtd
[ -e "$b2m" ] || fail "no $b2m: the kernel has no CONFIG_MTD_BLOCK2MTD"

# 64 KiB, random, the address 00:03:7f:12:34:ff at 0x0, ath10k-like data
# at 0x5000: its length 0x0844, the checksum word bb f7, zeros.
img=/run/cal.img
head -c 65536 /dev/urandom >"$img" || fail "cannot make $img"
printf '\000\003\177\022\064\377' | dd of="$img" conv=notrunc 2>/dev/null || fail "dd"
{ printf '\104\010\273\367'; head -c 2112 /dev/zero; } |
	dd of="$img" bs=1 seek=20480 conv=notrunc 2>/dev/null || fail "dd"
cp "$img" /run/cal-file.img
dd if="$img" of=/run/cal.want bs=1 skip=20480 count=2116 2>/dev/null || fail "dd"
{ printf '\104\010\361\346\000\000\000\003\177\022\065\000'; head -c 2104 /dev/zero; } >/run/cal.patched

loop=$(losetup -f) || fail "no free loop device"
losetup "$loop" "$img" || fail "losetup $loop $img"
cleanup() {
	losetup -d "$loop" 2>/dev/null
	runas_user_undo
}
trap cleanup EXIT
printf '%s' "$loop,65536,cal" >"$b2m" || fail "block2mtd did not take $loop"
mtd=$(sed -n 's/^\(mtd[0-9]*\): 00010000 00010000 "cal"$/\1/p' /proc/mtd)
[ -n "$mtd" ] || fail "no cal partition in /proc/mtd: $(cat /proc/mtd)"
echo "ok: $loop as $mtd \"cal\""

# The programs (in /tmp: the user must reach them).
cat >/tmp/fwload-act.sh <<'PROG'
#!/bin/sh
printf '%s|%s|%s\n' "$FIRMWARE" "$DEVPATH" "$(id -u):$(id -g):$(id -G)"
PROG
printf '#!/bin/sh\necho partial\necho "no calibration here" >&2\nexit 3\n' >/tmp/fwload-fails.sh
chmod 755 /tmp/fwload-act.sh /tmp/fwload-fails.sh
runas_user
ids=$RUNAS_ID:$RUNAS_ID:$RUNAS_ID

cat >/etc/fwload.rules <<'RULES'
firmware=fwload-test-act-file.bin extract=/run/cal-file.img,0x5000,0x844
firmware=fwload-test-act-mtd.bin extract=mtd:cal,0x5000,0x844
firmware=fwload-test-act-mac.bin extract=mtd:cal,0x5000,0x844 valid=4408 mac-binary=mtd:cal,0x0 macaddr-add=1 ath10k-patch-mac
firmware=fwload-test-act-short.bin extract=mtd:cal,0xf800,0x844
firmware=fwload-test-act-run.bin run=/tmp/fwload-act.sh
firmware=fwload-test-act-user.bin run=/tmp/fwload-act.sh user=_fwload-test
firmware=fwload-test-act-ghost.bin run=/tmp/fwload-act.sh user=fwload-no-such-user
firmware=fwload-test-act-fails.bin run=/tmp/fwload-fails.sh
RULES

# got NAME WANTFILE: NAME requested, the driver has exactly WANTFILE.
got() {
	trigger trigger_request "$1"
	[ "$err" = 0 ] || fail "$1: errno $err after $ms ms"
	cmp "$2" /dev/test_firmware || fail "$1: the driver got other bytes"
	echo "ok: $1 ($(wc -c <"$2") bytes) loaded in $ms ms"
}
got fwload-test-act-file.bin /run/cal.want
got fwload-test-act-mtd.bin /run/cal.want
got fwload-test-act-mac.bin /run/cal.patched
request_fails fwload-test-act-short.bin 2
kmsg "fwload: fwload-test-act-short\\.bin: /lib/fwload/fwload-extract failed \\(exit status 2\\) on standard input: fwload-extract: mtd:cal: 2048 bytes at offset 63488 of /dev/$mtd, want 2116; request aborted"
dev=/devices/virtual/misc/test_firmware
printf '%s\n' "fwload-test-act-run.bin|$dev/fwload-test-act-run.bin|0:0:0" >/run/act.want
got fwload-test-act-run.bin /run/act.want
printf '%s\n' "fwload-test-act-user.bin|$dev/fwload-test-act-user.bin|$ids" >/run/act.want
got fwload-test-act-user.bin /run/act.want
request_fails fwload-test-act-ghost.bin 2
kmsg "fwload: cancelled fwload-test-act-ghost\\.bin for .*; user=fwload-no-such-user: no such user in /etc/passwd; rule /etc/fwload\\.rules:7 refused"
request_fails fwload-test-act-fails.bin 2
kmsg "fwload: fwload-test-act-fails\\.bin: /lib/fwload/fwload-keep failed \\(exit status 3\\) on standard input: no calibration here; request aborted; run= /tmp/fwload-fails\\.sh "
for n in file mtd mac short run user ghost fails; do
	for d in /lib/firmware /run/fw; do
		[ ! -e "$d/fwload-test-act-$n.bin" ] || fail "$d/fwload-test-act-$n.bin was written"
	done
done
