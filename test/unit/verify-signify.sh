# SPDX-License-Identifier: MIT
# fwload-verify on keys and signatures signify-openbsd makes here: a
# signature verifies (the key number and key file on stdout; -c: the file
# itself), an empty file's too; the file changed after signing does not
# (1); a signature by a key not in KEYDIR finds no key (3); with two keys
# (rotation) either's signatures verify, and -l lists both, sorted; with one
# removed (revocation) its signatures find no key (3), the other's verify.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=verify-lib
. "$REPO/test/unit/verify-lib"

need signify-openbsd signify-openbsd
# sg ARG...: signify-openbsd ARG..., which must succeed.
sg() {
	signify-openbsd "$@" >"$T/sg.out" 2>&1 || fail "signify-openbsd $*: $(cat "$T/sg.out")"
}

keydir
sg -G -n -p "$KD/b.pub" -s "$T/b.sec"
sg -G -n -p "$T/x.pub" -s "$T/x.sec"
nb=$(keynum "$KD/b.pub")
mkimage "$F" 100000
sg -S -s "$T/b.sec" -m "$F"
valid "$nb" b.pub
: >"$T/empty"
sg -S -s "$T/b.sec" -m "$T/empty"
valid "$nb" b.pub "$T/empty"

# Changed after signing: a byte appended, a byte changed.
cp "$F" "$T/orig"
printf x >>"$F"
refused 1 "$(ere "$F"): bad signature \(key $nb, $(ere "$KD/b.pub")\)"
c=y  # a byte changed: never the one it was (the image is random)
[ "$(head -c 1 "$T/orig")" != y ] || c=z
{ printf %s "$c" && tail -c +2 "$T/orig"; } >"$F"
refused 1 "$(ere "$F"): bad signature \(key $nb, $(ere "$KD/b.pub")\)"
cp "$T/orig" "$F"

# Signed by a key KEYDIR does not have.
sg -S -s "$T/x.sec" -m "$F"
refused 3 "$(ere "$F.sig"): no key numbered $(keynum "$T/x.pub") in $(ere "$KD")"

# Rotation: a second key, a.pub; signatures by either verify.
sg -G -n -p "$KD/a.pub" -s "$T/a.sec"
na=$(keynum "$KD/a.pub")
sg -S -s "$T/b.sec" -m "$F"
cp "$F" "$T/new.bin"
sg -S -s "$T/a.sec" -m "$T/new.bin"
valid "$nb" b.pub
valid "$na" a.pub "$T/new.bin"
verify -l
status_is 0
stdout_is "$na $KD/a.pub
$nb $KD/b.pub"
stderr_is ''

# Revocation: b.pub removed; its signature finds no key, a's still verify.
rm "$KD/b.pub"
refused 3 "$(ere "$F.sig"): no key numbered $nb in $(ere "$KD")"
valid "$na" a.pub "$T/new.bin"
