# SPDX-License-Identifier: MIT
# fwloadctl upload DEVICE IMAGE on a fake firmware-upload device: fwload
# writes the image ("1", the image, "0" in loading: handed over), then the
# device's answer is read once it is idle: none means programmed (exit 0,
# a line on stdout); PHASE:ERROR is printed as it is with what it means
# and what to do, and each ERROR has its exit status (10 to 18), whatever
# the phase. One line in the log per upload: device, image, digest, bytes,
# outcome, time. --no-wait returns at the hand-off. The image as for a
# request: NAME.xz decompressed, --sha256 or the manifest (UNLISTED=refuse
# fail-closed) checked by fwload-sha256 in fwload's COMMAND slot, MAX_SIZE;
# a failure there ends in "-1" (nothing handed over, exit 2).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
needs fwloadctl fwloadctl-upload.sh
# shellcheck source=upload-lib
. "$REPO/test/unit/upload-lib"

conf "LOG=$LOGF"
upload_dev up.bin
mkimage "$T/img" 3000
mkdir -p "$T/proc"

# Programmed: the image whole in data, handed over once.
run ctl upload up.bin "$T/img"
status_is 0
file_is "$UP/loading" 10 "loading (the hand-off)"
data_is_up() { cmp -s "$1" "$UP/data" || fail "data differs from $1: $(wc -c <"$UP/data") bytes"; }
data_is_up "$T/img"
# secs FILE: FILE with every time in whole seconds ("in 3 s", "(3 s)") as N.
secs() {
	sed -e 's/ in [0-9]* s/ in N s/' -e 's/([0-9]* s)$/(N s)/' "$1" >"$1.n"
}
secs "$T/stdout"
file_is "$T/stdout.n" "fwloadctl: upload up.bin: programmed: $T/img, 3000 bytes in N s
" stdout
secs "$T/stderr"
file_is "$T/stderr.n" "fwloadctl: upload up.bin: writing $T/img to $UP_DEV
fwloadctl: upload up.bin: handed over 3000 bytes (N s)
" "the plain lines"
log_matches "fwload: upload up\\.bin to $(ere "$UP_DEV"): programmed \\($(ere "$T/img"), 3000 bytes, no digest, [0-9]+ s\\)"
[ "$(wc -l <"$LOGF")" = 1 ] || fail "one log line per upload, got: $(cat "$LOGF")"
for f in "$RUN"/upload.*; do
	no_file "$f" "a file of the upload left in $RUN"
done

# A relative IMAGE is the working directory's; an image of another name.
: >"$LOGF"
: >"$UP/loading"
(cd "$T" && run ctl upload "$SYS/class/firmware/up.bin" img)
st=$?
status_is 0
file_is "$UP/loading" 10 "loading (a sysfs path as DEVICE)"

# Each error of each phase: printed as it is, its meaning, its status.
for e in hw-error:10 timeout:11 user-abort:12 device-busy:13 invalid-file-size:14 \
	read-write-error:15 flash-wearout:16 firmware-invalid:17 something-new:18; do
	for p in preparing transferring programming; do
		: >"$UP/loading"
		: >"$LOGF"
		up_set error "$p:${e%:*}"  # the device fails at once, as the kernel reads it when idle
		run ctl upload --quiet up.bin "$T/img"
		status_is "${e#*:}"
		stdout_is ""
		stderr_matches "fwloadctl: upload up\\.bin: $p:${e%:*}: [^:]+: .+"
		log_matches "fwload: upload up\\.bin to $(ere "$UP_DEV"): $p:${e%:*} \\($(ere "$T/img"), 3000 bytes, no digest, [0-9]+ s\\)"
		file_is "$UP/loading" 10 "loading ($p:${e%:*})"
	done
done
up_set error "transferring:flash-wearout"
run ctl upload -q up.bin "$T/img"
status_is 16
stderr_is "fwloadctl: upload up.bin: transferring:flash-wearout: the device's flash is worn out and can no longer be programmed reliably: replace the device, or its flash"
up_set error ""

# --no-wait: back at the hand-off, whatever the device does then.
: >"$UP/loading"
: >"$LOGF"
up_set status idle
run ctl upload --no-wait up.bin "$T/img"
status_is 0
secs "$T/stdout"
file_is "$T/stdout.n" "fwloadctl: upload up.bin: handed over: $T/img, 3000 bytes in N s; not waited for (--no-wait): fwloadctl status shows the device's progress
" stdout
log_matches "fwload: upload up\\.bin to $(ere "$UP_DEV"): handed over \\($(ere "$T/img"), 3000 bytes, no digest, [0-9]+ s\\)"

# Compressed: NAME.xz through xz, as for a request; the bytes counted are
# the image's.
/usr/bin/xz -c "$T/img" >"$T/img.xz"
: >"$UP/loading"
: >"$LOGF"
run ctl upload up.bin "$T/img.xz"
status_is 0
data_is_up "$T/img"
grep -q "writing $T/img.xz through xz to" "$T/stderr" || fail "no decompressor named: $(cat "$T/stderr")"
log_matches "fwload: upload up\\.bin to .*\\($(ere "$T/img.xz"), 3000 bytes, no digest, [0-9]+ s\\)"
# A damaged one: "-1" after "1", nothing handed over.
head -c 200 "$T/img.xz" >"$T/bad.xz"
: >"$UP/loading"
: >"$LOGF"
run ctl upload up.bin "$T/bad.xz"
status_is 2
file_is "$UP/loading" 1-1 "loading (a damaged .xz)"
grep -q "^fwloadctl: upload up.bin: not handed over: .*xz.* failed .*upload aborted, nothing handed over$" "$T/stderr" ||
	fail "the damaged .xz: $(cat "$T/stderr")"
