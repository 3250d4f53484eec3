# SPDX-License-Identifier: MIT
# The configuration cache's stamp. `fwload-stamp PATH...` prints
# "# fwload-cache 1" and, for each PATH, its encoded name and its stat(2)
# identity; `fwload-stamp -K CACHE` trusts CACHE only when it is a regular
# file of root's that nobody else can write, whose first line is what
# fwload-stamp prints now and whose last line is "fwload_cache_end=1".
# Anything else: exit 7.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
STAMP=$LIBEXEC/fwload-stamp

C=$T/conf.cache
A=$T/in/a.conf
B="$T/in/b c"
mkdir -p "$T/in"
mkfw "$A" 'A=1'
mkfw "$B" 'B=22'

# id FILE: the identity fwload-stamp must print, from GNU stat(1) (busybox's has
# no nanoseconds: called by its path, not as a shell applet).
for STAT in /usr/bin/stat /bin/stat; do
	[ -x "$STAT" ] && break
done
id() {
	_m=$("$STAT" -L -c %f "$1") || fail "stat $1"
	"$STAT" -L -c "%d:%i:%s:%.9Y:%.9Z:$(printf %o "0x$_m")" "$1"
}

# W: a name with a blank, '%', a newline and the byte 0xE9. yash cannot hold
# that byte in a word (it drops it, in the C locale too), so no variable
# holds W: it is in $T/w, ended by a NUL, and "xargs -0 CMD ARG... <$T/w"
# runs CMD ARG... W. mkfw_w TEXT: W holds TEXT; id_w: W's identity.
printf '%s/in/we ird%%\n\351x+@=,-_.f\0' "$T" >"$T/w"
mkfw_w() {
	{ printf %s "$1" >"$T/w.new" && xargs -0 cp "$T/w.new" <"$T/w"; } || fail "cannot make W"
}
id_w() {
	_m=$(xargs -0 "$STAT" -L -c %f <"$T/w") || fail "stat W"
	xargs -0 "$STAT" -L -c "%d:%i:%s:%.9Y:%.9Z:$(printf %o "0x$_m")" <"$T/w"
}

# The exact line; '-' for an absent path (also under a file: ENOTDIR);
# blanks, newlines, '%' and bytes >= 0x80 encoded, '/._,+@=-' kept.
mkfw_w w
run clean xargs -0 "$STAMP" "$A" "$T/in/none" "$A/x" "$B" <"$T/w"
status_is 0
stderr_is ''
case $T in
*[!A-Za-z0-9/._-]*) fail "this case wants a plain temporary directory, not $T" ;;
esac
enc_t=$T
stdout_is "# fwload-cache 1 $enc_t/in/a.conf $(id "$A") $enc_t/in/none - $enc_t/in/a.conf/x - $enc_t/in/b%20c $(id "$B") $enc_t/in/we%20ird%25%0A%E9x+@=,-_.f $(id_w)"

# A path stat cannot answer for (a name too long): '?', never fresh.
long=$T/$(printf '%0300d' 0)
run clean "$STAMP" "$long"
status_is 0
stdout_is "# fwload-cache 1 $(printf %s "$long" | sed 's/%/%25/g') ?"

# -R REF: REF made before the files were read. A regular file changed
# after it (or in the same nanosecond) may change again unseen: 7, the
# line printed all the same; changed before it: 0. No REF: 7. (Whole
# seconds, 2 s: test/unit/config-stale.sh on ext4 with 128-byte inodes.)
"$STAMP" "$T/in" | grep -q '\.000000000:[0-9]*\.000000000:' && fail "this case wants nanosecond times in $T"
: >"$T/ref"
run clean "$STAMP" -R "$T/ref" "$A" "$T/in/none" "$T/in"
status_is 0
stdout_is "# fwload-cache 1 $enc_t/in/a.conf $(id "$A") $enc_t/in/none - $enc_t/in $(id "$T/in")"
mkfw "$B" 'B=23'
run clean "$STAMP" -R "$T/ref" "$A" "$B"
status_is 7
stdout_is "# fwload-cache 1 $enc_t/in/a.conf $(id "$A") $enc_t/in/b%20c $(id "$B")"
touch -r "$T/ref" "$T/ref2"  # the same times, but ctime is now: not before it
run clean "$STAMP" -R "$T/ref2" "$A"
status_is 0
run clean "$STAMP" -R "$T/ref2" "$T/ref2"
status_is 7
run clean "$STAMP" -R "$T/in/none" "$A"
status_is 7
run clean "$STAMP" -R "$T/ref" -K "$T/ref"
status_is 100
[ "$(head -n 1 "$T/stderr")" = "fwload-stamp: -K takes CACHE or STAMP alone" ] || fail "-R with -K: $(cat "$T/stderr")"

# mkcache [PATH...]: a fresh cache over A, B, $T/in/new (absent) and W.
mkcache() {
	if ! { clean xargs -0 "$STAMP" "$A" "$B" "$T/in/new" <"$T/w" && echo 'FW_PATH=/lib/firmware' &&
		echo fwload_cache_end=1; } >"$C.tmp" || ! chmod 600 "$C.tmp" || ! mv "$C.tmp" "$C"; then
		fail "cannot make the cache"
	fi
}

# fresh / stale WHAT: -K alone says 0 / 7 (one line on stderr with -v only).
fresh() {
	run clean "$STAMP" -K "$C"
	status_is 0
	stderr_is ''
	stdout_is ''
}
stale() {
	run clean "$STAMP" -K "$C"
	[ "$st" = 7 ] || fail "$1: exit status $st, want 7 (stale)"
	stderr_is ''
	run clean "$STAMP" -v -K "$C"
	[ "$st" = 7 ] || fail "$1: -v: exit status $st, want 7"
	grep -q "^fwload-stamp: .* is stale: " "$T/stderr" ||
		fail "$1: -v says nothing: $(cat "$T/stderr")"
}

