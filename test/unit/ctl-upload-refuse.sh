# SPDX-License-Identifier: MIT
# fwloadctl upload refuses, with one line saying why, its own exit status
# and nothing written to any device: a caller who is not root (4), a path
# that leaves sysfs, a name that is no device, a pending request (the
# agent's to answer) and a directory that is no firmware device (6), a
# device that is not idle (5, its status said) or that fwload is writing
# an image to (5), an image that is no readable regular file (2), usage
# errors (100). Nothing is logged for a refusal.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=upload-lib
. "$REPO/test/unit/upload-lib"

conf "LOG=$LOGF"
upload_dev up.bin
mkimage "$T/img" 1000
: >"$LOGF"

# refused STATUS TEXT: the last run exited STATUS with TEXT on stderr, and
# wrote nothing (the device's loading and data empty, cancel too, no log).
refused() {
	status_is "$1"
	stderr_is "$2"
	stdout_is ""
	file_is "$UP/loading" "" "loading (refused)"
	file_is "$UP/data" "" "data (refused)"
	file_is "$UP/cancel" "" "cancel (refused)"
	file_is "$LOGF" "" "the log (refused)"
}

# Not root: setpriv drops to the overflow uid (the files are not its).
[ -x /usr/bin/setpriv ] || fail "no setpriv (util-linux)"
if [ "$(id -u)" = 0 ]; then
	chmod 755 "$T"
	# shellcheck disable=SC2086 # TEST_SH is a command line ("busybox sh")
	run kernel_env /usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups $TEST_SH "$SBIN/fwloadctl" upload up.bin "$T/img"
	refused 4 "fwloadctl: upload: only root may upload to a device (the lock and the device's files are root's); nothing written"
	chmod 700 "$T"
fi

# A path out of sysfs: the name's link leads out, or the path itself.
mkdir -p "$T/outside/fake"
for f in loading remaining_size status; do echo idle >"$T/outside/fake/$f"; done
ln -s "$T/outside/fake" "$SYS/class/firmware/escape"
run ctl upload escape "$T/img"
refused 6 "fwloadctl: upload: escape: $T/outside/fake is not a device of $SYS (a path that leaves sysfs); refused, nothing written"
run ctl upload "$SYS/devices/../../outside/fake" "$T/img"
refused 6 "fwloadctl: upload: $SYS/devices/../../outside/fake: $T/outside/fake is not a device of $SYS (a path that leaves sysfs); refused, nothing written"
run ctl upload .. "$T/img"
refused 6 "fwloadctl: upload: ..: $SYS/class is not a device of $SYS (a path that leaves sysfs); refused, nothing written"
run ctl upload none.bin "$T/img"
refused 6 "fwloadctl: upload: none.bin: no such device (none of that name in $SYS/class/firmware/); nothing written"
file_is "$T/outside/fake/status" "idle
" "the device outside sysfs"

# A pending request is the agent's; a device of no firmware kind.
pending req.bin
run ctl upload req.bin "$T/img"
refused 6 "fwloadctl: upload: req.bin: a pending firmware request, not a firmware-upload device: the firmware agent answers it (fwloadctl rescan); nothing written"
file_is "$REQ/loading" "" "the pending request's loading"
mkdir -p "$SYS/devices/virtual/other"
run ctl upload "$SYS/devices/virtual/other" "$T/img"
refused 6 "fwloadctl: upload: $SYS/devices/virtual/other: not a firmware-upload device ($SYS/devices/virtual/other has no loading and remaining_size); nothing written"

# Not idle: its status said; an image being written (loading 1).
up_set status programming
run ctl upload up.bin "$T/img"
refused 5 "fwloadctl: upload: up.bin: busy, its status is programming (an upload under way: fwloadctl status shows it, fwloadctl upload --cancel up.bin stops it); nothing written"
up_set status idle
echo 1 >"$UP/loading"
run ctl upload up.bin "$T/img"
status_is 5
stderr_is "fwloadctl: upload: up.bin: busy, an image is being written to it (loading 1; fwloadctl upload --cancel up.bin stops fwload); nothing written"
file_is "$UP/loading" "1
" "loading (an image being written)"
: >"$UP/loading"

# No such image, a directory, "-".
run ctl upload up.bin "$T/none.bin"
refused 2 "fwloadctl: upload: $T/none.bin: not a readable regular file; nothing written"
run ctl upload up.bin "$T"
refused 2 "fwloadctl: upload: $T: not a readable regular file; nothing written"
for args in "up.bin -" "up.bin" "up.bin $T/img extra" "--timeout x up.bin $T/img" "--timeout 12345678 up.bin $T/img" \
	"--sha256 abc up.bin $T/img" "--sha256" "--cancel up.bin $T/img" "--bogus up.bin $T/img" "--cancel"; do
	# shellcheck disable=SC2086 # ARG...
	run ctl upload $args
	status_is 100
	grep -q '^usage: fwloadctl' "$T/stderr" || fail "upload $args: no usage: $(cat "$T/stderr")"
	file_is "$UP/loading" "" "loading (upload $args)"
done
file_is "$LOGF" "" "the log after the refusals"

# A digest to check (--sha256, or the manifest's) and no fwload-sha256 (a
# build without the MANIFEST part): refused, nothing written.
own_libexec
rm -f "$LIBEXEC/fwload-sha256"
run ctl upload --sha256 "$(sha256sum <"$T/img" | cut -d' ' -f1)" up.bin "$T/img"
refused 111 "fwloadctl: upload: $T/img: a digest to check needs $LIBEXEC/fwload-sha256, not installed (the MANIFEST part of fwload); nothing written"
