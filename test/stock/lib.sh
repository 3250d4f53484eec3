# SPDX-License-Identifier: MIT
# shellcheck shell=sh disable=SC2034,SC2154 # repo, cache: the caller's; pkg, kver: for it
# lib.sh - sourced by the layers that boot Debian's own amd64 kernel
# (test/stock/run, test/boot/run): stock_kernel fetches it once per
# package version and sets
#   pkg      the package (what linux-image-amd64 depends on, or
#            FWLOAD_STOCK_PACKAGE)
#   version  its version (apt's candidate)
#   kver     the kernel release (the name of its /lib/modules directory)
#   dir      $cache/stock-PACKAGE_VERSION: vmlinuz, config,
#            test_firmware.ko, and modules/: the modules the layers load
#            (test_firmware, e100 and mii) in the package's own tree,
#            with modules.order and modules.builtin* for depmod
# (apt-get download + dpkg-deb -x; nothing is installed). The caller sets
# $cache and defines skip TEXT (it does not return).
stock_kernel() {
	pkg=${FWLOAD_STOCK_PACKAGE:-$(apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*-amd64\)$/\1/p' | head -n 1)}
	[ -n "$pkg" ] || skip "apt knows no linux-image-amd64 (apt-get update?)"
	version=$(apt-cache policy "$pkg" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	case $version in '' | '(none)') skip "apt has no candidate for $pkg" ;; esac
	dir=$cache/stock-${pkg}_$version
	if [ ! -f "$dir/vmlinuz" ] || [ ! -f "$dir/test_firmware.ko" ] || [ ! -f "$dir/modules/release" ]; then
		echo "stock: fetching $pkg $version with apt-get download (once per version)"
		_t=$(mktemp -d "${TMPDIR:-/tmp}/fwload-stock-deb.XXXXXX") || exit 111
		if ! (cd "$_t" && apt-get download "$pkg=$version" >/dev/null 2>&1); then
			rm -rf "$_t"
			skip "apt-get download $pkg=$version failed"
		fi
		dpkg-deb -x "$_t"/*.deb "$_t/x" || { rm -rf "$_t"; skip "dpkg-deb -x failed"; }
		_m=$(find "$_t/x/lib/modules" -mindepth 1 -maxdepth 1 -type d | head -n 1)
		_ko=$(find "$_m" -name 'test_firmware.ko*' | head -n 1)
		if [ -z "$_ko" ]; then
			rm -rf "$_t"
			skip "$pkg has no test_firmware module (CONFIG_TEST_FIRMWARE)"
		fi
		mkdir -p "$dir.tmp/modules" || exit 111
		for _f in $(cd "$_m" && find kernel -name 'test_firmware.ko*' -o -name 'e100.ko*' -o -name 'mii.ko*') \
			modules.order modules.builtin modules.builtin.modinfo; do
			mkdir -p "$dir.tmp/modules/$(dirname "$_f")" && cp "$_m/$_f" "$dir.tmp/modules/$_f" || exit 111
		done
		basename "$_m" >"$dir.tmp/modules/release"
		cp "$_t"/x/boot/vmlinuz-* "$dir.tmp/vmlinuz" &&
			cp "$_t"/x/boot/config-* "$dir.tmp/config" &&
			cp "$_ko" "$dir.tmp/test_firmware.ko" &&
			rm -rf "$dir" && mv "$dir.tmp" "$dir"
		rm -rf "$_t"
		[ -f "$dir/vmlinuz" ] || skip "cannot unpack $pkg"
	fi
	read -r kver <"$dir/modules/release"
}

# fwload_deb DIR: the Debian package of the tree under test, built with
# dpkg-buildpackage -b from a copy of the files git knows in DIR/fwload;
# $deb is the .deb (DIR/fwload_*.deb), the build's log in DIR/build.log.
# Fails (the log's end on stdout) when the build does.
fwload_deb() {
	mkdir -p "$1/fwload" || return 1
	(cd "$repo" && git ls-files -z -co --exclude-standard 2>/dev/null) | (cd "$repo" && tar --null --no-recursion -cf - -T -) |
		tar -xf - -C "$1/fwload" || return 1
	if ! (cd "$1/fwload" && dpkg-buildpackage -us -uc -b) >"$1/build.log" 2>&1; then
		tail -n 20 "$1/build.log"
		return 1
	fi
	for deb in "$1"/fwload_*.deb; do :; done
	[ -f "$deb" ]
}
