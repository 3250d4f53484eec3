#!/bin/sh
# SPDX-License-Identifier: MIT
# cpio-list.sh ROOT - print the tree under ROOT in the kernel's
# gen_init_cpio list format (usr/gen_init_cpio, CONFIG_INITRAMFS_SOURCE):
#   dir NAME MODE UID GID / file NAME SOURCE MODE UID GID / slink NAME TARGET MODE UID GID
# Everything is owned by root; executables get 0755, other files 0644,
# directories 0755. Parent directories of ROOT's top level (/, /etc) are
# listed too, so the list stands on its own. POSIX sh and find only.
set -eu
if [ $# -ne 1 ] || [ ! -d "$1" ]; then
	echo "usage: cpio-list.sh ROOT" >&2
	exit 100
fi
root=$(cd "$1" && pwd)
cd "$root"
find . -mindepth 1 | LC_ALL=C sort | while IFS= read -r p; do
	name=${p#.}
	case $name in *[[:space:]]*) echo "cpio-list.sh: space in $name" >&2; exit 1 ;; esac
	if [ -L "$p" ]; then
		echo "slink $name $(readlink "$p") 0777 0 0"
	elif [ -d "$p" ]; then
		echo "dir $name 0755 0 0"
	elif [ -f "$p" ]; then
		if [ -x "$p" ]; then mode=0755; else mode=0644; fi
		echo "file $name $root$name $mode 0 0"
	else
		echo "cpio-list.sh: not a file, directory or link: $name" >&2
		exit 1
	fi
done
