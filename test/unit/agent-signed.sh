# SPDX-License-Identifier: MIT
# SIGNED=yes, KEYS=DIR: the manifest counts only with a valid signature
# beside it (MANIFEST.sig, signify's format) by a key of KEYS, and may live
# where others can write (here a directory and a file of mode 777 and 666).
# Signatures made here by signify-openbsd, minisign -l and a usign-format
# file (openssl's Ed25519, usign's comment lines) load; rotation (a second
# key), revocation (a key file removed), a tampered manifest, a signature
# by a key KEYS lacks, no .sig, minisign's default (prehashed), a key
# directory or a key file others can write, a missing key directory,
# SIGNED=yes without MANIFEST= and a relative KEYS= are refused: every
# request cancelled, nothing written to data, one log line saying which.
# The cache keeps the verdict and a copy of the verified bytes in the run
# directory (a change to the manifest, its .sig, the key directory or a
# key file is seen at the next event); without a run directory of root's
# alone each event verifies again.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
needs fwload-sha256 fwload-verify
for c in signify-openbsd minisign openssl; do
	command -v "$c" >/dev/null 2>&1 || fail "$c is not installed (test/deps.sh fast installs it)"
done

R=$T/root
fw=$R/lib/firmware
KD=$T/keys
D=$T/data  # "a writable partition"
M=$D/SHA256SUMS
mkimage "$fw/x.bin" 5000
mkimage "$fw/y.bin" 300
{ mkdir -m 755 "$KD" && mkdir -m 777 "$D"; } || fail "cannot make $KD, $D"

# sg ARG...: signify-openbsd ARG..., which must succeed.
sg() {
	signify-openbsd "$@" >"$T/sg.out" 2>&1 </dev/null || fail "signify-openbsd $*: $(cat "$T/sg.out")"
}
# keynum FILE: the key number of a key or signature file, 16 hex digits.
keynum() {
	sed -n 2p "$1" | base64 -d | od -An -tx1 -j2 -N8 | tr -d ' \n'
}
sg -G -n -p "$T/a.pub" -s "$T/a.sec"
sg -G -n -p "$T/b.pub" -s "$T/b.sec"
sg -G -n -p "$T/x.pub" -s "$T/x.sec"
na=$(keynum "$T/a.pub") nx=$(keynum "$T/x.pub")
cp "$T/a.pub" "$KD/a.pub"
# manifest: $M lists x.bin (not y.bin), others may write it; signed by
# a: $M.sig. sign KEY: $M.sig by KEY (a, b or x).
{ (cd "$fw" && sha256sum x.bin) >"$M" && chmod 666 "$M"; } || fail "cannot write $M"
sign() {
	sg -S -s "$T/$1.sec" -m "$M"
}
sign a
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MANIFEST=$M" SIGNED=yes "KEYS=$KD" UNLISTED=refuse
aged

# served: the request for x.bin loads, one line logged.
served() {
	: >"$LOGF"
	request x.bin
	run agent firmware
	status_is 0
	data_is "$fw/x.bin"
	log_matches "fwload: loaded x\\.bin \\(5000 bytes, [0-9]+ ms\\) from $(ere "$fw/x.bin") via $(ere "$LIBEXEC/fwload-sha256") for $(ere "$E_DEVPATH")"
	[ "$(wc -l <"$LOGF")" = 1 ] || fail "more than one line: $(cat "$LOGF")"
}
# refused STATUS LINE: the request for x.bin is cancelled (STATUS), nothing
# reaches data, and LINE is the one line logged.
refused() {
	: >"$LOGF"
	request x.bin
	run agent firmware
	status_is "$1"
	file_is "$REQ/loading" -1
	file_is "$REQ/data" ""
	file_is "$LOGF" "fwload: cancelled x.bin for $E_DEVPATH; $2
"
}
# cached: the inputs aged, served, and the cache made then is fresh: the
# change that follows must be seen through the cache's stamp.
cached() {
	aged
	served
	clean "$LIBEXEC/fwload-stamp" -K "$RUN/conf.cache" || fail "no fresh cache"
}
# not_vouched WHY: refused (2) with fwload-verify's line WHY.
not_vouched() {
	refused 2 "SIGNED=yes: the manifest is not vouched for: $1; every image refused"
}

