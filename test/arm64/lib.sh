# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# Helpers for the cases under test/arm64/cases/, which run inside the arm64
# guest (test/arm64/init runs each with "sh CASE" from the cases directory).
# Each case is one script; its exit status is the verdict (0 pass, 77 skip).
# $PART says which event source is set up: "helper" (the kernel's uevent
# helper, /sbin/hotplug) or "hotplugd".

TF=/sys/devices/virtual/misc/test_firmware
FW=/opt/fw                      # FIRMWARE_PATH of the board's fwload.conf
# shellcheck disable=SC2034 # for the cases
FIXTURES=/opt/fixtures          # made on the build host (test/arm64/run)
# shellcheck disable=SC2034 # for the cases
REL=$(uname -r)

fail() {
	echo "FAIL: $*"
	exit 1
}

# mkimage NAME SIZE [DIR]: a random image of SIZE bytes at DIR/NAME (the
# cases compare the driver's copy with the file, whatever the bytes).
mkimage() {
	mkdir -p "$(dirname "${3:-$FW}/$1")"
	head -c "$2" /dev/urandom >"${3:-$FW}/$1" || fail "cannot make $1"
	[ "$(wc -c <"${3:-$FW}/$1")" -eq "$2" ] || fail "$1: not $2 bytes"
}

# trigger ATTR VALUE: write VALUE to $TF/ATTR in one write() (fwtrigger);
# sets $err (errno, 0 for success) and $ms (how long the kernel took).
trigger() {
	out=$(fwtrigger "$TF/$1" "$2")
	err=${out% *}
	ms=${out#* }
}

# request NAME [FILE]: request NAME and insist that the driver got exactly
# FILE (default $FW/NAME), read back whole from /dev/test_firmware.
request() {
	trigger trigger_request "$1"
	[ "$err" = 0 ] || fail "request for $1 failed with errno $err after $ms ms"
	cmp "${2:-$FW/$1}" /dev/test_firmware || fail "$1: the driver got a different image"
	echo "ok: $1 ($(wc -c <"${2:-$FW/$1}") bytes) loaded in $ms ms"
}

# request_fails NAME ERRNO: the request must fail with ERRNO.
request_fails() {
	trigger trigger_request "$1"
	[ "$err" = "$2" ] || fail "request for $1: errno $err after $ms ms, want $2"
	echo "ok: $1 failed with errno $err in $ms ms"
}

# kmsg PATTERN: the kernel log has a line matching PATTERN (grep -E); the
# log holds only this case's lines (the runner clears it before each case).
# fwload answers first and logs after, so the line may come a little after
# the driver's result (under hotplugd on a loaded host it came after the
# check once): waited for, up to 5 s.
kmsg() {
	_i=0
	until dmesg | grep -E "$1" >/dev/null; do
		_i=$((_i + 1))
		[ "$_i" -le 50 ] || fail "no kernel log line matches: $1"
		sleep 0.1
	done
}

# conf LINE...: replace /etc/fwload.conf.
conf() {
	printf '%s\n' "$@" >/etc/fwload.conf
}

# mtd_by_name NAME: sets $mtd to the MTD device (mtdN) that /proc/mtd names
# NAME, or to nothing.
mtd_by_name() {
	mtd=''
	while read -r _dev _size _erase _name; do
		[ "$_name" = "\"$1\"" ] && mtd=${_dev%:} && return 0
	done </proc/mtd
	return 1
}

# mtd_add NAME FILE: FILE (a multiple of 64 KiB) becomes the MTD partition
# NAME, through the next free loop device and block2mtd; sets $mtd. A
# built-in block2mtd keeps it until poweroff: a case that runs in both parts
# looks for it with mtd_by_name first.
mtd_add() {
	_loop=$(losetup -f) || fail "no free loop device"
	losetup "$_loop" "$2" || fail "losetup $_loop $2 failed"
	printf '%s,65536,%s' "$_loop" "$1" >/sys/module/block2mtd/parameters/block2mtd ||
		fail "block2mtd refused $_loop"
	mtd_by_name "$1" || fail "no partition named $1 in /proc/mtd: $(cat /proc/mtd)"
	[ -c "/dev/$mtd" ] || fail "/dev/$mtd is not a character device"
}
