#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the User-Mode Linux test kernel from Debian's linux-source package.
#
#   test/kernel/build.sh            build (or reuse) the kernel, print its path
#   test/kernel/build.sh --deps     install the build dependencies first (apt-get, root)
#   test/kernel/build.sh --src      extract (or reuse) the source, print its path
#
# The source is patched as it is extracted: every test/kernel/patches/*.patch,
# in name order (patch -p1). uml-host-xsave.patch lets UML 6.12 start on a
# host whose XSAVE area is larger than 2,696 bytes (a CPU with AMX): see
# doc/kernel-facts.md. The result is cached in $FWLOAD_CACHE (default
# ~/.cache/fwload), keyed by the source package version, the patches, the
# options below and the test driver, so a second run costs nothing. Progress
# goes to stderr, the kernel's path to stdout.
set -eu

pkg=linux-source-6.12
cache=${FWLOAD_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/fwload}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

say() { printf 'kernel: %s\n' "$*" >&2; }
die() { printf 'kernel: %s\n' "$*" >&2; exit 1; }

# Options the tests need, on top of ARCH=um defconfig. Each must be =y after
# olddefconfig, or the build fails: a silently dropped option would turn the
# whole kernel test layer into a lie.
# MTD and BLK_DEV_LOOP, MTD_BLOCK2MTD: an MTD partition over a loop device
# for fwload-extract (cases/mtd-extract.sh); the MTD character devices
# (/dev/mtdN) come with MTD itself (6.12's drivers/mtd/Makefile builds
# mtdchar.o into mtd: there is no MTD_CHAR option).
# MTD needs HAS_IOMEM, which UML has only with VIRTIO_UML and
# UML_PCI_OVER_VIRTIO.
options='FW_LOADER FW_LOADER_USER_HELPER TEST_FIRMWARE UEVENT_HELPER HOSTFS
DEVTMPFS TMPFS BLK_DEV_INITRD MAGIC_SYSRQ FW_UPLOAD
VIRTIO_UML UML_PCI_OVER_VIRTIO MTD MTD_BLOCK2MTD BLK_DEV_LOOP'

# Set to a value, not just enabled. KERNEL_STACK_ORDER=4 (64 KiB stacks):
# with the XSAVE patch UML's thread_info, at the stack's base, holds a
# 12 KiB copy of the host's FP area; the default order 2 (16 KiB) does not
# even link.
values='KERNEL_STACK_ORDER=4'

# Bump when the recipe below changes in a way that changes the kernel.
recipe=4
patches="$(cd "$(dirname "$0")" && pwd)/patches"
# Our own test driver (many concurrent requests), built in.
driver="$(cd "$(dirname "$0")" && pwd)/driver/fwload_stress.c"

if [ "${1:-}" = --src ]; then
	src_only=1
else
	src_only=
fi

if [ "${1:-}" = --deps ]; then
	missing=
	for p in "$pkg" build-essential flex bison bc; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		say "installing build dependencies:$missing"
		apt-get update >&2
		# shellcheck disable=SC2086 # a list of package names
		DEBIAN_FRONTEND=noninteractive apt-get install -y $missing >&2
	fi
fi

tarball=
for f in /usr/src/"$pkg".tar.*; do
	[ -f "$f" ] && tarball=$f && break
done
[ -n "$tarball" ] || die "/usr/src/$pkg.tar.* not found: apt-get install $pkg (or run with --deps)"
version=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) || version=unknown

# The patches, by name and content: a patched tree of its own per set.
pkey=$(for p in "$patches"/*.patch; do [ -f "$p" ] && printf '%s %s\n' "${p##*/}" "$(cksum <"$p")"; done |
	cksum | cut -d' ' -f1)
key=$(printf '%s\n%s\n%s\n%s\n%s\n%s\n' "$version" "$options" "$values" "$recipe" "$pkey" "$(cksum <"$driver")" |
	cksum | cut -d' ' -f1)
out="$cache/linux-um-$version-$key"
if [ -x "$out" ] && [ -z "$src_only" ]; then
	printf '%s\n' "$out"
	exit 0
fi

mkdir -p "$cache"
# One extraction at a time (the UML and arm64 builds both ask for it).
src="$cache/src-$version-p$pkey"
exec 8>"$src.lock"
flock 8
if [ ! -f "$src/.extracted" ]; then
	say "extracting $tarball (about 15 s)"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -xf "$tarball" -C "$src.tmp"
	for p in "$patches"/*.patch; do
		[ -f "$p" ] || continue
		say "applying ${p##*/}"
		patch -s -p1 -d "$src.tmp/$pkg" <"$p" >&2 || die "${p##*/} does not apply to $pkg $version"
	done
	mv "$src.tmp/$pkg" "$src"
	rmdir "$src.tmp"
	: >"$src/.extracted"
fi

# The driver is built into the kernel: copied into the extracted tree, with
# one line in lib/Makefile.
cp "$driver" "$src/lib/fwload_stress.c"
grep -q '^obj-y += fwload_stress.o$' "$src/lib/Makefile" ||
	printf '\n# fwload tests\nobj-y += fwload_stress.o\n' >>"$src/lib/Makefile"
exec 8>&-

# One build tree per source version, kept: a change to the driver or the
# options rebuilds only what it touches.
if [ -n "$src_only" ]; then
	printf '%s\n' "$src"
	exit 0
fi

build="$cache/build-$version-p$pkey"
mkdir -p "$build"
# One build at a time in the shared tree (several checkouts may ask at
# once); whoever waited may find the kernel built.
exec 9>"$build.lock"
flock 9
if [ -x "$out" ]; then
	printf '%s\n' "$out"
	exit 0
fi
# shellcheck disable=SC2086 # the option list, one line
say "configuring ARCH=um defconfig +" $options
make -s -C "$src" O="$build" ARCH=um defconfig >&2
for opt in $options; do
	"$src/scripts/config" --file "$build/.config" --enable "$opt"
done
for v in $values; do
	"$src/scripts/config" --file "$build/.config" --set-val "${v%%=*}" "${v#*=}"
done
make -s -C "$src" O="$build" ARCH=um olddefconfig >&2
for opt in $options; do
	grep -qx "CONFIG_$opt=y" "$build/.config" || die "CONFIG_$opt did not survive olddefconfig"
done
for v in $values; do
	grep -qx "CONFIG_$v" "$build/.config" || die "CONFIG_$v did not survive olddefconfig"
done

say "building with make -j$jobs (about 4 minutes on 2 cores; once per source version)"
start=$(date +%s)
make -C "$src" O="$build" ARCH=um -j"$jobs" linux >"$build/build.log" 2>&1 || {
	tail -n 40 "$build/build.log" >&2
	die "build failed, full log: $build/build.log"
}
say "built in $(( $(date +%s) - start )) s"
cp "$build/linux" "$out.tmp"
mv "$out.tmp" "$out"
cp "$build/.config" "$out.config"
printf '%s\n' "$out"
