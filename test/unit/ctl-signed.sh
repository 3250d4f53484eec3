# SPDX-License-Identifier: MIT
# fwloadctl and SIGNED=yes: explain shows the signature's verdict and the
# key that vouched for the manifest (number and file), or why the manifest
# is not vouched for and that the request would be refused; status shows
# the same verdict and lists the keys (fwload-verify -l), or why none is
# trusted.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
needs fwloadctl fwload-sha256 fwload-verify
command -v signify-openbsd >/dev/null 2>&1 || fail "signify-openbsd is not installed (test/deps.sh fast installs it)"

R=$T/root
fw=$R/lib/firmware
KD=$T/keys
M=$T/data/SUMS
mkimage "$fw/x.bin" 700
{ mkdir -m 755 "$KD" && mkdir -p "$T/data"; } || fail "cannot make $KD"
for k in a b; do
	signify-openbsd -G -n -p "$KD/$k.pub" -s "$T/$k.sec" >/dev/null 2>&1 </dev/null || fail "signify-openbsd -G"
done
keynum() {
	sed -n 2p "$1" | base64 -d | od -An -tx1 -j2 -N8 | tr -d ' \n'
}
na=$(keynum "$KD/a.pub") nb=$(keynum "$KD/b.pub")
(cd "$fw" && sha256sum x.bin) >"$M" || fail sha256sum
chmod 666 "$M"
signify-openbsd -S -s "$T/b.sec" -m "$M" >/dev/null 2>&1 </dev/null || fail "signify-openbsd -S"
sum=$(sha256sum <"$fw/x.bin")
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MANIFEST=$M" SIGNED=yes "KEYS=$KD"

# Vouched for: explain and status say by which key; status lists both.
run ctl explain x.bin
status_is 0
grep -qx "signed:   $M.sig: good, key $nb ($KD/b.pub)" "$T/stdout" || fail "explain: $(cat "$T/stdout" "$T/stderr")"
grep -qx "manifest: $M lists x.bin: ${sum%% *}, checked while loading" "$T/stdout" || fail "explain: $(cat "$T/stdout")"
run ctl status
status_is 0
grep -qx "signed:   $M: vouched for by key $nb ($KD/b.pub)" "$T/stdout" || fail "status: $(cat "$T/stdout" "$T/stderr")"
sed -n "/^keys ($(ere "$KD" | sed 's|/|\\/|g')):\$/,/^[^ ]/p" "$T/stdout" | grep "^  " >"$T/keylist"
file_is "$T/keylist" "  $na $KD/a.pub
  $nb $KD/b.pub
" "status's keys"

# Not vouched for: tampered, then the key directory others can write.
echo >>"$M"
run ctl explain x.bin
status_is 2
grep -qx "signed:   $M: not vouched for" "$T/stdout" || fail "explain: $(cat "$T/stdout")"
grep -qx "decision: SIGNED=yes: the manifest is not vouched for: $M: bad signature (key $nb, $KD/b.pub); every image refused; the request would be aborted" "$T/stdout" ||
	fail "explain: $(cat "$T/stdout")"
run ctl status
status_is 0
grep -qx "signed:   SIGNED=yes: the manifest is not vouched for: $M: bad signature (key $nb, $KD/b.pub); every image refused" "$T/stdout" ||
	fail "status: $(cat "$T/stdout")"
chmod 777 "$KD"
run ctl status
status_is 0
grep -qx "  fwload-verify: key directory $KD: not root's, or others can write to it" "$T/stdout" || fail "status: $(cat "$T/stdout")"