log_matches "fwload: upload up\\.bin to .*: not handed over: .*\\($(ere "$T/bad.xz"), [0-9]+ bytes, no digest, [0-9]+ s\\)"

# A digest on the command line: checked; a wrong one aborts.
sum=$(sha256sum <"$T/img")
sum=${sum%% *}
: >"$UP/loading"
: >"$LOGF"
run ctl upload --sha256 "$sum" up.bin "$T/img.xz"
status_is 0
data_is_up "$T/img"
log_matches "fwload: upload .*3000 bytes, sha256 $sum, [0-9]+ s\\)"
bad=$(printf %064d 0)
: >"$UP/loading"
run ctl upload --sha256 "$bad" up.bin "$T/img"
status_is 2
file_is "$UP/loading" 1-1 "loading (a wrong --sha256)"
grep -q "SHA-256 mismatch" "$T/stderr" || fail "no mismatch said: $(cat "$T/stderr")"

# The manifest, as for requests: its name for the image is its path in the
# firmware directory that holds it (here FIRMWARE_PATH), else its file name,
# without .xz. Listed: checked; listed with another digest: aborted; not
# listed with UNLISTED=refuse, or listed without a valid digest: refused,
# nothing written; UNLISTED=load: loaded, unchecked, and the log says so.
mkdir -p "$T/fw/vendor"
cp "$T/img.xz" "$T/fw/vendor/card.bin.xz"
cp "$T/img" "$T/loose.bin"
printf '%s  %s\n' "$sum" vendor/card.bin "$sum" loose.bin "$bad" other.bin >"$SUMS"
conf "LOG=$LOGF" "FIRMWARE_PATH=$T/fw" "MANIFEST=$SUMS" UNLISTED=refuse
: >"$UP/loading"
: >"$LOGF"
run ctl upload up.bin "$T/fw/vendor/card.bin.xz"
status_is 0
data_is_up "$T/img"
log_matches "fwload: upload .*3000 bytes, sha256 $sum, [0-9]+ s\\)"
: >"$UP/loading"
run ctl upload up.bin "$T/loose.bin"
status_is 0
cp "$T/img" "$T/other.bin"
: >"$UP/loading"
run ctl upload up.bin "$T/other.bin"
status_is 2
file_is "$UP/loading" 1-1 "loading (a digest the manifest does not match)"
cp "$T/img" "$T/unlisted.bin"
: >"$UP/loading"
run ctl upload up.bin "$T/unlisted.bin"
status_is 2
untouched_up() { file_is "$UP/loading" "" "loading (${1:-refused})"; }
untouched_up "unlisted, UNLISTED=refuse"
stderr_is "fwloadctl: upload: $T/unlisted.bin: unlisted.bin is not in $SUMS, UNLISTED=refuse; refused, nothing written"
printf '%s  %s\n' "xyz" unlisted.bin >>"$SUMS"
run ctl upload up.bin "$T/unlisted.bin"
status_is 2
untouched_up "listed without a valid digest"
conf "LOG=$LOGF" "MANIFEST=$T/none" UNLISTED=load
: >"$LOGF"
run ctl upload up.bin "$T/unlisted.bin"
status_is 0
log_matches "fwload: upload .*3000 bytes, no digest; cannot read the manifest $(ere "$T/none"), unchecked \\(UNLISTED=load\\), [0-9]+ s\\)"
# UNLISTED=refuse with no MANIFEST=: nothing to check against, refused
# (--sha256 still checks).
conf "LOG=$LOGF" UNLISTED=refuse
: >"$UP/loading"
run ctl upload up.bin "$T/unlisted.bin"
status_is 2
untouched_up "UNLISTED=refuse without MANIFEST="
stderr_is "fwloadctl: upload: $T/unlisted.bin: UNLISTED=refuse, but no MANIFEST= to check against (nor --sha256): refused, nothing written"
: >"$UP/loading"
run ctl upload --sha256 "$sum" up.bin "$T/unlisted.bin"
status_is 0

# MAX_SIZE, as for requests: a larger image is refused (an uncompressed one
# before "1"; a stream at the byte past it, "-1" after "1").
conf "LOG=$LOGF" MAX_SIZE=2K
: >"$UP/loading"
run ctl upload up.bin "$T/img"
status_is 2
grep -q "is 3000 bytes, over the limit of 2048" "$T/stderr" || fail "no size limit said: $(cat "$T/stderr")"
file_is "$UP/loading" "-1" "loading (too big: refused before 1)"
head -c 3000 /dev/zero | /usr/bin/xz -c >"$T/zero.xz"
: >"$UP/loading"
run ctl upload up.bin "$T/zero.xz"
status_is 2
file_is "$UP/loading" 1-1 "loading (a stream past MAX_SIZE)"
grep -q "more than 2048 bytes" "$T/stderr" || fail "no size limit said: $(cat "$T/stderr")"
