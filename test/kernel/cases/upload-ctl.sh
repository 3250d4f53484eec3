# SPDX-License-Identifier: MIT
# fwloadctl upload on real firmware-upload devices (CONFIG_FW_UPLOAD;
# test_firmware's upload_register, 2 KiB at most an image; an image that
# begins "inject:PHASE:ERROR" makes that phase fail with ERROR, and
# "inject:PHASE:user-abort" makes it wait for a cancel: the kernel's
# tools/testing/selftests/firmware/fw_upload.sh). Three devices programmed,
# each read back identical (upload_read): one from an image as it is, one
# from an .xz, one checked by the manifest. Every phase x every error, each
# with its exit status and line. Cancel in each phase by Ctrl-C (typed on a
# pseudo-terminal, test/ptyrun) and by a second command: user-abort, 12.
# Too big: preparing:invalid-file-size, 14. Each refusal, nothing written.
# A failure or a stop while the image is written (Ctrl-C, SIGTERM, the
# second command, a digest that does not match, a damaged .xz): the device
# idle, nothing handed over (its error and what upload_read gives as
# before). The progress bar on a terminal to 100 %, plain lines without.
# fwloadctl status lists the devices. The log line of each upload.
. ../lib.sh
[ -e "$TF/upload_register" ] || { echo "SKIP: no upload_register (CONFIG_FW_UPLOAD off)"; exit 77; }
PTYRUN=/src/test/ptyrun
[ -x "$PTYRUN" ] || fail "no $PTYRUN (make test/ptyrun)"
conf FIRMWARE_PATH=/run/fw LOG=kmsg
devs="fwload-up-a fwload-up-b fwload-up-c"
trap 'for n in $devs; do printf %s "$n" >"$TF/upload_unregister"; done 2>/dev/null; rm -rf /run/slow /run/up' EXIT
for n in $devs; do
	printf %s "$n" >"$TF/upload_register" || fail "upload_register $n"
done
mkdir -p /run/up
tfdev=/devices/virtual/misc/test_firmware

# upload ARG...: fwloadctl upload ARG...; $st, /run/up/out, /run/up/err.
upload() {
	/sbin/fwloadctl upload "$@" >/run/up/out 2>/run/up/err
	st=$?
}
# want STATUS: the last upload's status.
want() {
	[ "$st" = "$1" ] || fail "status $st, want $1; stdout: $(cat /run/up/out); stderr: $(cat /run/up/err)"
}
# readback NAME FILE: the device NAME holds FILE (upload_read).
readback() {
	printf %s "$1" >"$TF/config_upload_name" || fail "config_upload_name $1"
	cat "$TF/upload_read" >/run/up/read || fail "upload_read $1"
	cmp -s "$2" /run/up/read || fail "$1 holds $(wc -c </run/up/read) bytes, not $2 ($(wc -c <"$2"))"
}
# idle NAME ERROR: NAME is idle, loading 0, its error ERROR (empty: none).
idle() {
	read -r _s </sys/class/firmware/"$1"/status
	read -r _l </sys/class/firmware/"$1"/loading
	_e=$(cat /sys/class/firmware/"$1"/error)
	[ "$_s $_l $_e" = "idle 0 $2" ] || fail "$1: status $_s, loading $_l, error '$_e'; want idle, 0, '$2'"
}
# phase_is NAME PHASE [FILE]: wait (10 s at most) for NAME's status to
# read PHASE (FILE: the upload's output, said on failure).
phase_is() {
	_i=0
	until read -r _s </sys/class/firmware/"$1"/status && [ "$_s" = "$2" ]; do
		_i=$((_i + 1))
		[ "$_i" -lt 100 ] || fail "$1 never reached $2 (status $_s)${3:+: $(tr '\r\033' '|^' <"$3")}"
		sleep 0.1
	done
}

# --- Three devices programmed, each identical.
mkimage up-a.bin 2000
upload fwload-up-a "$FW/up-a.bin"
want 0
grep -q "^fwloadctl: upload fwload-up-a: programmed: $FW/up-a.bin, 2000 bytes in [0-9]* s$" /run/up/out ||
	fail "fwload-up-a: $(cat /run/up/out)"
