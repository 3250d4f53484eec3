#!/bin/sh
# SPDX-License-Identifier: MIT
# demo-qemu.sh [amd64|arm64] - the demo (guest-demo) under qemu-system
# (TCG), for where User-Mode Linux cannot run: the host's machine unless
# named. The same kernels as the layers that boot them:
#   amd64  Debian's own kernel (test/stock/kernel.sh; test_firmware.ko),
#          qemu-system-x86_64, hotplugd as the event source
#   arm64  the arm64 board's kernel (test/arm64/build.sh: about 10 minutes
#          the first time), qemu-system-aarch64 -M virt, the uevent helper
# The initramfs: busybox, fwload's own "make initramfs.cpio" (built for the
# machine in a scratch copy of the sources), fwtrigger, demo-init as /init.
# Exit status: the demo's (0 when every scenario ended as shown).
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
arch=${1:-}
if [ -z "$arch" ]; then
	case $(uname -m) in
	x86_64) arch=amd64 ;;
	aarch64 | arm64) arch=arm64 ;;
	*) echo "demo: no qemu demo for this host ($(uname -m)): amd64 and arm64 hosts only"; exit 1 ;;
	esac
fi

die() {
	echo "demo: $*"
	exit 1
}

sh "$repo/test/deps.sh" "demo-$arch" || die "cannot install what the qemu demo needs (test/deps.sh demo-$arch)"
work=$(mktemp -d "${TMPDIR:-/tmp}/fwload-demo.XXXXXX") || exit 111
trap 'rm -rf "$work"' EXIT
trap 'exit 130' HUP INT TERM

case $arch in
amd64)
	cross=''
	[ "$(uname -m)" = x86_64 ] || cross=x86_64-linux-gnu-
	dir=$(sh "$repo/test/stock/kernel.sh" 2>&1) || die "no kernel: $(printf '%s\n' "$dir" | tail -n 1)"
	dir=$(printf '%s\n' "$dir" | tail -n 1)
	kernel=$dir/vmlinuz
	read -r kname _ <"$dir/package"
	machine="qemu-system-x86_64 (TCG), Debian's own kernel $kname"
	bb=$(command -v busybox) || die "no busybox (apt-get install busybox-static)"
	case $(file -b "$bb") in *statically*) ;; *) die "$bb is not static (apt-get install busybox-static)" ;; esac
	# (No NIC: no iPXE ROM; SeaBIOS off the serial line: the console is the kernel's.)
	set -- qemu-system-x86_64 -accel tcg -m 512 -nographic -no-reboot -net none \
		-fw_cfg name=etc/sercon-port,string=0 -kernel "$kernel" \
		-append "console=ttyS0 panic=-1 quiet loglevel=3"
	;;
arm64)
	cross=''
	[ "$(uname -m)" = aarch64 ] || cross=aarch64-linux-gnu-
	echo "demo: building (or reusing) the arm64 board's kernel; the first build takes about 10 minutes"
	kernel=$(sh "$repo/test/arm64/build.sh") || die "the arm64 kernel could not be built"
	machine="qemu-system-aarch64 -M virt (TCG), the arm64 board's kernel from linux-source-6.12"
	bb=$(sh "$repo/test/arm64/busybox.sh" 2>&1) || die "no arm64 busybox: $(printf '%s\n' "$bb" | tail -n 1)"
	bb=$(printf '%s\n' "$bb" | tail -n 1)
	set -- qemu-system-aarch64 -M virt -cpu cortex-a53 -m 512 -nographic -no-reboot -kernel "$kernel" \
		-append "console=ttyAMA0 panic=-1 quiet loglevel=3"
	;;
*) die "no qemu demo for '$arch' (amd64 or arm64)" ;;
esac
echo "demo: machine $machine"
echo "demo: kernel $kernel"

# fwload for the machine, in a copy of the sources: the files git knows.
mkdir -p "$work/src"
(cd "$repo" && git ls-files -z -co --exclude-standard 2>/dev/null | tar --null --no-recursion \
	--ignore-failed-read -cf - -T - 2>/dev/null) | tar -xf - -C "$work/src"
[ -f "$work/src/fwload.c" ] || cp -a "$repo/." "$work/src" || die "cannot copy the sources"
make -s -C "$work/src" clean >/dev/null 2>&1
make -s -C "$work/src" CROSS_COMPILE="$cross" initramfs.cpio >"$work/make.log" 2>&1 ||
	{ cat "$work/make.log"; die "make CROSS_COMPILE=$cross initramfs.cpio failed"; }
"${cross}gcc" -std=c11 -O2 -static -o "$work/fwtrigger" "$repo/test/kernel/fwtrigger.c" || die "cannot build fwtrigger"

# The demo's compressed image, made here (busybox's xz only decompresses;
# CRC32, as the kernel's own decompressor would want it too).
mkdir -p "$work/demo"
head -c 524288 /dev/urandom >"$work/demo/dsp.bin"
xz --check=crc32 -c "$work/demo/dsp.bin" >"$work/demo/dsp.bin.xz" || die "xz failed"

# The rest of the initramfs in the kernel's gen_init_cpio list format (no
# root needed for the device nodes).
src=$(sh "$repo/test/kernel/build.sh" --src) || die "no kernel source for gen_init_cpio"
cc -O2 -o "$work/gen_init_cpio" "$src/usr/gen_init_cpio.c" || die "cannot build gen_init_cpio"
{
	for d in /bin /dev /proc /sys /tmp /run /opt /opt/demo /lib /lib/modules; do
		echo "dir $d 0755 0 0"
	done
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "nod /dev/null 0666 0 0 c 1 3"
	echo "file /bin/busybox $bb 0755 0 0"
	echo "slink /bin/sh busybox 0777 0 0"
	echo "file /bin/fwtrigger $work/fwtrigger 0755 0 0"
	echo "file /init $repo/test/kernel/demo-init 0755 0 0"
	echo "file /opt/demo/guest-demo $repo/test/kernel/guest-demo 0644 0 0"
	echo "file /opt/demo/dsp.bin $work/demo/dsp.bin 0644 0 0"
	echo "file /opt/demo/dsp.bin.xz $work/demo/dsp.bin.xz 0644 0 0"
	[ "$arch" != amd64 ] || echo "file /lib/modules/test_firmware.ko $dir/test_firmware.ko 0644 0 0"
} >"$work/list"
"$work/gen_init_cpio" "$work/list" >"$work/base.cpio" || die "gen_init_cpio failed"
cat "$work/base.cpio" "$work/src/initramfs.cpio" >"$work/initrd"

echo "demo: booting; the initramfs holds busybox and fwload's own 'make initramfs.cpio'"
# (The guest's status is read from its console, kept: the pipe's is grep's.)
# (qemu's own messages are shown only if the guest does not finish: one
# is a warning about the fw_cfg name above.)
timeout -k 10 "${FWLOAD_GUARD:-600}" "$@" -initrd "$work/initrd" </dev/null 2>"$work/qemu.err" | tr -d '\r' |
	tee "$work/console" | grep -v '^fwload-guest: exit status'
status=$(sed -n 's/^fwload-guest: exit status \([0-9]*\)$/\1/p' "$work/console" | tail -n 1)
if [ -z "$status" ]; then
	cat "$work/qemu.err"
	die "the guest did not finish (crash, or the hang guard of ${FWLOAD_GUARD:-600} s); its console is above"
fi
exit "$status"
