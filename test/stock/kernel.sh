#!/bin/sh
# SPDX-License-Identifier: MIT
# kernel.sh - Debian's own amd64 kernel (the package linux-image-amd64
# depends on; 6.1 on Debian 12, or FWLOAD_STOCK_PACKAGE), fetched with
# apt-get download and unpacked with dpkg-deb -x once per package version
# into $FWLOAD_CACHE/stock-PACKAGE_VERSION: vmlinuz, config,
# test_firmware.ko, "package" (its name and version) and modules/: the
# modules the boot layer loads (test_firmware, e100, mii) in the
# package's own tree, with modules.order and modules.builtin* for depmod,
# and "release" (the kernel's release). Nothing is installed. Prints that directory; on failure one line on stderr saying
# why, and exit status 1.
set -u
cache=${FWLOAD_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/fwload}

no() {
	echo "$*" >&2
	exit 1
}

pkg=${FWLOAD_STOCK_PACKAGE:-$(apt-cache depends linux-image-amd64 2>/dev/null |
	sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*-amd64\)$/\1/p' | head -n 1)}
[ -n "$pkg" ] || no "apt knows no linux-image-amd64 (apt-get update?)"
version=$(apt-cache policy "$pkg" 2>/dev/null | sed -n 's/^ *Candidate: //p')
case $version in '' | '(none)') no "apt has no candidate for $pkg" ;; esac
dir=$cache/stock-${pkg}_$version
if [ ! -f "$dir/vmlinuz" ] || [ ! -f "$dir/test_firmware.ko" ] || [ ! -f "$dir/package" ] ||
	[ ! -f "$dir/modules/release" ]; then
	echo "stock kernel: fetching $pkg $version with apt-get download (once per version)" >&2
	mkdir -p "$cache" || no "cannot make $cache"
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/fwload-stock-deb.XXXXXX") || exit 1
	trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && apt-get download "$pkg=$version" >/dev/null 2>&1) || no "apt-get download $pkg=$version failed"
	dpkg-deb -x "$tmp"/*.deb "$tmp/x" || no "dpkg-deb -x $pkg failed"
	ko=$(find "$tmp/x/lib/modules" -name 'test_firmware.ko*' | head -n 1)
	[ -n "$ko" ] || no "$pkg has no test_firmware module (CONFIG_TEST_FIRMWARE)"
	m=$(find "$tmp/x/lib/modules" -mindepth 1 -maxdepth 1 -type d | head -n 1)
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp/modules" || no "cannot make $dir.tmp"
	for f in $(cd "$m" && find kernel -name 'test_firmware.ko*' -o -name 'e100.ko*' -o -name 'mii.ko*') \
		modules.order modules.builtin modules.builtin.modinfo; do
		{ mkdir -p "$dir.tmp/modules/$(dirname "$f")" && cp "$m/$f" "$dir.tmp/modules/$f"; } ||
			no "cannot copy $f of $pkg"
	done
	basename "$m" >"$dir.tmp/modules/release" || no "cannot write $dir.tmp/modules/release"
	if ! {
		cp "$tmp"/x/boot/vmlinuz-* "$dir.tmp/vmlinuz" &&
		cp "$tmp"/x/boot/config-* "$dir.tmp/config" &&
		cp "$ko" "$dir.tmp/test_firmware.ko" &&
		printf '%s %s\n' "$pkg" "$version" >"$dir.tmp/package" &&
		rm -rf "$dir" && mv "$dir.tmp" "$dir"; }; then
		no "cannot unpack $pkg into $dir"
	fi
fi
printf '%s\n' "$dir"
