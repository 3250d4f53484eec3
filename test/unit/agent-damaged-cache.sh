# SPDX-License-Identifier: MIT
# A damaged configuration cache is never trusted, and never keeps a request
# from its answer: an empty one, one cut inside a quoted value (a syntax
# error, which ends mksh and yash: the agent's EXIT trap runs it again
# without the cache), one cut at a line boundary before the manifest
# setting (whole statements, no end line: a tampered image must still be
# refused). Each time the request gets what the files say, and the cache is
# made again. Under every shell that is installed (dash and busybox sh at
# least), as agent-killed-shells does.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
needs fwload-sha256

R=$T/root
M=$T/SHA256SUMS
fw=$R/lib/firmware
mkimage "$fw/good.bin" 5000
mkimage "$fw/tampered.bin" 5000
(cd "$fw" && sha256sum good.bin) >"$M"
# The manifest's digest for tampered.bin is that of other bytes: the file
# was changed after the manifest was made (its first byte's complement).
head -c 1 "$fw/tampered.bin" | od -An -tu1 | {
	read -r b
	# shellcheck disable=SC2059 # an octal escape made here
	printf "\\$(printf %o $((255 - b)))"
} >"$T/tampered"
tail -c +2 "$fw/tampered.bin" >>"$T/tampered"
cmp -s "$T/tampered" "$fw/tampered.bin" && fail "the changed copy is the same"
sum=$(sha256sum <"$T/tampered")
echo "${sum%% *}  tampered.bin" >>"$M"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MANIFEST=$M" UNLISTED=refuse
aged
C=$RUN/conf.cache

# A good cache, made by a first event.
request good.bin
run agent firmware
status_is 0
[ -s "$C" ] || fail "no cache made"
cp "$C" "$T/cache.good"
grep -q "^manifest='$M'\$" "$T/cache.good" || fail "no manifest line in the cache: $(cat "$T/cache.good")"

# damage HOW: $C from the good cache, damaged.
damage() {
	case $1 in
	empty) : >"$C" ;;
	in-quote)
		# Up to the middle of the manifest's value: an open quote.
		sed -n "/^manifest=/q;p" "$T/cache.good" >"$C"
		printf "manifest='%s" "${M%/*}" >>"$C"
		;;
	before-manifest) sed -n "/^manifest=/q;p" "$T/cache.good" >"$C" ;;
	esac
}

tried=
for sh in dash "busybox sh" mksh yash "bash --posix"; do
	command -v "${sh%% *}" >/dev/null 2>&1 || continue
	tried="$tried ${sh%% *}"
	for how in empty in-quote before-manifest; do
		for name in good.bin tampered.bin; do
			damage "$how"
			request "$name"
			# shellcheck disable=SC2086 # $sh is a command line
			run kernel_env timeout "$GUARD" $sh "$REPO/firmware.agent" firmware
			[ "$st" != 124 ] || fail "$sh, $how cache, $name: no answer within $GUARD s"
			if [ "$name" = good.bin ]; then
				[ "$st" = 0 ] || fail "$sh, $how cache, $name: status $st, want 0; $(cat "$T/stderr")"
				file_is "$REQ/loading" 10 "loading ($sh, $how cache, $name)"
				data_is "$fw/good.bin"
			else
				[ "$st" = 2 ] || fail "$sh, $how cache, $name: status $st, want 2; $(cat "$T/stderr")"
				file_is "$REQ/loading" 1-1 "loading ($sh, $how cache, $name)"
			fi
			[ "$(tail -n 1 "$C")" = fwload_cache_end=1 ] ||
				fail "$sh, $how cache: not made again: $(tail -n 2 "$C")"
		done
	done
done
case $tried in *dash*busybox*) ;; *) fail "dash and busybox must be there: tried$tried" ;; esac
echo "shells tried:$tried"
