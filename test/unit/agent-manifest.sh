# SPDX-License-Identifier: MIT
# MANIFEST=FILE (sha256sum format): an image it lists loads only if its
# SHA-256 matches -- of the image as the driver gets it, so after any
# decompression. UNLISTED=load (the default) lets the others through;
# UNLISTED=refuse aborts them, and everything when the manifest cannot be
# read. fwloadctl explain says which.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
needs fwload-sha256

R=$T/root
M=$T/SHA256SUMS
echo 6.12.0-test >"$T/proc/sys/kernel/osrelease"
fw=$R/lib/firmware
mkimage "$fw/good.bin" 70000
mkimage "$fw/vendor/sub.bin" 5000
mkimage "$T/orig" 9000
/usr/bin/zstd -q -c "$T/orig" >"$fw/packed.bin.zst" || fail zstd
mkimage "$fw/bad.bin" 100
mkimage "$fw/other.bin" 100
mkimage "$fw/stray.bin" 100
# As sha256sum writes it, with "./" and binary-mode "*" forms, and a
# digest for the decompressed image.
# Decoys first: names that contain good.bin, and a long list around it.
zero=0000000000000000000000000000000000000000000000000000000000000000
{
	i=0
	while [ $i -lt 3000 ]; do
		echo "$zero  other/file-$i.bin"
		i=$((i + 1))
	done
	echo "$zero  xgood.bin"
	echo "$zero  good.bin.old"
	echo "$zero  sub/good.bin"
} >"$M"
(cd "$fw" && sha256sum good.bin ./vendor/sub.bin) >>"$M"
# A name that every digest above contains.
mkimage "$fw/0" 10
(cd "$fw" && sha256sum 0) >>"$M"
sum=$(sha256sum <"$fw/other.bin")
echo "${sum%% *} *bad.bin" >>"$M"
sum=$(sha256sum <"$T/orig")
echo "${sum%% *}  packed.bin" >>"$M"
echo "not-a-digest  stray.bin" >>"$M"
# A name listed with a digest one hex digit short, one listed twice with
# two digests (the right one first), one twice with the same digest.
mkimage "$fw/short.bin" 100
mkimage "$fw/twice.bin" 100
mkimage "$fw/same.bin" 100
sum=$(sha256sum <"$fw/short.bin")
s64=${sum%% *}
echo "${s64#?}  short.bin" >>"$M"
sum=$(sha256sum <"$fw/twice.bin")
echo "${sum%% *}  twice.bin" >>"$M"
echo "$zero  ./twice.bin" >>"$M"
sum=$(sha256sum <"$fw/same.bin")
echo "${sum%% *}  same.bin" >>"$M"
echo "${sum%% *} *./same.bin" >>"$M"

conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MANIFEST=$M" COMPRESSED=yes
for name in good.bin vendor/sub.bin 0 same.bin packed.bin; do
	request "$name"
	run agent firmware
	status_is 0
	file_is "$REQ/loading" 10 "loading for $name"
done
data_is "$T/orig"
log_matches "fwload: loaded packed\.bin \(9000 bytes, [0-9]+ ms\) from .* via .*/fwload-sha256 for .*"

request bad.bin
run agent firmware
status_is 2
file_is "$REQ/loading" 1-1
log_matches "fwload: bad\.bin: .*/fwload-sha256 failed \(exit status 1\) on $(ere "$fw/bad.bin"): fwload-sha256: SHA-256 mismatch: got [0-9a-f]{64}, want [0-9a-f]{64}; request aborted"

# Not listed: loaded, unchecked ...
request other.bin
run agent firmware
status_is 0
file_is "$REQ/loading" 10 "loading for unlisted other.bin"
log_matches "fwload: loaded other\.bin \([0-9]+ bytes, [0-9]+ ms\) from $(ere "$fw/other.bin") for $(ere "$E_DEVPATH"); $(ere "not in $M"); loaded unchecked \(UNLISTED=load\)"
# ... but a listed name with no usable digest, or with two different ones,
# is refused whatever UNLISTED says: the manifest fails closed for it.
for name in stray.bin short.bin twice.bin; do
	request "$name"
	run agent firmware
	status_is 2
	file_is "$REQ/loading" -1 "loading for $name (listed, no usable digest)"
	why="listed in $M without a valid SHA-256"
	[ "$name" != twice.bin ] || why="listed in $M twice, with different SHA-256s"
	log_has "fwload: cancelled $name for $E_DEVPATH; $why; refused"