readback fwload-up-a "$FW/up-a.bin"
idle fwload-up-a ""
kmsg "fwload: upload fwload-up-a to $tfdev/fwload-up-a: programmed \\($FW/up-a\\.bin, 2000 bytes, no digest, [0-9]+ s\\)"
echo "ok: fwload-up-a programmed, read back identical"
cp /fixtures/upload.bin.xz "$FW/up-b.bin.xz"
upload /sys/class/firmware/fwload-up-b "$FW/up-b.bin.xz"
want 0
readback fwload-up-b /fixtures/upload.bin
kmsg "fwload: upload fwload-up-b to $tfdev/fwload-up-b: programmed \\($FW/up-b\\.bin\\.xz, 2000 bytes, no digest, [0-9]+ s\\)"
echo "ok: fwload-up-b programmed from an .xz, read back identical"
mkimage up-c.bin 1999
sum=$(sha256sum <"$FW/up-c.bin")
sum=${sum%% *}
printf '%s  %s\n' "$sum" up-c.bin >/run/up/SHA256SUMS
conf FIRMWARE_PATH=/run/fw LOG=kmsg MANIFEST=/run/up/SHA256SUMS UNLISTED=refuse
upload "/sys$tfdev/fwload-up-c" "$FW/up-c.bin"
want 0
readback fwload-up-c "$FW/up-c.bin"
kmsg "fwload: upload fwload-up-c to $tfdev/fwload-up-c: programmed \\($FW/up-c\\.bin, 1999 bytes, sha256 $sum, [0-9]+ s\\)"
echo "ok: fwload-up-c programmed, checked by the manifest, read back identical"

# --- A failure while the image is written: nothing handed over. A copy
# that does not match the manifest, a wrong --sha256, a damaged .xz.
cp "$FW/up-c.bin" "$FW/other.bin"
printf x >>"$FW/other.bin"
printf '%s  %s\n' "$sum" other.bin >>/run/up/SHA256SUMS
upload fwload-up-c "$FW/other.bin"
want 2
grep -q "SHA-256 mismatch" /run/up/err || fail "no mismatch said: $(cat /run/up/err)"
conf FIRMWARE_PATH=/run/fw LOG=kmsg
upload --sha256 "$(printf %064d 0)" fwload-up-c "$FW/up-a.bin"
want 2
head -c 100 /fixtures/upload.bin.xz >"$FW/cut.bin.xz"
upload fwload-up-c "$FW/cut.bin.xz"
want 2
grep -q "^fwloadctl: upload fwload-up-c: not handed over: .*; upload aborted, nothing handed over$" /run/up/err ||
	fail "the damaged .xz: $(cat /run/up/err)"
idle fwload-up-c ""
readback fwload-up-c "$FW/up-c.bin"
echo "ok: a digest mismatch, a wrong --sha256, a damaged .xz: 2, the device idle, nothing handed over"

# --- Every phase x every error, each with its status.
for e in hw-error:10 timeout:11 device-busy:13 invalid-file-size:14 read-write-error:15 \
	flash-wearout:16 firmware-invalid:17; do
	for p in preparing transferring programming; do
		printf 'inject:%s:%s' "$p" "${e%:*}" >/run/up/inject
		upload -q fwload-up-a /run/up/inject
		want "${e#*:}"
		grep -q "^fwloadctl: upload fwload-up-a: $p:${e%:*}: [^:]*: " /run/up/err || fail "$p:${e%:*}: $(cat /run/up/err)"
		[ ! -s /run/up/out ] || fail "--quiet printed: $(cat /run/up/out)"
		idle fwload-up-a "$p:${e%:*}"
	done
done
kmsg "fwload: upload fwload-up-a to $tfdev/fwload-up-a: programming:firmware-invalid \\(/run/up/inject, 35 bytes, no digest, [0-9]+ s\\)"
echo "ok: 3 phases x 7 errors, each its status"
# Too big for the device: the kernel's own size check.
mkimage big.bin 2049
upload fwload-up-a "$FW/big.bin"
want 14
grep -q "^fwloadctl: upload fwload-up-a: preparing:invalid-file-size: the device refused the image's size" /run/up/err ||
	fail "too big: $(cat /run/up/err)"
echo "ok: 2049 bytes: preparing:invalid-file-size, 14"

