#!/bin/sh
# SPDX-License-Identifier: MIT
# boot.sh [--busybox] SCRIPT [ARG...] - run SCRIPT inside the UML test kernel.
# boot.sh --initrd CPIO             - boot CPIO as the initramfs, no hostfs.
# boot.sh --check                   - can UML run here? One line: the host's
#                                     XSAVE area as the kernel took it (exit
#                                     0), or "UML does not start here:
#                                     REASON", the host's reason (exit 1).
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
check=
case ${1:-} in
--check)
	check=1
	shift
	;;
--busybox)
	mode=busybox
	shift
	;;
--initrd)
	initrd=${2:?--initrd wants a file}
	shift 2
	;;
esac
[ $# -ge 1 ] || [ -n "$initrd$check" ] || { echo "usage: boot.sh [--busybox] SCRIPT [ARG...] | --initrd CPIO | --check" >&2; exit 100; }

kernel=${FWLOAD_KERNEL:-}
if [ -z "$kernel" ]; then
	kernel=$(sh "$repo/test/kernel/build.sh") || exit 125
fi
log=${FWLOAD_GUEST_LOG:-$(mktemp "${TMPDIR:-/tmp}/fwload-guest.XXXXXX")}

# UML keeps guest memory in a file under TMPDIR that it maps executable:
# /dev/shm is the fast place, unless it is mounted noexec (as in many
# containers): then TMPDIR or /tmp, if a program there can run.
exec_ok() {
	[ -d "$1" ] && [ -w "$1" ] || return 1
	_f=$(mktemp "$1/fwload-exec.XXXXXX") || return 1
	printf '#!/bin/sh\nexit 0\n' >"$_f" && chmod 700 "$_f" && "$_f" 2>/dev/null
	_st=$?
	rm -f "$_f"
	return "$_st"
}
noexec="/dev/shm, ${TMPDIR:-/tmp}"
for d in /dev/shm "${TMPDIR:-/tmp}" /tmp; do
	if exec_ok "$d"; then
		TMPDIR=$d noexec=''
		export TMPDIR
		break
	fi
done
# Its control socket goes to a directory of ours, not ~/.uml.
umldir=$(mktemp -d "${TMPDIR:-/tmp}/fwload-uml.XXXXXX")

# --check: the smallest boot (guest-check as PID 1), whose console says
# whether a process ran. UML's own checks (ptrace, an executable /dev/shm)
# and a failed first switch to user space print their reason there.
if [ -n "$check" ]; then
	if [ -n "$noexec" ]; then
		rm -rf "$umldir"
		echo "UML does not start here: no program can run from $noexec (mounted noexec, or not writable): UML maps its memory there"
		exit 1
	fi
	timeout -k 5 "${FWLOAD_GUARD:-60}" "$kernel" mem=64M uml_dir="$umldir" root=/dev/root rootfstype=hostfs \
		rootflags=/ ro init="$repo/test/kernel/guest-check" con=null con0=null,fd:1 quiet </dev/null >"$umldir.out" 2>&1
	status=$?
	out=$(tr -d '\r' <"$umldir.out")
	rm -rf "$umldir" "$umldir.out"
	if printf '%s\n' "$out" | grep -q '^fwload-check: up$'; then
		printf '%s\n' "$out" | sed -n 's/^fwload-check: \(UML: .*\)/\1/p'
		exit 0
	fi
	why=$(printf '%s\n' "$out" | grep -E 'failed|errno|not permitted|must|expected|cannot|[Nn]o such|panic' |
		head -n 2 | sed -e 's/^\[ *[0-9.]*\] //' | tr '\n' ';' | sed -e 's/;$//' -e 's/;/; /g')
	[ -n "$why" ] || why=$(printf '%s\n' "$out" | grep -v '^[[:space:]]*$' | tail -n 1)
	[ "$status" != 124 ] || why="no answer within ${FWLOAD_GUARD:-60} s${why:+ ($why)}"
	echo "UML does not start here: ${why:-the kernel ended (status $status) with nothing on its console}"
	exit 1
fi

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
