# SPDX-License-Identifier: MIT
# fwloadctl upload with SIGNED=yes checks the manifest's signature as a
# request does: an image the signed manifest lists is handed over with its
# digest checked; a tampered manifest, a signature by a key KEYS lacks, a
# missing .sig are refused (exit 2, one line, nothing written to the
# device), and so is --sha256 (the signed manifest is the one source of
# digests).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
needs fwloadctl fwloadctl-upload.sh fwload-sha256 fwload-verify
# shellcheck source=upload-lib
. "$REPO/test/unit/upload-lib"
command -v signify-openbsd >/dev/null 2>&1 || fail "signify-openbsd is not installed (test/deps.sh fast installs it)"

upload_dev up.bin
mkimage "$T/fw/card.bin" 3000
KD=$T/keys
mkdir -m 755 "$KD" || fail "cannot make $KD"
for k in a x; do
	signify-openbsd -G -n -p "$T/$k.pub" -s "$T/$k.sec" >/dev/null 2>&1 </dev/null || fail "signify-openbsd -G"
done
cp "$T/a.pub" "$KD/a.pub"
keynum() {
	sed -n 2p "$1" | base64 -d | od -An -tx1 -j2 -N8 | tr -d ' \n'
}
sign() {
	signify-openbsd -S -s "$T/$1.sec" -m "$SUMS" >/dev/null 2>&1 </dev/null || fail "signify-openbsd -S"
}
(cd "$T/fw" && sha256sum card.bin) >"$SUMS" || fail sha256sum
chmod 666 "$SUMS"
sign a
sum=$(sha256sum <"$T/fw/card.bin")
sum=${sum%% *}
conf "LOG=$LOGF" "FIRMWARE_PATH=$T/fw" "MANIFEST=$SUMS" SIGNED=yes "KEYS=$KD" UNLISTED=refuse

: >"$LOGF"
run ctl upload up.bin "$T/fw/card.bin"
status_is 0
cmp -s "$T/fw/card.bin" "$UP/data" || fail "data differs from the image"
log_matches "fwload: upload .*3000 bytes, sha256 $sum, [0-9]+ s\\)"

# refused_up WHY ARG...: upload ARG... exits 2, WHY its one line, nothing
# written to the device.
refused_up() {
	_why=$1
	shift
	: >"$UP/loading"
	: >"$UP/data"
	run ctl upload "$@"
	status_is 2
	file_is "$UP/loading" "" "loading (refused: $_why)"
	file_is "$UP/data" "" "data (refused: $_why)"
	stderr_is "fwloadctl: upload: $_why"
}
refused_up "$T/fw/card.bin: --sha256 with SIGNED=yes: the signed manifest is the one source of digests; nothing written" \
	--sha256 "$sum" up.bin "$T/fw/card.bin"
echo >>"$SUMS"
refused_up "$T/fw/card.bin: SIGNED=yes: the manifest is not vouched for: $SUMS: bad signature (key $(keynum "$KD/a.pub"), $KD/a.pub); every image refused; nothing written" \
	up.bin "$T/fw/card.bin"
sign x
refused_up "$T/fw/card.bin: SIGNED=yes: the manifest is not vouched for: $SUMS.sig: no key numbered $(keynum "$T/x.pub") in $KD; every image refused; nothing written" \
	up.bin "$T/fw/card.bin"
rm "$SUMS.sig"
refused_up "$T/fw/card.bin: SIGNED=yes: the manifest is not vouched for: no signature: cannot read $SUMS.sig: errno 2 (ENOENT); every image refused; nothing written" \
	up.bin "$T/fw/card.bin"