# --- status: the devices, their status, error and remaining_size.
/sbin/fwloadctl status >/run/up/status || fail "fwloadctl status exited $?"
grep -qx "  fwload-up-a  $tfdev/fwload-up-a  status idle, error preparing:invalid-file-size, remaining_size 2049" /run/up/status ||
	fail "status: $(cat /run/up/status)"
grep -qx "  fwload-up-b  $tfdev/fwload-up-b  status idle, error none, remaining_size 0" /run/up/status ||
	fail "status: $(cat /run/up/status)"
echo "ok: fwloadctl status lists the upload devices"

# --- Cancel in each phase: Ctrl-C typed on a terminal, then a second
# command (which reports the same outcome).
for how in ctrl-c command; do
	for p in preparing transferring programming; do
		printf 'inject:%s:user-abort' "$p" >/run/up/inject
		# (exec: $! is ptyrun, or fwloadctl, itself)
		if [ "$how" = ctrl-c ]; then
			(exec "$PTYRUN" /sbin/fwloadctl upload fwload-up-b /run/up/inject >/run/up/pty 2>&1) &
		else
			(exec /sbin/fwloadctl upload fwload-up-b /run/up/inject >/run/up/pty 2>&1) &
		fi
		c=$!
		phase_is fwload-up-b "$p" /run/up/pty
		if [ "$how" = ctrl-c ]; then
			kill -USR1 "$c"
		else
			upload --cancel fwload-up-b
			want 12
			grep -q "^fwloadctl: upload fwload-up-b: $p:user-abort: " /run/up/err || fail "the second command: $(cat /run/up/err)"
		fi
		wait "$c"
		st=$?
		[ "$st" = 12 ] || fail "$how in $p: status $st: $(cat /run/up/pty)"
		grep -q "fwloadctl: upload fwload-up-b: $p:user-abort: the upload was cancelled" /run/up/pty ||
			fail "$how in $p: $(cat /run/up/pty)"
		idle fwload-up-b "$p:user-abort"
	done
done
kmsg "fwload: upload fwload-up-b to $tfdev/fwload-up-b: cancel requested while programming \\(fwloadctl upload --cancel\\)"
echo "ok: cancelled in each phase by Ctrl-C and by a second command: user-abort, 12"

# --- Stopped while the image is written (an xz that gives 1000 bytes and
# then waits holds fwload between 1 and 0): Ctrl-C, SIGTERM, a second
# command; each ends fwload, and fwload the xz (its COMMAND). The xz waits as one
# sleep, not a loop of them: UML 6.12 panics when a fork is cut short by
# SIGKILL ("Kernel mode fault" in tlb_flush from copy_process's mmput: a
# kernel bug, doc/kernel-facts.md), and a loop forks every 50 ms.
mkdir -p /run/slow
cat >/run/slow/xz <<'END'
#!/bin/sh
head -c 1000
: >/run/slow/started
exec sleep 600
END
chmod 755 /run/slow/xz
cp "$FW/up-a.bin" /run/up/slow.bin.xz  # passed on as it is
upload fwload-up-a "$FW/up-a.bin"
want 0
for how in ctrl-c term command; do
	rm -f /run/slow/started /run/slow/go
	case $how in
	ctrl-c) (exec env PATH="/run/slow:$PATH" "$PTYRUN" /sbin/fwloadctl upload fwload-up-a /run/up/slow.bin.xz >/run/up/pty 2>&1) & ;;
	*) (exec env PATH="/run/slow:$PATH" /sbin/fwloadctl upload fwload-up-a /run/up/slow.bin.xz >/run/up/pty 2>&1) & ;;
	esac
	c=$!
	i=0
	until [ -e /run/slow/started ]; do
		i=$((i + 1))
		[ "$i" -lt 200 ] || fail "$how: the writing did not start: $(cat /run/up/pty)"
		sleep 0.05
	done
	read -r l </sys/class/firmware/fwload-up-a/loading
	[ "$l" = 1 ] || fail "$how: loading $l while the image is written"
	case $how in
	ctrl-c) kill -USR1 "$c" ;;
	term) kill -TERM "$c" ;;
	command)
		upload --cancel fwload-up-a
		want 3
		;;
	esac
	wait "$c"
	st=$?
	: >/run/slow/go
	[ "$st" = 3 ] || fail "$how while writing: status $st: $(cat /run/up/pty)"
	grep -q "fwloadctl: upload fwload-up-a: stopped while its image was written" /run/up/pty ||
		fail "$how while writing: $(cat /run/up/pty)"
	idle fwload-up-a ""
	readback fwload-up-a "$FW/up-a.bin"
