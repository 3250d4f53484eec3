# SPDX-License-Identifier: MIT
# Every way of changing fwload.conf takes effect on the next event, cache
# or no cache:
#  - two same-size edits within one second on a file system with 1-second
#    times (ext4 made with 128-byte inodes, on a loop file): a cache is
#    never made of a file changed in the second it is made in, or the one
#    before; with nanosecond times, of one changed after its temporary
#    file was made;
#  - an edit while the cache is being made (after the file was read, before
#    the cache is written: MANIFEST= and UNLISTED=refuse added): the stamp
#    was taken before the read;
#  - a file moved in with an older time (mv, as tar or cp -p leave it);
#  - a switch_root: the real root's fwload.conf at the same path, older
#    than the cache the initramfs made; and a cache made before is never
#    fresh after it (its stamp holds "/").
# (Loop devices, mounts, chroot: root only.)
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

[ "$(id -u)" = 0 ] || fail "this case mounts file systems: run it as root"
EXT=$T/ext
NEW=$T/newroot
mkdir -p "$EXT" "$NEW" "$T/etc" "$T/etc2"
trap 'umount "$EXT" 2>/dev/null; rm -rf "$T"' EXIT
R=$T/root
for d in a b c; do
	mkfw "$R/$d/x.bin" "from $d"
done
C=$RUN/conf.cache

# expect DATA: a request for x.bin gets DATA.
expect() {
	request x.bin
	run agent firmware
	status_is 0
	file_is "$REQ/data" "$1" "data ($2)"
}
# next_second: wait for the start of a second (so that what follows, a
# few tens of milliseconds, happens within one).
next_second() {
	s=$(date +%s)
	while [ "$(date +%s)" = "$s" ]; do
		sleep 0.01
	done
}

# 1. ext4 with 128-byte inodes keeps whole seconds.
head -c 4194304 /dev/zero >"$T/ext.img"
mkfs.ext4 -q -I 128 -F "$T/ext.img" >/dev/null 2>&1 || fail "mkfs.ext4 -I 128 failed"
mount -o loop "$T/ext.img" "$EXT" || fail "cannot mount the ext4 image"
CONF=$EXT/fwload.conf
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=/a"
"$LIBEXEC/fwload-stamp" "$CONF" | grep -q '\.000000000:[0-9]*\.000000000:' ||
	fail "times on ext4 -I 128 have nanoseconds: $("$LIBEXEC/fwload-stamp" "$CONF")"
sleep 2
expect "from a" "ext4, first event"
[ -f "$C" ] || fail "no cache of a file two seconds old"
next_second
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=/b"
expect "from b" "ext4, edited"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=/c"
expect "from c" "ext4, edited again in the same second, same size"
umount "$EXT"

# 1b. With nanosecond times a file changed before the cache's temporary
# file was made is cached at once (an initramfs's files are unpacked a
# moment before its first events), and a same-size edit right after is
# still seen.
CONF=$T/fwload.conf
rm -rf "$RUN"
next_second
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=/a"
expect "from a" "nanoseconds, first event"
[ -f "$C" ] || fail "no cache of a file changed just before the first event (nanosecond times)"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=/b"
expect "from b" "nanoseconds, edited in the same second, same size"

# 2. An edit while the cache is made: fwload.conf changed after it was
# read (RULES= names a rules file elsewhere, whose stamp is taken after
# fwload.conf is read: a wrapper of fwload-stamp changes fwload.conf then).
CONF=$T/fwload.conf
M=$T/SHA256SUMS
echo "0000000000000000000000000000000000000000000000000000000000000000  other.bin" >"$M"
: >"$T/board.rules"
needs fwload-sha256
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=/a" "RULES=$T/board.rules"
own_libexec
rm "$LIBEXEC/fwload-stamp"
cat >"$LIBEXEC/fwload-stamp" <<END
#!/bin/sh
if [ "\$1 \$3" = "-R $T/board.rules" ] && [ ! -e "$T/edited" ]; then
	"$HELPERS/fwload-stamp" "\$@"
	st=\$?
	: >"$T/edited"
	printf '%s\\n' "MANIFEST=$M" UNLISTED=refuse >>"$CONF"
	exit \$st
