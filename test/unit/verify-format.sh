# SPDX-License-Identifier: MIT
# fwload-verify reads signify's format strictly. FILE.sig (2): the comment
# line ("untrusted comment: ", then anything but a newline, 1024 bytes at
# most), the base64 of exactly 74 bytes (standard alphabet, '=' padding,
# the unused bits 0: what a lenient decoder takes for the same bytes is
# refused), then one newline and the end, or minisign's two trusted lines;
# "ED" (prehashed) refused with the hint, another algorithm refused;
# missing, a directory, over 16 KiB. A key file (4): the same, 42 bytes,
# the newline and nothing after it. FILE (111): missing, a directory, over
# 16 MiB; -c's output failing (111). RFC 8032's TEST 2 key and signature.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=verify-lib
. "$REPO/test/unit/verify-lib"

num=$rfc_num pk=$rfc_pk sig=$rfc_sig
keydir
mkkey k.pub "$num" "$pk"
cp "$KD/k.pub" "$T/k.pub"
printf r >"$F"
S=$(b64 "4564$num$sig")
[ ${#S} -eq 100 ] || fail "base64 of 74 bytes: ${#S} characters"
C='untrusted comment: signature'
M="$(ere "$F.sig"): malformed: .*"

# sigfile TEXT: $F.sig holds exactly TEXT (printf's escapes taken).
sigfile() {
	# shellcheck disable=SC2059 # TEXT is a format: \n, \r
	printf "$1" >"$F.sig"
}

sigfile "$C\n$S\n"
valid "$num" k.pub

# The comment line.
for bad in "$S\n" "\n$S\n" "untrusted comment:x\n$S\n" "Untrusted comment: x\n$S\n" " $C\n$S\n"; do
	sigfile "$bad"
	refused 2 "$M"
done
c1024="untrusted comment: $(head -c 1005 /dev/zero | tr '\0' c)"
sigfile "$c1024\n$S\n"
valid "$num" k.pub
sigfile "${c1024}c\n$S\n"
refused 2 "$M"

# Line 2 and what follows.
for bad in "$C\n$S" "$C\n$S\r\n" "$C\n$S\n\n" "$C\n$S\nx\n" "$C\n$S \n" "$C\n $S\n" \
	"$C\n$S\ntrusted comment: t\n" "$C\n$S\ntrusted comment: t\nx" "$C\n$S\ntrusted comment: t\n\n" \
	"$C\n$S\ntrusted comment: t\nx\ny\n" "$C\n$S\nTrusted comment: t\nx\n" "$C\n${S%????}\n" \
	"$C\n${S}AAAA\n" "$C\n${S%?}\n" "$C\n${S%?}==\n" "$C\n*${S#?}\n" "$C\n-${S#?}\n" "$C\n${S%?}A\n"; do
	sigfile "$bad"
	refused 2 "$M"
done
sigfile "$C\n$S\ntrusted comment: t\nx\n"
valid "$num" k.pub
# The 2 unused bits of the last character before '=' not 0: the same bytes
# to a lenient decoder (coreutils base64 -d), refused here.
pre=${S%??}
last=${S#"$pre"}
odd=$(printf %s "${last%=}" | tr 'A-Za-z0-9+/' 'BADCFEHGJILKNMPORQTSVUXWZYbadcfehgjilknmporqtsvuxwzy1032547698/+')
printf %s "$S" | base64 -d >"$T/want"
printf %s "$pre$odd=" | base64 -d >"$T/got" 2>/dev/null
cmp -s "$T/want" "$T/got" || fail "$pre$odd=: not the same bytes to base64 -d"
sigfile "$C\n$pre$odd=\n"
refused 2 "$M"

# The algorithm.
sigfile "$C\n$(b64 "4544$num$sig")\n"
refused 2 "$(ere "$F.sig"): minisign's prehashed signature: sign with minisign -S -l"
sigfile "$C\n$(b64 "6564$num$sig")\n"
refused 2 "$(ere "$F.sig"): not an Ed25519 signature \(algorithm bytes not \"Ed\"\)"

# The file itself.
rm "$F.sig"
refused 2 "no signature: cannot read $(ere "$F.sig"): errno 2 \(ENOENT\)"
mkdir "$F.sig"
refused 2 "$(ere "$F.sig"): not a regular file"
rmdir "$F.sig"
{ printf '%s\n%s\n' "$C" "$S" && head -c 20000 /dev/zero; } >"$F.sig"
refused 2 "$(ere "$F.sig"): longer than 16 KiB"
sigfile "$C\n$S\n"

# Key files: the same lines, 42 bytes, and nothing else.
K=$(b64 "4564$num$pk")
for bad in "untrusted comment: k\n$K" "untrusted comment: k\n$K\n\n" "untrusted comment: k\n$K\nx" \
	"untrusted comment: k\n$K\r\n" "k\n$K\n" "$K\n" \
	"untrusted comment: k\n$(b64 "4564$num${pk%??}")\n" "untrusted comment: k\n$(b64 "4564$num${pk}00")\n" \
	"untrusted comment: k\n${K%?}*\n"; do
	# shellcheck disable=SC2059 # a format: \n, \r
	printf "$bad" >"$KD/k.pub"
	refused 4 "key $(ere "$KD/k.pub"): malformed: .*"
done
printf 'untrusted comment: k\n%s\n' "$(b64 "4544$num$pk")" >"$KD/k.pub"
refused 4 "key $(ere "$KD/k.pub"): not an Ed25519 key \(its algorithm bytes are not \"Ed\"\)"
cp "$T/k.pub" "$KD/k.pub"
valid "$num" k.pub

# FILE: missing, a directory, too large; stdout failing.
mv "$F" "$T/r"
refused 111 "cannot read $(ere "$F"): errno 2 \(ENOENT\)"
mkdir "$F"
refused 111 "$(ere "$F"): not a regular file"
rmdir "$F"
truncate -s 16777217 "$F"
refused 111 "$(ere "$F"): larger than 16 MiB"
mv "$T/r" "$F"
clean "$VERIFY" -k "$KD" -c "$F" >/dev/full 2>"$T/stderr"
st=$?
status_is 111
stderr_matches "fwload-verify: cannot write to standard output: errno 28 \(ENOSPC\)"
