# SPDX-License-Identifier: MIT
# part: helper
# fwloadctl upload on the board (CONFIG_FW_UPLOAD; test_firmware's
# upload_register, 2 KiB at most an image, inject:PHASE:ERROR; the kernel
# layer's cases/upload-ctl.sh goes through every phase x every error).
# Three devices programmed and read back identical (upload_read): an image
# as it is, an .xz, one checked by the manifest. An error in each phase,
# each its status; too big: preparing:invalid-file-size, 14. Cancelled by
# a second command while it transfers and by Ctrl-C (test/ptyrun) while it
# programs: user-abort, 12. Stopped by SIGTERM while the image is written,
# and a wrong digest: the device idle, nothing handed over. Refused: not
# idle (5), not an upload device, outside sysfs (6). The bar to 100 % on a
# terminal. fwloadctl status lists the devices. Any event source: the
# helper part only.
. ../lib.sh
[ -e "$TF/upload_register" ] || fail "no upload_register: CONFIG_FW_UPLOAD is in test/arm64/kernel.config"
conf FIRMWARE_PATH=$FW LOG=kmsg
devs="fwload-up-a fwload-up-b fwload-up-c"
trap 'for n in $devs; do printf %s "$n" >"$TF/upload_unregister"; done 2>/dev/null' EXIT
for n in $devs; do
	printf %s "$n" >"$TF/upload_register" || fail "upload_register $n"
done
mkdir -p /run/up
tfdev=/devices/virtual/misc/test_firmware

upload() {
	fwloadctl upload "$@" >/run/up/out 2>/run/up/err
	st=$?
}
want() {
	[ "$st" = "$1" ] || fail "status $st, want $1; stdout: $(cat /run/up/out); stderr: $(cat /run/up/err)"
}
readback() {
	printf %s "$1" >"$TF/config_upload_name" || fail "config_upload_name $1"
	cat "$TF/upload_read" >/run/up/read
	cmp -s "$2" /run/up/read || fail "$1 holds $(wc -c </run/up/read) bytes, not $2"
}
idle() {
	read -r _s </sys/class/firmware/"$1"/status
	_e=$(cat /sys/class/firmware/"$1"/error)
	[ "$_s $_e" = "idle $2" ] || fail "$1: status $_s, error '$_e'; want idle, '$2'"
}
phase_is() {
	_i=0
	until read -r _s </sys/class/firmware/"$1"/status && [ "$_s" = "$2" ]; do
		_i=$((_i + 1))
		[ "$_i" -lt 200 ] || fail "$1 never reached $2 (status $_s)"
		sleep 0.1
	done
}

mkimage a.bin 2000
upload fwload-up-a "$FW/a.bin"
want 0
readback fwload-up-a "$FW/a.bin"
cp "$FIXTURES/upload.bin.xz" "$FW/b.bin.xz"
upload fwload-up-b "$FW/b.bin.xz"
want 0
readback fwload-up-b "$FIXTURES/upload.bin"
mkimage c.bin 1999
sum=$(sha256sum <"$FW/c.bin")
sum=${sum%% *}
printf '%s  %s\n' "$sum" c.bin >/run/up/SHA256SUMS
conf FIRMWARE_PATH=$FW LOG=kmsg MANIFEST=/run/up/SHA256SUMS UNLISTED=refuse
upload "/sys$tfdev/fwload-up-c" "$FW/c.bin"
want 0
readback fwload-up-c "$FW/c.bin"
kmsg "fwload: upload fwload-up-c to $tfdev/fwload-up-c: programmed \\($FW/c\\.bin, 1999 bytes, sha256 $sum, [0-9]+ s\\)"
conf FIRMWARE_PATH=$FW LOG=kmsg
echo "ok: three devices programmed (as it is, .xz, the manifest), read back identical"

