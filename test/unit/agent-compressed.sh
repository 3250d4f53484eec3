# SPDX-License-Identifier: MIT
# Compressed firmware, in the kernel's order: NAME in every directory, then
# NAME.zst in every directory, then NAME.xz. The image is decompressed on
# the way (zstd; xz, or busybox unxz/xzcat), never to a file. A file no
# program here can decompress is skipped and said; a corrupt one aborts
# ("1-1", exit 2). COMPRESSED=no (the default) looks for NAME only.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
echo 6.12.0-test >"$T/proc/sys/kernel/osrelease"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=/extra" COMPRESSED=yes
up=$R/lib/firmware/updates
base=$R/lib/firmware
mkdir -p "$up" "$base" "$R/extra"
mkimage "$T/a" 200000
mkimage "$T/b" 100001
mkimage "$T/c" 3000
/usr/bin/zstd -q -c "$T/a" >"$up/x.bin.zst" || fail zstd
/usr/bin/xz -c "$T/b" >"$up/x.bin.xz" || fail xz
cp "$T/c" "$R/extra/x.bin"

# The plain file, even in the last directory, before any .zst.
request x.bin
run agent firmware
status_is 0
data_is "$T/c"
rm "$R/extra/x.bin"
# Then .zst before .xz.
request x.bin
run agent firmware
status_is 0
file_is "$REQ/loading" 10
data_is "$T/a"
log_matches "fwload: loaded x\.bin \(200000 bytes, [0-9]+ ms\) from $(ere "$up/x.bin.zst") via .*zstd for $(ere "$E_DEVPATH")"
rm "$up/x.bin.zst"
request x.bin
run agent firmware
status_is 0
data_is "$T/b"
log_matches "fwload: loaded x\.bin \(100001 bytes, [0-9]+ ms\) from $(ere "$up/x.bin.xz") via .*xz for $(ere "$E_DEVPATH")"

needs fwloadctl
run ctl explain x.bin
status_is 0
grep -Eqx "search:   $(ere "$up/x.bin.xz"): found, decompressed by .*xz -dc" "$T/stdout" || fail "$(cat "$T/stdout")"
grep -qx "decision: load $up/x.bin.xz, $(wc -c <"$up/x.bin.xz") bytes before decompression" "$T/stdout" ||
	fail "$(cat "$T/stdout")"

# Corrupt (truncated): aborted after the start, whatever was written.
head -c 50000 "$T/b" >"$T/half"
/usr/bin/xz -c "$T/b" | head -c 30000 >"$up/x.bin.xz"
request x.bin
run agent firmware
status_is 2
file_is "$REQ/loading" 1-1
log_matches "fwload: x\.bin: .*xz failed \(exit status [0-9]+\) on $(ere "$up/x.bin.xz"): .*; request aborted"

# The helper's PATH has no decompressor: .zst skipped and said, then .xz
# through busybox's unxz when that is all there is.
# (A PATH of links to everything in the usual one but the decompressors.)
mkdir "$T/bin"
for f in /usr/local/bin/* /usr/sbin/* /usr/bin/* /sbin/* /bin/*; do
	case ${f##*/} in zstd | xz | unxz | xzcat) continue ;; esac
	[ -e "$T/bin/${f##*/}" ] || ln -s "$f" "$T/bin/${f##*/}"
done
KPATH=$T/bin
/usr/bin/zstd -q -c "$T/a" >"$base/y.bin.zst"
request y.bin
run agent firmware
status_is 1
file_is "$REQ/loading" -1
log_matches "fwload: cancelled y\.bin for $(ere "$E_DEVPATH"); not found in .*; skipped $(ere "$base/y.bin.zst") \(no zstd to decompress it\)"
/usr/bin/xz -c "$T/b" >"$R/extra/y.bin.xz"
for bb in /bin/busybox /usr/bin/busybox; do
	[ -x "$bb" ] && break
done
ln -s "$bb" "$T/bin/unxz"
request y.bin
run agent firmware
status_is 0
data_is "$T/b"
log_matches "fwload: loaded y\.bin \(100001 bytes, [0-9]+ ms\) from $(ere "$R/extra/y.bin.xz") via .*unxz for $(ere "$E_DEVPATH"); skipped $(ere "$base/y.bin.zst") \\(no zstd to decompress it\\)"

# COMPRESSED=no, or not set: only y.bin itself.
for c in COMPRESSED=no ''; do
	conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=/extra" $c
	request y.bin
	run agent firmware
	status_is 1
	file_is "$REQ/loading" -1
done