# Signed by a: loads, and the cache holds the verdict and a copy of the
# verified bytes in the run directory, root's; the next event uses them.
served
[ -f "$RUN/conf.cache" ] || fail "no cache"
set -- "$RUN"/signed.*
{ [ $# = 1 ] && [ -f "$1" ]; } || fail "no one copy of the verified manifest in $RUN: $*"
cmp -s "$1" "$M" || fail "the copy $1 is not the manifest"
[ "$(find "$1" -user 0 ! -perm -022)" = "$1" ] || fail "the copy is not root's alone: $(ls -l "$1")"
grep -qx "signed_key='$na $KD/a.pub'" "$RUN/conf.cache" || fail "the cache has no key: $(cat "$RUN/conf.cache")"
served
# An unlisted image: refused with UNLISTED=refuse, as without a
# signature, and with no UNLISTED= or UNLISTED=load too (SIGNED=yes: what
# the signed manifest does not list never loads; UNLISTED=load is said to
# be ignored).
for u in UNLISTED=refuse '' UNLISTED=load; do
	conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MANIFEST=$M" SIGNED=yes "KEYS=$KD" $u
	aged
	: >"$LOGF"
	request y.bin
	run agent firmware
	status_is 2
	file_is "$REQ/data" ""
	log_has "fwload: cancelled y.bin for $E_DEVPATH; not in $M, UNLISTED=refuse"
	if [ "$u" = UNLISTED=load ]; then
		log_has "fwload: $CONF: UNLISTED=load ignored: with SIGNED=yes an image the signed manifest does not list is refused"
	elif grep -q 'UNLISTED=load ignored' "$LOGF"; then
		fail "a warning with no UNLISTED= set: $(cat "$LOGF")"
	fi
done
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MANIFEST=$M" SIGNED=yes "KEYS=$KD" UNLISTED=refuse
aged

# The copy gone (a newer cache's maker removed it): decided again from the
# files, verified again.
rm -f "$RUN"/signed.*
served

# Tampered: a line added, the signature left as it was (the change is seen
# at the very next event: the manifest is in the cache's stamp).
cp "$M" "$T/M.orig"
sum=$(sha256sum <"$fw/y.bin")
echo "${sum%% *}  y.bin" >>"$M"
not_vouched "$M: bad signature (key $na, $KD/a.pub)"
cp "$T/M.orig" "$M"
sign a
cached

# Signed by a key KEYS lacks.
sign x
not_vouched "$M.sig: no key numbered $nx in $KD"

# Rotation: b.pub added; b's signature and a's both load.
cp "$T/b.pub" "$KD/b.pub"
sign b
served
sign a
cached
# Revocation: a.pub removed; a's signature finds no key, b's loads.
rm "$KD/a.pub"
not_vouched "$M.sig: no key numbered $na in $KD"
sign b
served

# The key directory, or a key file, others can write; the key directory
# missing: no key is trusted.
chmod 777 "$KD"
not_vouched "key directory $KD: not root's, or others can write to it"
chmod 755 "$KD"
cached
chmod 666 "$KD/b.pub"
not_vouched "key $KD/b.pub: not root's, or others can write to it"
chmod 644 "$KD/b.pub"
served
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MANIFEST=$M" SIGNED=yes "KEYS=$T/nokeys" UNLISTED=refuse
not_vouched "key directory $T/nokeys: cannot open: errno 2 (ENOENT)"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MANIFEST=$M" SIGNED=yes "KEYS=$KD" UNLISTED=refuse

# No signature.
cached
mv "$M.sig" "$T/sig"
not_vouched "no signature: cannot read $M.sig: errno 2 (ENOENT)"
mv "$T/sig" "$M.sig"
served

# minisign: -l (the file itself signed) loads; its default (prehashed,
# "ED") is refused with a line that says to sign with -l.
minisign -G -W -p "$KD/m.pub" -s "$T/m.sec" >"$T/ms.out" 2>&1 </dev/null || fail "minisign -G: $(cat "$T/ms.out")"
minisign -S -l -s "$T/m.sec" -m "$M" >"$T/ms.out" 2>&1 </dev/null || fail "minisign -S -l: $(cat "$T/ms.out")"
mv "$M.minisig" "$M.sig"
served
minisign -S -s "$T/m.sec" -m "$M" >"$T/ms.out" 2>&1 </dev/null || fail "minisign -S: $(cat "$T/ms.out")"
mv "$M.minisig" "$M.sig"
not_vouched "$M.sig: minisign's prehashed signature: sign with minisign -S -l"

# usign's files (signify's format, usign's comment lines), the key and the
# signature made by openssl.
hexof() {
	od -An -tx1 -v "$1" | tr -d ' \n'
}
unhex() {
	_h=$1 _f=''
	while [ -n "$_h" ]; do
		_v=$((0x${_h%"${_h#??}"}))
		_h=${_h#??}
		_f="$_f\\$((_v >> 6))$((_v >> 3 & 7))$((_v & 7))"
	done
	# shellcheck disable=SC2059 # the format is the bytes, as octal escapes
	printf "$_f"
}
openssl genpkey -algorithm ed25519 -out "$T/u.pem" 2>"$T/err" || fail "openssl genpkey: $(cat "$T/err")"
openssl pkey -in "$T/u.pem" -pubout -outform DER -out "$T/u.der" 2>"$T/err" || fail "openssl pkey: $(cat "$T/err")"
tail -c 32 "$T/u.der" >"$T/u.raw"
nu=0123456789abcdef
printf 'untrusted comment: public key %s\n%s\n' "$nu" "$(unhex "4564$nu$(hexof "$T/u.raw")" | base64 | tr -d '\n')" >"$KD/usign.pub"
openssl pkeyutl -sign -rawin -inkey "$T/u.pem" -in "$M" -out "$T/u.sig" 2>"$T/err" || fail "openssl pkeyutl: $(cat "$T/err")"
printf 'untrusted comment: signed by key %s\n%s\n' "$nu" "$(unhex "4564$nu$(hexof "$T/u.sig")" | base64 | tr -d '\n')" >"$M.sig"
served

# Without a run directory of root's alone: no cache, no copy; each event
# verifies again (a tampered manifest refused, the good one loaded).
rm -rf "$RUN"
mkdir -p "$RUN"
chmod 777 "$RUN"
: >"$LOGF"
request x.bin
run agent firmware
status_is 0
data_is "$fw/x.bin"
set -- "$RUN"/signed.* "$RUN"/conf.cache
{ [ ! -e "$1" ] && [ ! -e "$2" ]; } || fail "written into a run directory others can write: $(ls -la "$RUN")"
printf '\n' >>"$M"
: >"$LOGF"
request x.bin
run agent firmware
status_is 2
file_is "$REQ/data" ""
log_has "fwload: cancelled x.bin for $E_DEVPATH; SIGNED=yes: the manifest is not vouched for: $M: bad signature (key $nu, $KD/usign.pub); every image refused"
rm -rf "$RUN"
cp "$T/M.orig" "$M"
sign b

# SIGNED=yes without MANIFEST=; a relative KEYS=; SIGNED=maybe is yes.
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" SIGNED=yes "KEYS=$KD"
refused 2 "SIGNED=yes, but no MANIFEST= to vouch for: every image refused"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MANIFEST=$M" SIGNED=yes KEYS=keys
: >"$LOGF"
request x.bin
run agent firmware
status_is 2
file_is "$REQ/data" ""
log_has "fwload: cancelled x.bin for $E_DEVPATH; KEYS=keys is not an absolute path"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MANIFEST=$M" SIGNED=maybe "KEYS=$KD"
mv "$M.sig" "$T/sig"
: >"$LOGF"
request x.bin
run agent firmware
status_is 2
file_is "$REQ/data" ""
log_has "fwload: $CONF:4: SIGNED wants yes or no, not 'maybe'; yes used"
mv "$T/sig" "$M.sig"
# SIGNED=no: the manifest others can write is not read at all.
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MANIFEST=$M" "KEYS=$KD"
: >"$LOGF"
request x.bin
run agent firmware
status_is 2
file_is "$REQ/data" ""
log_has "fwload: cancelled x.bin for $E_DEVPATH; $M is not root's alone (owner 0, mode 666): not read"