fi
exec "$HELPERS/fwload-stamp" "\$@"
END
chmod 755 "$LIBEXEC/fwload-stamp"
rm -rf "$RUN"
sleep 2
expect "from a" "read before the edit"
LIBEXEC=$HELPERS
[ -e "$T/edited" ] || fail "the file was not edited while the cache was made"
[ -f "$C" ] || fail "no cache made (the edit came after the stamp)"
request x.bin
run agent firmware
status_is 2
file_is "$REQ/loading" -1 "loading after an edit while the cache was made"
log_has "fwload: cancelled x.bin for $E_DEVPATH; not in $M, UNLISTED=refuse"

# 3. A file moved in with an older time, the same size.
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=/a"
sleep 2
expect "from a" "before the move"
[ -f "$C" ] || fail "no cache before the move"
printf '%s\n' "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=/b" >"$T/new.conf"
touch -d 2001-01-01 "$T/new.conf"
mv "$T/new.conf" "$CONF"
expect "from b" "moved in with an older time"

# 4. switch_root: the same paths, another root. fwload.conf is at the
# same path in both roots, the real root's older and the same size. The
# run directory is the same (as /run is moved to the real root).
CONF=$T/etc/fwload.conf
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=/a"
printf '%s\n' "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=/b" >"$T/etc2/fwload.conf"
touch -d 2001-01-01 "$T/etc2/fwload.conf"
sleep 2
expect "from a" "in the first root"
[ -f "$C" ] || fail "no cache in the first root"
cp "$C" "$T/cache.first"
# enter [OTHER]: run the rest of the command line in a new mount namespace,
# chrooted into a new root (the host's /usr, /proc, /dev, and this test's
# directory, the repository and the programs' directory at their paths);
# OTHER: the real root's fwload.conf in place of this one. Under qemu-user
# (make check-cross) fwload is a wrapper in BUILD/qemu that runs BUILD/fwload:
# BUILD goes in too; so does the helpers' directory, where an installed tree
# has it (run-unit's TEST_INSTALL).
progs=$(dirname "$FWBIN")
[ -z "${TEST_QEMU-}" ] || progs=$(dirname "$progs")
cat >"$T/enter" <<END
#!/bin/sh
other=
[ "\$1" != other ] || { other=1; shift; }
mount -t tmpfs newroot "$NEW" && cd "$NEW" && mkdir -p usr proc dev ./$progs ./$T ./$REPO ./$LIBEXEC &&
	mount --bind "$progs" ./$progs && mount --bind "$LIBEXEC" ./$LIBEXEC &&
	ln -s usr/bin bin && ln -s usr/sbin sbin && ln -s usr/lib lib && ln -s usr/lib64 lib64 &&
	mount --bind /usr usr && mount --bind /proc proc && mount --bind /dev dev &&
	mount --bind "$T" ./$T && mount --bind "$REPO" ./$REPO || exit 125
[ -z "\$other" ] || mount --bind "$T/etc2" ./$T/etc || exit 125
exec chroot "$NEW" "\$@"
END
chmod 755 "$T/enter"
unshare -m --propagation private sh "$T/enter" "$LIBEXEC/fwload-stamp" -K "$T/cache.first"
[ $? = 7 ] || fail "a cache made in another root is fresh after the switch_root"
request x.bin
# shellcheck disable=SC2086 # TEST_SH is a command line
run kernel_env unshare -m --propagation private sh "$T/enter" other $TEST_SH "$REPO/firmware.agent" firmware
status_is 0
file_is "$REQ/data" "from b" "data after the switch_root"