for e in preparing:hw-error:10 transferring:flash-wearout:16 programming:firmware-invalid:17; do
	printf 'inject:%s' "${e%:*}" >/run/up/inject
	upload fwload-up-a /run/up/inject
	want "${e##*:}"
	grep -q "^fwloadctl: upload fwload-up-a: ${e%:*}: " /run/up/err || fail "${e%:*}: $(cat /run/up/err)"
	idle fwload-up-a "${e%:*}"
done
mkimage big.bin 2049
upload fwload-up-a "$FW/big.bin"
want 14
echo "ok: an error in each phase (10, 16, 17), too big (14)"

# Cancelled: a second command while it transfers; Ctrl-C while it programs.
printf 'inject:transferring:user-abort' >/run/up/inject
(exec fwloadctl upload fwload-up-b /run/up/inject >/run/up/first 2>&1) &
c=$!
phase_is fwload-up-b transferring
upload --cancel fwload-up-b
want 12
wait "$c"
st=$?
[ "$st" = 12 ] || fail "the upload a second command cancelled: $st: $(cat /run/up/first)"
idle fwload-up-b transferring:user-abort
printf 'inject:programming:user-abort' >/run/up/inject
(exec ptyrun fwloadctl upload fwload-up-b /run/up/inject >/run/up/pty 2>&1) &
c=$!
phase_is fwload-up-b programming
kill -USR1 "$c"
wait "$c"
st=$?
[ "$st" = 12 ] || fail "Ctrl-C while programming: $st: $(cat /run/up/pty)"
idle fwload-up-b programming:user-abort
echo "ok: cancelled by a second command and by Ctrl-C: user-abort, 12"

# Stopped while written (an xz that waits for our word), a wrong digest:
# nothing handed over.
upload fwload-up-a "$FW/a.bin"
want 0
mkdir -p /run/slow
printf '#!/bin/sh\nhead -c 1000\n: >/run/slow/started\nsleep 60\ncat\n' >/run/slow/xz
chmod 755 /run/slow/xz
cp "$FW/a.bin" /run/up/slow.bin.xz
(exec env PATH="/run/slow:$PATH" fwloadctl upload fwload-up-a /run/up/slow.bin.xz >/run/up/first 2>&1) &
c=$!
i=0
until [ -e /run/slow/started ]; do
	i=$((i + 1))
	[ "$i" -lt 400 ] || fail "the writing did not start: $(cat /run/up/first)"
	sleep 0.05
done
kill -TERM "$c"
wait "$c"
st=$?
[ "$st" = 3 ] || fail "SIGTERM while writing: $st: $(cat /run/up/first)"
upload --sha256 "$(printf %064d 0)" fwload-up-a "$FW/c.bin"
want 2
idle fwload-up-a ""
readback fwload-up-a "$FW/a.bin"
echo "ok: SIGTERM while writing (3), a wrong digest (2): the device idle, nothing handed over"

# Refused.
printf 'inject:preparing:user-abort' >/run/up/inject
upload --no-wait fwload-up-c /run/up/inject
want 0
phase_is fwload-up-c preparing
upload fwload-up-c "$FW/c.bin"
want 5
fwloadctl status >/run/up/status || fail "status exited $?"
grep -qx "  fwload-up-c  $tfdev/fwload-up-c  status preparing, error (said when idle), remaining_size 27" /run/up/status ||
	fail "status: $(cat /run/up/status)"
upload --cancel fwload-up-c
want 12
upload "/sys$tfdev" "$FW/c.bin"
want 6
upload /run/up "$FW/c.bin"
want 6
echo "ok: refused: not idle (5), not an upload device, outside sysfs (6); status lists the devices"

ptyrun -w 60 fwloadctl upload fwload-up-a "$FW/a.bin" >/run/up/pty 2>&1
st=$?
want 0
tr '\r' '\n' </run/up/pty | grep -q '^writing 2000 B  *\[=*\]  *100% [0-9]:[0-9][0-9].\[K$' ||
	fail "no bar to 100 %: $(tr '\r\033' '|^' </run/up/pty)"
readback fwload-up-a "$FW/a.bin"
echo "ok: the bar to 100 % on a terminal"