mkcache
fresh
# The content changes (the size with it).
mkfw "$A" 'A=12'
stale content
mkcache
# A same-size rewrite, the mtime set back to what it was, and older.
touch -d '2001-01-01 00:00:00' "$A"
mkcache
fresh
mkfw "$A" 'A=13'
touch -d '2001-01-01 00:00:00' "$A"
stale "same size, same mtime"
mkcache
mkfw "$A" 'A=14'
touch -d '1999-01-01' "$A"
stale "same size, older mtime"
# A file moved in (an older copy, same content and mtime as before).
mkcache
cp -p "$A" "$T/in/moved"
mv "$T/in/moved" "$A"
stale "a file moved in"
# A file appearing, a file vanishing.
mkcache
mkfw "$T/in/new" 'X=1'
stale "a file appearing"
rm -f "$T/in/new"
mkcache
fresh
rm -f "$B"
stale "a file vanishing"
mkfw "$B" 'B=22'
# A path with a newline, changed.
mkcache
mkfw_w v
stale "a name with a newline"

# Damaged caches: cut anywhere, empty, the end line not last, a blank
# more, a stamp line over 4096 bytes.
mkcache
fresh
n=$(wc -c <"$C")
for cut in 0 1 20 $((n - 30)) $((n - 19)) $((n - 1)); do
	head -c "$cut" "$C" >"$T/cut"
	cp "$T/cut" "$C.cut" && chmod 600 "$C.cut" && mv "$C.cut" "$C.x"
	run clean "$STAMP" -K "$C.x"
	[ "$st" = 7 ] || fail "a cache cut at $cut of $n bytes: exit status $st, want 7"
done
: >"$C.x"
run clean "$STAMP" -K "$C.x"
status_is 7
{ cat "$C"; echo 'MORE=1'; } >"$C.x"
run clean "$STAMP" -K "$C.x"
status_is 7
sed '1s/$/ /' "$C" >"$C.x"
run clean "$STAMP" -K "$C.x"
status_is 7
sed '1s/ [^ ]*$/ 1:2:3:4.000000000:5.000000000:100644/' "$C" >"$C.x"
run clean "$STAMP" -K "$C.x"
status_is 7
sed '1s/a\.conf/a%2Econf/' "$C" >"$C.x"   # not the way -I writes it
run clean "$STAMP" -K "$C.x"
status_is 7
{ printf '# fwload-cache 1 %s -' "$(printf '%04100d' 0)"; echo; echo fwload_cache_end=1; } >"$C.x"
run clean "$STAMP" -K "$C.x"
status_is 7
fresh

# Whose file it is: not root's, writable by the group or others, a link,
# a directory, a FIFO (never blocks).
chown nobody "$C"
stale "a cache owned by nobody"
chown 0 "$C"
fresh
chmod 620 "$C"
stale "a group-writable cache"
chmod 602 "$C"
stale "a cache others can write"
chmod 600 "$C"
ln -s "$C" "$T/link"
run clean "$STAMP" -K "$T/link"
status_is 7
run clean "$STAMP" -K "$T/in"
status_is 7
mkfifo "$T/fifo"
run clean "$STAMP" -K "$T/fifo"
status_is 7
run clean "$STAMP" -K "$T/none"
status_is 7

# -K STAMP: the stamp line itself, as a caller read it from its cache (the
# decision's own inputs): fresh while they are unchanged, stale once one
# changed, whatever cache is at the path by then (a newer one, made for the
# new inputs, says nothing of the decision made from the old).
mkcache
stamp1=$(head -n 1 "$C")
run clean "$STAMP" -K "$stamp1"
status_is 0
stderr_is ''
mkfw "$A" 'A=stamp'
mkcache
fresh
run clean "$STAMP" -v -K "$stamp1"
status_is 7
stderr_is "fwload-stamp: the stamp is stale: an input changed"
run clean "$STAMP" -K "$(head -n 1 "$C")"
status_is 0
run clean "$STAMP" -K "# fwload-cache 1 $(printf '%04100d' 0) -"
status_is 7
run clean "$STAMP" -K "# fwload-cache 1 $A"
status_is 7

# A PATH not root's alone: named, 4, the stamp printed all the same; with
# -N (vouched for otherwise: a signature) not asked, and -R's 7 for a file
# changed too recently is not hidden behind a 4.
mkfw "$T/in/theirs" 'X=1'
chmod 666 "$T/in/theirs"
run clean "$STAMP" "$A" "$T/in/theirs"
status_is 4
stderr_is "fwload-stamp: not root's alone (owner 0, mode 666): $T/in/theirs"
stdout_is "# fwload-cache 1 $enc_t/in/a.conf $(id "$A") $enc_t/in/theirs $(id "$T/in/theirs")"
run clean "$STAMP" -N "$A" "$T/in/theirs"
status_is 0
stderr_is ''
stdout_is "# fwload-cache 1 $enc_t/in/a.conf $(id "$A") $enc_t/in/theirs $(id "$T/in/theirs")"
: >"$T/ref3"
mkfw "$T/in/theirs" 'X=2'
run clean "$STAMP" -R "$T/ref3" "$T/in/theirs"
status_is 4
run clean "$STAMP" -N -R "$T/ref3" "$T/in/theirs"
status_is 7
stderr_is ''

# Misuse.
for args in "" "-c $A" "-K" "-K $C $A" "-W -K $C" "-N -K $C"; do
	# shellcheck disable=SC2086 # args is a word list
	run clean "$STAMP" $args
	status_is 100
done
