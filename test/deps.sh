#!/bin/sh
# SPDX-License-Identifier: MIT
# deps.sh [fast|kernel|stock|boot|arm64|cross|fuzz|bench|package|demo-amd64|demo-arm64|all] - install what the
# tests and the demo need (demo-ARCH: the demo under qemu, test/kernel/demo-qemu.sh).
#
# Debian packages only. Installs the missing ones with apt-get when run as
# root; otherwise names them and fails. arm64 also makes apt know the arm64
# architecture (dpkg --add-architecture arm64, apt-get update): the arm64
# layer downloads busybox-static:arm64 with apt-get download and unpacks it
# with dpkg-deb; nothing for arm64 is installed.
set -eu
what=${1:-all}
fast='gcc make libc6-dev dash busybox-static shellcheck zstd xz-utils strace mksh yash util-linux e2fsprogs
signify-openbsd minisign libssl-dev openssl'
kernel='linux-source-6.12 build-essential flex bison bc patch busybox-static xz-utils zstd cpio signify-openbsd'
fuzz='clang libclang-rt-14-dev dash busybox-static'
cross='gcc-arm-linux-gnueabihf gcc-aarch64-linux-gnu gcc-riscv64-linux-gnu
libc6-dev-armhf-cross libc6-dev-arm64-cross libc6-dev-riscv64-cross qemu-user file dash'
bench="$kernel musl-tools strace"
package='make gcc libc6-dev git dpkg-dev debhelper lintian fakeroot groff-base man-db cpio binutils'
stock='qemu-system-x86 cpio busybox-static xz-utils file dpkg-dev debhelper fakeroot git'
boot='qemu-system-x86 cpio mmdebstrap dpkg-dev debhelper fakeroot git'
arm64='linux-source-6.12 build-essential flex bison bc patch gcc-aarch64-linux-gnu libc6-dev-arm64-cross
qemu-system-arm cpio xz-utils file'
case $what in
bench) want="gcc make libc6-dev $bench" ;;
cross) want=$cross ;;
fuzz) want=$fuzz ;;
fast) want=$fast ;;
kernel) want="gcc make libc6-dev $kernel" ;;
package) want=$package ;;
stock) want="gcc make libc6-dev $stock" ;;
boot) want="gcc make libc6-dev $boot" ;;
arm64) want="gcc make libc6-dev $arm64" ;;
demo-amd64) want="gcc make libc6-dev linux-source-6.12 $stock" ;;
demo-arm64)
	# (On an arm64 host the native gcc is aarch64-linux-gnu-gcc too.)
	want="gcc make libc6-dev $arm64"
	# shellcheck disable=SC2086 # a list of package names
	[ "$(dpkg --print-architecture)" != arm64 ] || want=$(printf '%s\n' $want | grep -v -e '^gcc-aarch64' -e 'arm64-cross$')
	;;
all) want="$fast $kernel $cross $stock $boot $arm64 $package" ;;
*) echo "usage: deps.sh [fast|kernel|stock|boot|arm64|cross|fuzz|bench|package|demo-amd64|demo-arm64|all]" >&2; exit 100 ;;
esac

# The arm64 architecture in apt's lists (for apt-get download only).
foreign=
case $what in
arm64 | demo-arm64 | all)
	[ "$(dpkg --print-architecture)" = arm64 ] || dpkg --print-foreign-architectures | grep -qx arm64 || foreign=arm64
	;;
esac

missing=
for p in $want; do
	case " $missing " in *" $p "*) continue ;; esac
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -n "$missing$foreign" ] || exit 0
if [ "$(id -u)" != 0 ]; then
	[ -z "$missing" ] || echo "deps.sh: missing Debian packages:$missing" >&2
	[ -z "$foreign" ] || echo "deps.sh: apt does not know the arm64 architecture: sudo dpkg --add-architecture arm64 && sudo apt-get update" >&2
	[ -z "$missing" ] || echo "deps.sh: run as root, or: sudo apt-get install$missing" >&2
	exit 1
fi
if [ -n "$foreign" ]; then
	echo "deps.sh: dpkg --add-architecture arm64 (for apt-get download busybox-static:arm64)" >&2
	dpkg --add-architecture arm64
fi
apt-get update >&2
[ -n "$missing" ] || exit 0
echo "deps.sh: installing$missing" >&2
# shellcheck disable=SC2086 # a list of package names
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing >&2
