# SPDX-License-Identifier: MIT
# fwload-verify on keys and signatures minisign makes here: minisign -S -l
# (legacy, the file itself signed) verifies with its two trusted lines, and
# without them; changed after signing it does not (1); minisign's default
# (prehashed with BLAKE2b, "ED") is refused (2) with a line that says to
# sign with minisign -S -l; a line more after the trusted ones is refused
# (2).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=verify-lib
. "$REPO/test/unit/verify-lib"

need minisign minisign
# ms ARG...: minisign ARG..., which must succeed.
ms() {
	minisign "$@" >"$T/ms.out" 2>&1 </dev/null || fail "minisign $*: $(cat "$T/ms.out")"
}

keydir
ms -G -W -p "$KD/m.pub" -s "$T/m.sec"
n=$(keynum "$KD/m.pub")
mkimage "$F" 70000
ms -S -l -s "$T/m.sec" -m "$F"
mv "$F.minisig" "$F.sig"
[ "$(wc -l <"$F.sig")" -eq 4 ] || fail "minisign -S -l wrote no 4 lines: $(cat "$F.sig")"
valid "$n" m.pub
cp "$F.sig" "$T/four"
head -n 2 "$T/four" >"$F.sig"
valid "$n" m.pub
{ cat "$T/four" && echo more; } >"$F.sig"
refused 2 "$(ere "$F.sig"): malformed: .*"
cp "$T/four" "$F.sig"
printf x >>"$F"
refused 1 "$(ere "$F"): bad signature \(key $n, $(ere "$KD/m.pub")\)"

# The default, prehashed.
ms -S -s "$T/m.sec" -m "$F"
mv "$F.minisig" "$F.sig"
refused 2 "$(ere "$F.sig"): minisign's prehashed signature: sign with minisign -S -l"