done
echo "ok: Ctrl-C, SIGTERM and a second command while writing: 3, the device idle, nothing handed over"

# --- Refusals: nothing written.
printf 'inject:transferring:user-abort' >/run/up/inject
upload --no-wait fwload-up-c /run/up/inject
want 0
phase_is fwload-up-c transferring
upload fwload-up-c "$FW/up-c.bin"
want 5
grep -qx "fwloadctl: upload: fwload-up-c: busy, its status is transferring (an upload under way: fwloadctl status shows it, fwloadctl upload --cancel fwload-up-c stops it); nothing written" /run/up/err ||
	fail "not idle: $(cat /run/up/err)"
upload --cancel fwload-up-c
want 12
idle fwload-up-c "transferring:user-abort"
custom_request fwload-test-up-pending.bin
upload fwload-test-up-pending.bin "$FW/up-a.bin"
want 6
grep -q "a pending firmware request, not a firmware-upload device: the firmware agent answers it" /run/up/err ||
	fail "a pending request: $(cat /run/up/err)"
read -r l <"/sys$dev/loading"
[ "$l" = 0 ] || fail "the pending request's loading reads $l"
printf %s -1 >"/sys$dev/loading"
custom_result
mkdir -p /run/up/fake
for f in loading remaining_size; do echo 0 >"/run/up/fake/$f"; done
echo idle >/run/up/fake/status
upload /run/up/fake "$FW/up-a.bin"
want 6
grep -q "is not a device of /sys (a path that leaves sysfs)" /run/up/err || fail "outside sysfs: $(cat /run/up/err)"
[ "$(cat /run/up/fake/loading)" = 0 ] || fail "the fake outside sysfs was written"
upload /sys/class/firmware/../.. "$FW/up-a.bin"
want 6
upload fwload-up-none "$FW/up-a.bin"
want 6
if setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups /sbin/fwloadctl upload fwload-up-a "$FW/up-a.bin" \
		>/run/up/out 2>/run/up/err
	st=$?
	want 4
	echo "ok: not root: 4"
else
	echo "ok: (not root: no setpriv that drops the uid in this root; the fast layer shows it)"
fi
readback fwload-up-a "$FW/up-a.bin"
echo "ok: refused: not idle (5), a pending request, outside sysfs, no device (6)"

# --- Progress: on a terminal the bar to 100 %, one line; plain lines
# without.
"$PTYRUN" -w 60 /sbin/fwloadctl upload fwload-up-a "$FW/up-a.bin" >/run/up/pty 2>&1
st=$?
want 0
tr '\r' '\n' </run/up/pty | awk '/\033\[K$/ { sub(/\033\[K$/, ""); print }' >/run/up/bars
grep -Eq '^writing 2000 B +\[=+\] +100% [0-9]:[0-9][0-9]$' /run/up/bars || fail "no bar to 100 %: $(cat /run/up/bars)"
awk 'length($0) >= 60 { exit 1 }' /run/up/bars || fail "wider than the terminal: $(cat /run/up/bars)"
[ "$(tr -cd '\n' </run/up/pty | wc -c)" -eq 2 ] || fail "not one line redrawn: $(tr '\r\033' '|^' </run/up/pty)"
upload fwload-up-a "$FW/up-a.bin"
want 0
grep -q "^fwloadctl: upload fwload-up-a: writing $FW/up-a.bin to $tfdev/fwload-up-a$" /run/up/err ||
	fail "plain lines: $(cat /run/up/err)"
grep -q "^fwloadctl: upload fwload-up-a: handed over 2000 bytes ([0-9]* s)$" /run/up/err || fail "plain lines: $(cat /run/up/err)"
! grep -q "$(printf '\r')" /run/up/err || fail "a carriage return without a terminal"
readback fwload-up-a "$FW/up-a.bin"
echo "ok: the bar to 100 % on a terminal, plain lines without"