done
run ctl explain twice.bin
status_is 2
grep -qx "manifest: $M: twice.bin listed in $M twice, with different SHA-256s" "$T/stdout" || fail "$(cat "$T/stdout")"
run ctl explain other.bin
grep -qx "manifest: $M: other.bin not listed; UNLISTED=load" "$T/stdout" || fail "$(cat "$T/stdout")"
run ctl explain good.bin
grep -Eqx "manifest: $(ere "$M") lists good\.bin: [0-9a-f]{64}, checked while loading" "$T/stdout" ||
	fail "$(cat "$T/stdout")"

# ... or refused.
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MANIFEST=$M" UNLISTED=refuse
request other.bin
run agent firmware
status_is 2
file_is "$REQ/loading" -1
log_has "fwload: cancelled other.bin for $E_DEVPATH; not in $M, UNLISTED=refuse"
request stray.bin
run agent firmware
status_is 2
log_has "fwload: cancelled stray.bin for $E_DEVPATH; listed in $M without a valid SHA-256; refused"
request good.bin
run agent firmware
status_is 0
run ctl explain other.bin
status_is 2
grep -qx "decision: not in $M, UNLISTED=refuse; the request would be aborted" "$T/stdout" ||
	fail "$(cat "$T/stdout")"

# A manifest from elsewhere: CRLF line ends and no newline at the end; a
# binary-mode entry for "*odd.bin" (a name starting with '*') is not one for
# odd.bin; sha256sum's escaped form for a name with a backslash.
mkimage "$fw/odd.bin" 50
mkimage "$fw/back\\slash.bin" 60
mkimage "$fw/last.bin" 70
cr=$(printf '\r')
{
	s=$(sha256sum <"$fw/good.bin")
	printf '%s  good.bin%s\n' "${s%% *}" "$cr"
	printf '%s *%s\n' 0000000000000000000000000000000000000000000000000000000000000000 '*odd.bin'
	s=$(sha256sum <"$fw/back\\slash.bin")
	printf '\\%s  %s\n' "${s%% *}" 'back\\slash.bin'
	s=$(sha256sum <"$fw/last.bin")
	printf '%s  last.bin%s' "${s%% *}" "$cr"
} >"$T/SUMS2"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MANIFEST=$T/SUMS2" UNLISTED=refuse
for name in good.bin "back\\slash.bin" last.bin; do
	request "$name"
	run agent firmware
	status_is 0
	file_is "$REQ/loading" 10 "loading for $name (CRLF manifest)"
	# fwload writes a backslash as \x5c
	log_matches "fwload: loaded $(ere "$(printf %s "$name" | sed 's/\\/\\x5c/g')") \([0-9]+ bytes, [0-9]+ ms\) from .* via .*/fwload-sha256 for .*"
done
request odd.bin
run agent firmware
status_is 2
file_is "$REQ/loading" -1
log_has "fwload: cancelled odd.bin for $E_DEVPATH; not in $T/SUMS2, UNLISTED=refuse"

# No manifest to read: with UNLISTED=refuse nothing loads.
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MANIFEST=$T/nonexistent" UNLISTED=refuse
request good.bin
run agent firmware
status_is 2
file_is "$REQ/loading" -1
log_has "fwload: cancelled good.bin for $E_DEVPATH; cannot read the manifest $T/nonexistent, UNLISTED=refuse"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MANIFEST=$T/nonexistent"
request good.bin
run agent firmware
status_is 0
log_matches "fwload: loaded good\\.bin .*; cannot read the manifest $(ere "$T/nonexistent"); loaded unchecked \\(UNLISTED=load\\)"

# UNLISTED=refuse and no MANIFEST= at all (a misspelt MANIFST= is only an
# unknown setting): nothing to check against, every image refused, the line
# says why; explain says the same. (Before, every image loaded unchecked.)
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MANIFST=$M" UNLISTED=refuse
request good.bin
run agent firmware
status_is 2
file_is "$REQ/loading" -1
file_is "$REQ/data" ""
log_has "fwload: cancelled good.bin for $E_DEVPATH; UNLISTED=refuse, but no MANIFEST= to check against: every image refused"
run ctl explain good.bin
status_is 2
grep -qx "decision: UNLISTED=refuse, but no MANIFEST= to check against: every image refused; the request would be aborted" "$T/stdout" ||
	fail "explain: $(cat "$T/stdout")"
