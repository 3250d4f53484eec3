# SPDX-License-Identifier: MIT
# fwload-verify on the vectors of test/verify-vectors.txt, each key alone in
# its directory, each signature in signify's format: RFC 8032 7.1's TEST 1,
# 2, 3, 1024 and SHA(abc) verify (and -c copies the file), and each with a
# byte of its message, of R or of S changed does not (1); S >= L and a
# non-canonical R are bad signatures (1), though a verifier that reduced S
# or decoded R would take them; keys of small order (with signatures that
# hold for them), non-canonical and off the curve are refused (4).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=verify-lib
. "$REPO/test/unit/verify-lib"

num=0123456789abcdef
# flip HEX I: HEX with its byte I (from 0) changed (xor 01).
flip() {
	_pre=$(printf %s "$1" | cut -c "-$(($2 * 2))")
	_rest=${1#"$_pre"}
	printf '%s%02x%s' "$_pre" $((0x${_rest%"${_rest#??}"} ^ 1)) "${_rest#??}"
}

n=0
while read -r name want pk msg sig; do
	case $name in '#'* | '') continue ;; esac
	[ "$msg" != - ] || msg=
	n=$((n + 1))
	keydir
	mkkey k.pub "$num" "$pk"
	unhex "$msg" >"$F"
	mksig "$F" "$num" "$sig"
	case $want in
	0)
		valid "$num" k.pub
		for i in 0 31 32 63; do
			mksig "$F" "$num" "$(flip "$sig" "$i")"
			refused 1 "$(ere "$F"): bad signature \(key $num, $(ere "$KD/k.pub")\)"
		done
		mksig "$F" "$num" "$sig"
		if [ -n "$msg" ]; then
			unhex "$(flip "$msg" $((${#msg} / 4)))" >"$F"
			refused 1 "$(ere "$F"): bad signature .*"
		fi
		;;
	1) refused 1 "$(ere "$F"): bad signature \(key $num, $(ere "$KD/k.pub")\)" ;;
	4)
		case $name in
		key-identity | key-order-*) why='a point of small order' ;;
		*) why='not the canonical encoding of a curve point' ;;
		esac
		refused 4 "key $(ere "$KD/k.pub"): $why"
		;;
	*) fail "$name: status $want?" ;;
	esac
done <"$REPO/test/verify-vectors.txt"
[ "$n" -eq 19 ] || fail "$n vectors read, want 19"
