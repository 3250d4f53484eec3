# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# Helpers for the cases under test/kernel/cases/, which run inside the guest
# (see guest-cases). Each case is one script; its exit status is the verdict.

TF=/sys/devices/virtual/misc/test_firmware
FW=/run/fw                      # FIRMWARE_PATH of the guest's fwload.conf
TRIGGER=/src/test/kernel/fwtrigger
# shellcheck disable=SC2034 # for the cases
REL=$(uname -r)

fail() {
	echo "FAIL: $*"
	exit 1
}

# mkimage NAME SIZE [DIR]: a random image of SIZE bytes at DIR/NAME.
mkimage() {
	mkdir -p "$(dirname "${3:-$FW}/$1")"
	head -c "$2" /dev/urandom >"${3:-$FW}/$1" || fail "cannot make $1"
}

# trigger ATTR VALUE: write VALUE to $TF/ATTR; sets $err (errno, 0 for
# success) and $ms (how long the kernel took to answer).
trigger() {
	trigger_at "$TF/$1" "$2"
}
trigger_at() {
	out=$("$TRIGGER" "$1" "$2")
	err=${out% *}
	ms=${out#* }
}

# request NAME [ATTR]: request NAME (trigger_request by default) and insist
# that the driver got exactly $FW/NAME.
request() {
	trigger "${2:-trigger_request}" "$1"
	[ "$err" = 0 ] || fail "request for $1 failed with errno $err after $ms ms"
	cmp "$FW/$1" /dev/test_firmware || fail "$1: the driver got a different image"
	echo "ok: $1 ($(wc -c <"$FW/$1") bytes) loaded in $ms ms"
}

# request_fails NAME ERRNO [ATTR]: the request must fail with ERRNO.
request_fails() {
	trigger "${3:-trigger_request}" "$1"
	short=$(printf %s "$1" | cut -c1-72)
	[ "$err" = "$2" ] || fail "request for '$short': errno $err after $ms ms, want $2"
	echo "ok: '$short' failed with errno $err in $ms ms"
}

# kmsg PATTERN: the kernel log has a line matching PATTERN (grep -E).
# (fwload answers first and logs after, so the line may come a little after
# the driver's result: waited for, up to 5 s.)
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

# custom_request NAME: start a custom-fallback request for NAME (no uevent,
# no timeout: only we can end it) in the background, wait for its sysfs
# directory, and set $dev to its DEVPATH. `custom_result` waits for the
# request to end and sets $err and $ms.
custom_request() {
	dev=/devices/virtual/misc/test_firmware/$(printf %s "$1" | tr / !)
	"$TRIGGER" "$TF/trigger_custom_fallback" "$1" >/run/custom.out &
	custom_pid=$!
	wait_request "the custom fallback request for $1"
}

# wait_request WHAT: wait up to 5 s for the request at $dev to have its
# sysfs files; fail naming WHAT if it does not.
wait_request() {
	i=0
	until [ -e "/sys$dev/loading" ]; do
		i=$((i + 1))
		[ $i -lt 500 ] || fail "$1 did not appear"
		sleep 0.01
	done
}
custom_result() {
	wait "$custom_pid"
	read -r err ms </run/custom.out
}

# uptime_ms: the time since boot in milliseconds (/proc/uptime: hundredths).
uptime_ms() {
	read -r _up _ </proc/uptime
	echo $((${_up%.*}${_up#*.} * 10))
}

# hold_record NAME: $rec, the hold record of the request for NAME:
# /run/fwload/held/KEY, KEY the request's identity (fwload-pending -k), once the
# request is there (waited for up to 10 s).
hold_record() {
	_dev=/devices/virtual/misc/test_firmware/$(printf %s "$1" | tr / !)
	_i=0
	until _k=$(/lib/fwload/fwload-pending -k "$_dev" 2>/dev/null); do
		_i=$((_i + 1))
		[ "$_i" -le 100 ] || fail "$1: no request after 10 s ($_dev)"
		sleep 0.1
	done
	rec=/run/fwload/held/$_k
}

# held_by NAME: $holder, the agent holding the request for NAME (its hold
# record), waited for up to 10 s.
held_by() {
	hold_record "$1"
	_i=0
	until [ -s "$rec" ]; do
		_i=$((_i + 1))
		[ "$_i" -le 100 ] || fail "$1: no hold record after 10 s ($rec)"
		sleep 0.1
	done
	# shellcheck disable=SC2034 # for the cases
	read -r _ holder _ <"$rec"
}

# hold_procs PID: $procs, the processes of the hold: PID and its children
# (each /proc/N/stat's fourth field is its parent), counted 20 times over
# 2 s; the most seen.
hold_procs() {
	procs=0
	_n=0
	while [ "$_n" -lt 20 ]; do
		_c=0
		for _s in /proc/[0-9]*/stat; do
			read -r _pid _ _ _pp _ 2>/dev/null <"$_s" || continue
			[ "$_pid" = "$1" ] || [ "$_pp" = "$1" ] || continue
			_c=$((_c + 1))
		done
		[ "$_c" -le "$procs" ] || procs=$_c
		sleep 0.1
		_n=$((_n + 1))
	done
}

# runas_user: RUNAS (_fwload-test, uid and gid RUNAS_ID, 64990, which
# nothing else here runs as) added to /etc/passwd, as a package adds the
# system user of its run= programs; runas_user_undo (for the case's EXIT
# trap) puts /etc/passwd back as it was: the host's as a link, or none (a
# busybox root).
RUNAS=_fwload-test
RUNAS_ID=64990
runas_user() {
	passwd_link=$(readlink /etc/passwd 2>/dev/null)
	{
		[ ! -e /etc/passwd ] || cat /etc/passwd
		echo "$RUNAS:x:$RUNAS_ID:$RUNAS_ID:fwload run= programs (test):/nonexistent:/usr/sbin/nologin"
	} >/run/passwd.new || fail "cannot make /etc/passwd"
	{ rm -f /etc/passwd && mv /run/passwd.new /etc/passwd && chmod 644 /etc/passwd; } ||
		fail "cannot replace /etc/passwd"
}
runas_user_undo() {
	rm -f /etc/passwd
	[ -z "${passwd_link-}" ] || ln -s "$passwd_link" /etc/passwd
}
