#!/bin/sh
# SPDX-License-Identifier: MIT
# initramfs.sh - boot the test kernel from an initramfs and load firmware in
# early user space. The archive is made by the kernel's own usr/gen_init_cpio
# (built from the same linux-source) from "make initramfs.list" plus busybox,
# fwtrigger, device nodes and test/kernel/initramfs-init as /init: no hostfs
# root, nothing from the host at run time.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
k=$repo/test/kernel
src=$(sh "$k/build.sh" --src)
work=$(mktemp -d "${TMPDIR:-/tmp}/fwload-initramfs.XXXXXX")
trap 'rm -rf "$work"' EXIT

cc -O2 -o "$work/gen_init_cpio" "$src/usr/gen_init_cpio.c"
make -s -C "$repo" initramfs.list
bb=$(command -v busybox)
{
	cat "$repo/initramfs.list"
	echo "dir /bin 0755 0 0"
	echo "file /bin/busybox $bb 0755 0 0"
	for a in $("$bb" --list); do
		[ "$a" = busybox ] || echo "slink /bin/$a busybox 0777 0 0"
	done
	echo "file /bin/fwtrigger $k/fwtrigger 0755 0 0"
	echo "file /init $k/initramfs-init 0755 0 0"
	for d in /dev /proc /sys /tmp /run /opt; do
		echo "dir $d 0755 0 0"
	done
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "nod /dev/null 0666 0 0 c 1 3"
} >"$work/list"
"$work/gen_init_cpio" "$work/list" >"$work/initramfs.cpio"
echo "initramfs: $(wc -c <"$work/initramfs.cpio") bytes, $(wc -l <"$work/list") entries; fwload's own:"
sed 's/^/  /' "$repo/initramfs.list"
sh "$k/boot.sh" --initrd "$work/initramfs.cpio"
