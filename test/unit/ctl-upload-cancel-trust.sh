# SPDX-License-Identifier: MIT
# fwloadctl upload --cancel stops the fwload that writes the image: the
# root fwload that holds the device's lock in the run directory's lock
# directory, that very file open (device and inode). Another user's fwload
# holding a lock on a file of the same inode number on another file system
# (its own fwload -k DIR) is never taken for it: /proc/locks gives only an
# inode number. Before, --cancel could signal that process, say "stopped"
# (3), and leave the real upload writing. Root only (mounts, another user).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=upload-lib
. "$REPO/test/unit/upload-lib"

[ "$(id -u)" = 0 ] || {
	echo "SKIP: not root (mounts, another user)"
	exit 0
}
[ -z "${TEST_QEMU-}" ] || {
	echo "SKIP: under qemu-user /proc/PID/exe is qemu: --cancel finds no fwload (ctl-upload-cancel says so)"
	exit 0
}
# ino PATH: $ino, PATH's inode number (ls -di: busybox pads it with blanks).
ino() {
	ino=$(ls -di "$1") || fail "no $1"
	ino=${ino#"${ino%%[! ]*}"}
	ino=${ino%% *}
}

# Two fresh tmpfs: each numbers its inodes from the same start.
mkdir -p "$T/fsA" "$T/fsB"
mount -t tmpfs -o mode=755 fwload-test-a "$T/fsA" || fail "cannot mount a tmpfs"
trap 'umount -l "$T/fsA" "$T/fsB" 2>/dev/null; rm -rf "$T"' EXIT
mount -t tmpfs -o mode=755 fwload-test-b "$T/fsB" || fail "cannot mount a second tmpfs"
RUN=$T/fsA/fwload
slow_xz
conf "LOG=$LOGF"
upload_dev up.bin
mkimage "$T/img.xz" 3000

# The real upload, held while it writes.
ctl upload up.bin "$T/img.xz" >"$T/first" 2>&1 &
first=$!
until_true "the image being written" [ -e "$T/started" ]
set -- "$RUN"/lock/*
{ [ $# = 1 ] && [ -f "$1" ]; } || fail "no lock file of the upload: $*"
ino "$1"
n=$ino

# Another user's fwload on a request of its own, its lock directory alone
# on the second tmpfs, its lock file given inode number $n there (files
# made before it until the next number is $n).
O=$T/other
L=$T/fsB/lock
mkdir -p "$L" "$O/sys/devices/x"
: >"$O/sys/devices/x/loading"
: >"$O/sys/devices/x/data"
chown -R 65534 "$O" "$L"
chmod 700 "$L"
ino "$L"
m=$ino
i=0
while [ "$m" -lt "$((n - 1))" ]; do
	: >"$T/fsB/fill$i"
	ino "$T/fsB/fill$i"
	m=$ino
	i=$((i + 1))
	[ "$i" -lt 10000 ] || fail "cannot reach inode number $n on the second tmpfs"
done
[ "$m" = "$((n - 1))" ] || fail "the second tmpfs is past inode number $n ($m)"
mkfifo "$O/fifo"
chown 65534 "$O/fifo"
exec 7<>"$O/fifo"  # a writer that never writes: the other fwload waits
chmod 711 "$T"
/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$FWBIN" -s "$O/sys" -k "$L" -l none -t 60 -n other /devices/x - <"$O/fifo" >/dev/null 2>&1 &
other=$!
other_locked() {
	set -- "$L"/*
	[ -f "$1" ] && grep -q " FLOCK .* $other " /proc/locks
}
until_true "the other user's fwload holding its lock" other_locked
set -- "$L"/*
ino "$1"
[ "$ino" = "$n" ] || fail "the other lock file's inode is $ino, not $n"

run ctl upload --cancel up.bin
status_is 3
grep -Eq "^fwloadctl: upload up.bin: stopped while its image was written \\(fwload pid [0-9]+; loading -1\\): nothing handed over$" \
	"$T/stderr" || fail "--cancel: $(cat "$T/stderr")"
wait "$first"
st=$?
status_is 3
file_is "$UP/loading" 1-1 "loading (the real upload stopped)"
kill -0 "$other" 2>/dev/null || fail "--cancel signalled the other user's fwload"
kill "$other"
wait "$other"
exec 7<&-
