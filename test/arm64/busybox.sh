#!/bin/sh
# SPDX-License-Identifier: MIT
# busybox.sh - Debian's busybox-static for arm64, for the arm64 board and
# the demo's arm64 machine: the candidate version of busybox-static:arm64,
# fetched with apt-get download and unpacked with dpkg-deb -x once per
# version into $FWLOAD_CACHE/arm64-busybox-VERSION (nothing installed);
# without apt's arm64 lists, one cached before. Prints the path of the
# busybox binary; on failure one line on stderr saying why, exit status 1.
set -u
cache=${FWLOAD_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/fwload}

no() {
	echo "$*" >&2
	exit 1
}

bbver=$(apt-cache policy busybox-static:arm64 2>/dev/null | sed -n 's/^ *Candidate: //p')
case $bbver in
'' | '(none)')
	bbdir=''
	for d in "$cache"/arm64-busybox-*; do
		[ ! -x "$d/busybox" ] || bbdir=$d
	done
	[ -n "$bbdir" ] ||
		no "apt has no busybox-static:arm64 (dpkg --add-architecture arm64 && apt-get update: sh test/deps.sh arm64)"
	;;
*)
	bbdir=$cache/arm64-busybox-$(printf %s "$bbver" | tr ':~' '__')
	if [ ! -x "$bbdir/busybox" ]; then
		echo "arm64: fetching busybox-static:arm64 $bbver with apt-get download (once per version)" >&2
		mkdir -p "$cache" || no "cannot make $cache"
		rm -rf "$bbdir.tmp"
		mkdir -p "$bbdir.tmp"
		(cd "$bbdir.tmp" && apt-get download "busybox-static:arm64=$bbver") >/dev/null 2>&1 ||
			{ rm -rf "$bbdir.tmp"; no "apt-get download busybox-static:arm64=$bbver failed"; }
		if ! dpkg-deb -x "$bbdir.tmp"/busybox-static_*_arm64.deb "$bbdir.tmp/x" ||
			! cp "$bbdir.tmp/x/bin/busybox" "$bbdir.tmp/busybox"; then
			rm -rf "$bbdir.tmp"
			no "cannot unpack busybox-static:arm64"
		fi
		printf '%s\n' "$bbver" >"$bbdir.tmp/version"
		rm -rf "$bbdir.tmp/x" "$bbdir"
		mv "$bbdir.tmp" "$bbdir" || no "cannot write $bbdir"
	fi
	;;
esac
printf '%s\n' "$bbdir/busybox"
