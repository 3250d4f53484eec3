# SPDX-License-Identifier: MIT
# fwload-verify trusts the keys all or nothing (4, one line naming what it
# refused): the key directory must be root's, with no group or other write
# bit, and each *.pub in it a regular file (not through a symbolic link),
# root's, no such bit, well formed, its key number its own, 64 at most. A
# refused key refuses the others too, -l's listing as well. Names not
# ending in .pub, or beginning with a dot, are not read; KEYDIR itself may
# be a symbolic link (its directory is checked). RFC 8032's TEST 2 key.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=verify-lib
. "$REPO/test/unit/verify-lib"

num=$rfc_num pk=$rfc_pk sig=$rfc_sig
keydir
mkkey k.pub "$num" "$pk"
printf r >"$F"
mksig "$F" "$num" "$sig"
valid "$num" k.pub
K=$(ere "$KD/k.pub")

# refused_all ERE: FILE and -l both refused (4), the line matching ERE.
refused_all() {
	refused 4 "$1"
	verify -l
	status_is 4
	stdout_is ''
	stderr_matches "fwload-verify: $1"
}

# The directory.
for mode in 777 775 757 722; do
	chmod "$mode" "$KD"
	refused_all "key directory $(ere "$KD"): not root's, or others can write to it"
done
chmod 755 "$KD"
chown 65534 "$KD"
refused_all "key directory $(ere "$KD"): not root's, or others can write to it"
chown 0 "$KD"
chmod 1777 "$KD"
refused_all "key directory $(ere "$KD"): not root's, or others can write to it"
chmod 700 "$KD"
valid "$num" k.pub
chmod 755 "$KD"
KD0=$KD
KD=$T/none
refused_all "key directory $(ere "$KD"): cannot open: errno 2 \(ENOENT\)"
KD=$F
refused 4 "key directory $(ere "$KD"): cannot open: errno 20 \(ENOTDIR\)"
KD=$T/link
ln -s "$KD0" "$KD"
valid "$num" k.pub
KD=$KD0/
verify "$F"
status_is 0
stdout_is "$num $KD0/k.pub"
KD=$KD0

# The key file.
for mode in 666 646 664 620; do
	chmod "$mode" "$KD/k.pub"
	refused_all "key $K: not root's, or others can write to it"
done
chmod 600 "$KD/k.pub"
valid "$num" k.pub
chmod 644 "$KD/k.pub"
chown 65534 "$KD/k.pub"
refused_all "key $K: not root's, or others can write to it"
chown 0 "$KD/k.pub"
mv "$KD/k.pub" "$T/k.pub"
ln -s "$T/k.pub" "$KD/k.pub"
refused_all "key $K: a symbolic link"
rm "$KD/k.pub"
mv "$T/k.pub" "$KD/k.pub"
mkdir "$KD/d.pub"
refused_all "key $(ere "$KD/d.pub"): not a regular file"
rmdir "$KD/d.pub"
mkfifo "$KD/f.pub"
refused_all "key $(ere "$KD/f.pub"): not a regular file"
rm "$KD/f.pub"

# A malformed key beside the good one; the same key number twice.
echo 'untrusted comment: junk' >"$KD/bad.pub"
refused_all "key $(ere "$KD/bad.pub"): malformed: .*"
rm "$KD/bad.pub"
cp "$KD/k.pub" "$KD/k2.pub"
refused_all "key $(ere "$KD")/k2?\.pub: key number $num already in k2?\.pub"
rm "$KD/k2.pub"

# Not key files: not read (these would be refused).
for name in README k.pub~ k.pub.bak .hidden.pub .pub; do
	echo junk >"$KD/$name"
	chmod 666 "$KD/$name"
done
valid "$num" k.pub
verify -l
status_is 0
stdout_is "$num $KD/k.pub"

# 64 keys at most: 63 more (the same key, numbered 1 to 63), then one more.
i=1
while [ "$i" -le 63 ]; do
	mkkey "n$i.pub" "$(printf %016x "$i")" "$pk"
	i=$((i + 1))
done
valid "$num" k.pub
verify -l
status_is 0
[ "$(wc -l <"$T/stdout")" -eq 64 ] || fail "-l: not 64 lines: $(cat "$T/stdout")"
mkkey n64.pub "$(printf %016x 64)" "$pk"
refused_all "key $(ere "$KD")/.*\.pub: more than 64 keys"
