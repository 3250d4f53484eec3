# SPDX-License-Identifier: MIT
# shellcheck shell=sh disable=SC2034,SC2154 # repo: the caller's; deb: for it
# lib.sh - sourced by the layers that use the Debian package built from
# the tree (test/stock/run, test/boot/run). The caller sets $repo.

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
