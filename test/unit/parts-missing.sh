# SPDX-License-Identifier: MIT
# A build without a part (make WITH_EXTRACT=no, WITH_RUN=no,
# WITH_MANIFEST=no, WITH_VERIFY=no, WITH_UPLOAD=no, WITH_HOTPLUGD=no) refuses what needs
# it, one line naming the part, fail-closed: a rule's extract=, run= or
# user= cancels its request, the program never runs; MANIFEST= and
# SIGNED=yes cancel every request, never a load unchecked; fwloadctl upload and setup
# --hotplugd change nothing; status names what is not installed. And
# COMPRESSED=yes with no decompressor here says so once. The helpers are
# taken away from a directory of the case's own (own_libexec), so this runs
# against the full build and the minimal one alike.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

own_libexec
rm -f "$LIBEXEC/fwload-extract" "$LIBEXEC/fwload-keep" "$LIBEXEC/fwload-runas" \
	"$LIBEXEC/fwload-sha256" "$LIBEXEC/fwload-verify" "$LIBEXEC/fwloadctl-upload.sh"
R=$T/root
mkdir -p "$R/lib/firmware"
mkimage "$T/art.img" 4096
cat >"$T/prog" <<PROG
#!/bin/sh
: >"$T/ran"
echo image
PROG
chmod 755 "$T/prog"
runas_user
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
cat >"$T/fwload.rules" <<RULES
firmware=cal.bin extract=$T/art.img,0x100,0x80
firmware=run.bin run=$T/prog
firmware=runas.bin run=$T/prog user=$RUNAS
RULES

# refused NAME LINE: the request for NAME cancelled (exit status 111),
# nothing written, LINE its log line.
refused() {
	request "$1"
	run agent firmware
	status_is 111
	file_is "$REQ/loading" -1
	file_is "$REQ/data" ""
	log_has "fwload: cancelled $1 for $E_DEVPATH; $2"
}
refused cal.bin "extract= needs $LIBEXEC/fwload-extract, not installed (the EXTRACT part of fwload); rule $T/fwload.rules:1 refused"
refused run.bin "run= needs $LIBEXEC/fwload-keep, not installed (the RUN part of fwload); rule $T/fwload.rules:2 refused"
no_file "$T/ran"
# fwload-keep there, fwload-runas not: user= names its own program.
[ ! -e "$HELPERS/fwload-keep" ] || ln -s "$HELPERS/fwload-keep" "$LIBEXEC/fwload-keep"
if [ -e "$LIBEXEC/fwload-keep" ]; then
	refused runas.bin "user= needs $LIBEXEC/fwload-runas, not installed (the RUN part of fwload); rule $T/fwload.rules:3 refused"
	no_file "$T/ran"
fi
# explain says the same, and that the request would be cancelled.
request cal.bin
run agent --dry-run cal.bin "$E_DEVPATH"
grep -qx "decision: extract= needs $LIBEXEC/fwload-extract, not installed (the EXTRACT part of fwload); rule $T/fwload.rules:1 refused; the request would be cancelled" "$T/stdout" ||
	fail "--dry-run: $(cat "$T/stdout" "$T/stderr")"
untouched

# MANIFEST= without fwload-sha256: every image refused, one there too.
mkfw "$R/lib/firmware/x.bin" "abc"
printf '%s  x.bin\n' "$(printf abc | sha256sum | cut -d' ' -f1)" >"$T/SUMS"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MANIFEST=$T/SUMS"
refused x.bin "MANIFEST=: a digest to check needs $LIBEXEC/fwload-sha256, not installed (the MANIFEST part of fwload): every image refused"
# SIGNED=yes without fwload-verify: every image refused (fwload-sha256
# there or not), the one line naming the part.
[ ! -e "$HELPERS/fwload-sha256" ] || ln -s "$HELPERS/fwload-sha256" "$LIBEXEC/fwload-sha256"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MANIFEST=$T/SUMS" SIGNED=yes
: >"$LOGF"
refused x.bin "SIGNED=yes needs $LIBEXEC/fwload-verify, not installed (the VERIFY part of fwload): every image refused"
[ "$(wc -l <"$LOGF")" = 1 ] || fail "more than one line: $(cat "$LOGF")"
rm -f "$LIBEXEC/fwload-sha256"

# COMPRESSED=yes, no zstd or xz where the agent looks (its PATH): a line
# for each, once; the plain file still loads.
mkdir -p "$T/bin"
cp -s /usr/bin/* "$T/bin/" 2>/dev/null
rm -f "$T/bin/zstd" "$T/bin/xz" "$T/bin/unxz" "$T/bin/xzcat"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" COMPRESSED=yes
aged  # (said once: the cache remembers it, and is made of older files only)
: >"$LOGF"
request x.bin
KPATH=$T/bin run agent firmware
status_is 0
file_is "$REQ/data" abc
log_has "fwload: $CONF:3: COMPRESSED=yes, but no zstd in PATH ($T/bin): NAME.zst files are skipped"
log_has "fwload: $CONF:3: COMPRESSED=yes, but no xz, unxz or xzcat in PATH ($T/bin): NAME.xz files are skipped"
request x.bin
KPATH=$T/bin run agent firmware
status_is 0
[ "$(grep -c 'COMPRESSED=yes, but' "$LOGF")" = 2 ] || fail "said again: $(cat "$LOGF")"

# fwloadctl, where it is installed: upload and a hotplugd setup refused,
# nothing changed; status lists what is not there.
needs fwloadctl
# ctl_ ARG...: fwloadctl with no hotplugd where it looks for one.
ctl_() {
	# shellcheck disable=SC2086 # TEST_SH is a command line ("busybox sh")
	run kernel_env FWLOAD_HOTPLUGD="$T/no-hotplugd" $TEST_SH "$SBIN/fwloadctl" "$@"
}
mkimage "$T/up.img" 64
run ctl upload some-device "$T/up.img"
status_is 111
stderr_is "fwloadctl: upload needs $LIBEXEC/fwloadctl-upload.sh, not installed (the UPLOAD part of fwload); nothing written"
printf /old-helper >"$T/proc/sys/kernel/hotplug"
mkdir -p "$SYS/class/firmware"
ctl_ setup --hotplugd --replace
status_is 111
stderr_is "fwloadctl: setup: hotplugd needs $T/no-hotplugd, not installed (the HOTPLUGD part of fwload); nothing changed"
file_is "$T/proc/sys/kernel/hotplug" /old-helper
rm -f "$LIBEXEC/fwload-keep"
ctl_ status
status_is 0
grep -qx "parts:    not installed: hotplugd, upload, extract=, run=, user=, MANIFEST=, SIGNED= (refused where asked for)" "$T/stdout" ||
	fail "status: $(cat "$T/stdout")"
