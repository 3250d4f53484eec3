# SPDX-License-Identifier: MIT
# shellcheck disable=SC2086 # $TEST_SH is a command line ("busybox sh")
# fwloadctl setup on a full run directory (a tiny tmpfs, root only: no free
# block, then no free inode): a full /run costs records, never answers.
# udev's rule that cancels every request is masked all the same (the mask
# is in udev's /run/udev; only its record for setup --undo is lost, said
# in one line), udevd reloads, the fallback is forced, and the request
# already pending is served. The control: a run directory with room keeps
# the record and says nothing of it. Before, setup refused ("cannot mask
# ... recorded in .../udev-masked", 111): udev went on cancelling, and
# under fwload.service nothing answered.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

[ "$(id -u)" = 0 ] || fail "this case mounts file systems: run it as root"
FULL=$T/full
mkdir -p "$FULL"
trap 'kill $standins 2>/dev/null; umount "$FULL" 2>/dev/null; rm -rf "$T"' EXIT
P=$T/proc
H=$P/sys/kernel/hotplug
F=$P/sys/kernel/firmware_config/force_sysfs_fallback
LIB=$UROOT/lib/udev/rules.d
MASK=$UROOT/run/udev/rules.d/50-firmware.rules
mkdir -p "${F%/*}" "$SYS/class/firmware" "$LIB" "$T/bin"
udevd_standin "$P"
printf '%s\n' 'SUBSYSTEM=="firmware", ACTION=="add", ATTR{loading}="-1"' >"$LIB/50-firmware.rules"
printf '#!/bin/sh\necho "$*" >>"%s"\n' "$T/udevadm-ran" >"$T/bin/udevadm"
chmod 755 "$T/bin/udevadm"
conf "LOG=$LOGF" "FIRMWARE_PATH=$T/fw"
mkimage "$T/fw/early.bin" 3000
RUN=$FULL

for full in room blocks inodes; do
	umount "$FULL" 2>/dev/null
	case $full in
	room) mount -t tmpfs -o size=64k,mode=700 fwload-full "$FULL" || fail "cannot mount a tmpfs" ;;
	blocks)
		mount -t tmpfs -o size=4k,mode=700 fwload-full "$FULL" || fail "cannot mount a tiny tmpfs"
		head -c 1048576 /dev/zero >"$FULL/filler" 2>/dev/null
		printf x 2>/dev/null >"$FULL/more" && [ -s "$FULL/more" ] && fail "the tiny tmpfs is not full"
		rm -f "$FULL/more"
		;;
	inodes)
		mount -t tmpfs -o size=64k,nr_inodes=8,mode=700 fwload-full "$FULL" || fail "cannot mount a tiny tmpfs"
		i=0
		while command : 2>/dev/null >"$FULL/f$i"; do
			i=$((i + 1))
			[ "$i" -lt 100 ] || fail "the tmpfs has more than 8 inodes"
		done
		;;
	esac
	: >"$H"
	echo 0 >"$F"
	rm -f "$MASK" "$T/udevadm-ran"
	rm -rf "$SYS/class/firmware"/* "$SYS$TF"
	pending early.bin
	unset E_ACTION E_DEVPATH E_FIRMWARE E_SUBSYSTEM E_TIMEOUT E_ASYNC E_SEQNUM
	run kernel_env FWLOAD_HOTPLUG=/sbin/hotplug FWLOAD_UDEVADM="$T/bin/udevadm" $TEST_SH "$REPO/fwloadctl" setup
	status_is 0
	[ "$(readlink "$MASK")" = /dev/null ] || fail "$full: udev's rule not masked: $(cat "$T/stdout" "$T/stderr")"
	file_is "$T/udevadm-ran" "control --reload
" "$full: udevadm's runs"
	file_is "$F" "1
" "$full: the fallback"
	file_is "$REQ/loading" 10 "$full: the pending request"
	lost="fwloadctl: setup: cannot record the mask of $LIB/50-firmware.rules in $FULL/udev-masked: setup --undo will leave it masked"
	if [ "$full" = room ]; then
		file_is "$FULL/udev-masked" "50-firmware.rules
" "the record (room)"
		grep -qF "cannot record" "$T/stdout" && fail "room: $(cat "$T/stdout")"
	else
		grep -qxF "$lost" "$T/stdout" || fail "$full: no line for the lost record: $(cat "$T/stdout" "$T/stderr")"
		no_file "$FULL/udev-masked" "$full: an empty record left behind"
	fi
done
