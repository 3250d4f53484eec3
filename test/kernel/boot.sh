#!/bin/sh
# SPDX-License-Identifier: MIT
# boot.sh [--busybox] SCRIPT [ARG...] - run SCRIPT inside the UML test kernel.
# boot.sh --initrd CPIO             - boot CPIO as the initramfs, no hostfs.
#
# Boots the kernel from test/kernel/build.sh with the host's / as a
# read-only hostfs root and test/kernel/guest-init as PID 1, which installs
# the product into a tmpfs root, chroots into it and runs SCRIPT (a path
# relative to the repository) there. The guest's console is shown and kept in
# $FWLOAD_GUEST_LOG; the exit status is the script's.
#
# --busybox  /bin of the guest root holds busybox applets only, with
#            busybox sh as /bin/sh (so nothing silently needs coreutils).
#
# Environment: FWLOAD_GUARD  hang guard in seconds (default 900)
#              FWLOAD_MEM    guest memory (default 512M)
#              FWLOAD_KERNEL a kernel to use instead of building one
# Exit status: the script's; 124 hang guard; 125 the guest did not report.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
mode=dash
initrd=
case ${1:-} in
--busybox)
	mode=busybox
	shift
	;;
--initrd)
	initrd=${2:?--initrd wants a file}
	shift 2
	;;
esac
[ $# -ge 1 ] || [ -n "$initrd" ] || { echo "usage: boot.sh [--busybox] SCRIPT [ARG...] | --initrd CPIO" >&2; exit 100; }

kernel=${FWLOAD_KERNEL:-}
if [ -z "$kernel" ]; then
	kernel=$(sh "$repo/test/kernel/build.sh") || exit 125
fi
log=${FWLOAD_GUEST_LOG:-$(mktemp "${TMPDIR:-/tmp}/fwload-guest.XXXXXX")}

# UML keeps guest memory in a file under TMPDIR: /dev/shm is the fast place.
[ -d /dev/shm ] && [ -w /dev/shm ] && TMPDIR=/dev/shm && export TMPDIR
# Its control socket goes to a directory of ours, not ~/.uml.
umldir=$(mktemp -d "${TMPDIR:-/tmp}/fwload-uml.XXXXXX")

# Arguments without '=' reach init as argv; name=value ones as environment.
if [ -n "$initrd" ]; then
	set -- mem="${FWLOAD_MEM:-512M}" uml_dir="$umldir" initrd="$initrd" con=null con0=null,fd:1 quiet
else
	set -- mem="${FWLOAD_MEM:-512M}" uml_dir="$umldir" root=/dev/root rootfstype=hostfs rootflags=/ ro \
		init="$repo/test/kernel/guest-init" con=null con0=null,fd:1 quiet \
		fwload_repo="$repo" fwload_mode="$mode" -- "$@"
fi
timeout -k 10 "${FWLOAD_GUARD:-900}" "$kernel" "$@" </dev/null 2>&1 |
	grep -v --line-buffered '^Failed to initialize ubd device' | tee "$log"

rm -rf "$umldir"
status=$(sed -n 's/^fwload-guest: exit status \([0-9]*\)\r*$/\1/p' "$log" | tail -n 1)
if [ -z "$status" ]; then
	echo "boot.sh: the guest did not report an exit status (crash or hang guard); console in $log" >&2
	exit 125
fi
exit "$status"
