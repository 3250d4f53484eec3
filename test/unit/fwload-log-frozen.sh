# SPDX-License-Identifier: MIT
# No log sink keeps fwload alive past its answer: a log file (-l /FILE) on
# a frozen file system (fsfreeze on a loop-mounted ext4) blocks its writer
# in the kernel, and fwload writes it from a child it waits for one second
# at most. fwload answers, exits with the load's status well within a
# generous guard, and the line arrives once the file system thaws. (Before,
# fwload itself hung in the write until the thaw: a hotplugd job slot held
# for as long.)
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

# util-linux's fsfreeze by its path (not busybox's applet)
for FSFREEZE in /usr/sbin/fsfreeze /sbin/fsfreeze ''; do
	[ -x "$FSFREEZE" ] && break
done
[ -n "$FSFREEZE" ] || fail "no fsfreeze (util-linux)"
M=$T/mnt
mkdir -p "$M"
{ truncate -s 8M "$T/fs.img" && mkfs.ext4 -q "$T/fs.img"; } || fail "cannot make an ext4 image"
mount -o loop "$T/fs.img" "$M" || fail "cannot loop-mount an ext4 image (root and loop devices needed)"
trap '"$FSFREEZE" -u "$M" 2>/dev/null; umount "$M" 2>/dev/null; rm -rf "$T"' EXIT
: >"$M/log"
"$FSFREEZE" -f "$M" || fail "fsfreeze -f failed"

mkimage "$T/img" 5000
request x.bin
env -i PATH="$KPATH" "$FWLOAD" -s "$SYS" -k "$T/lock" -l "$M/log" "$E_DEVPATH" "$T/img" \
	>"$T/stdout" 2>"$T/stderr" &
pid=$!
fw_gone() { ! kill -0 "$pid" 2>/dev/null; }
until_true "fwload's end (the bound is 1 s past the answer; frozen, the log write never ends)" fw_gone
wait "$pid"
st=$?
status_is 0
file_is "$REQ/loading" 10
data_is "$T/img"
[ ! -s "$M/log" ] || fail "the log was written on a frozen file system"
"$FSFREEZE" -u "$M"
until_true "the log line after the thaw ($M/log)" grep -q '^fwload: loaded x\.bin (5000 bytes' "$M/log"
