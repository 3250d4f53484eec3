# SPDX-License-Identifier: MIT
# fwload.conf and the rules file are parsed once into $FWLOAD_RUNDIR/
# conf.cache (validated assignments, the rules as one shell function),
# which the agent sources; fwload checks the cache's stamp (the identity of
# each input) before it acts on a decision made from it (-K), and a changed
# input means the files are read again, at once. The cache: fwload's stamp
# first, "fwload_cache_end=1" last, every statement on one line (a cache cut
# at any line boundary is never a syntax error), comments gone, values as
# data. A change takes effect on the next event, a removed file too.
# Without a writable run directory the agent parses both files on every
# event, and still serves.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
mkfw "$R/a/x.bin" "from a"
mkfw "$R/b/x.bin" "from b"
mkfw "$R/lib/firmware/x.bin" "from the base"
mkfw "$R/rule/y.bin" "by the rule"
mkfw "$R/lib/firmware/y.bin" "y from the base"
{
	echo "LOG=$LOGF"
	echo "FIRMWARE_ROOT=$R"
	i=0
	while [ $i -lt 40 ]; do
		echo "# A comment line, of which the installed fwload.conf has many ($i)."
		i=$((i + 1))
	done
	echo "FIRMWARE_PATH=/a"
} >"$CONF"
aged

# expect NAME DATA: a request for NAME gets DATA.
expect() {
	request "$1"
	run agent firmware
	status_is 0
	file_is "$REQ/data" "$2" "data for $1"
}
# /a comes after the kernel's directories: remove the base copy of x.bin.
rm "$R/lib/firmware/x.bin"
expect x.bin "from a"
[ -f "$RUN/conf.cache" ] || fail "no cache made"
[ "$(find "$RUN" -maxdepth 0 -perm 700)" = "$RUN" ] || fail "run directory not 0700: $(ls -ld "$RUN")"
! grep -q 'A comment line' "$RUN/conf.cache" || fail "comments in the cache"
head -n 1 "$RUN/conf.cache" | grep -q '^# fwload-cache 1 ' || fail "no stamp first: $(head -n 1 "$RUN/conf.cache")"
[ "$(tail -n 1 "$RUN/conf.cache")" = fwload_cache_end=1 ] || fail "no end line last: $(tail -n 1 "$RUN/conf.cache")"
"$LIBEXEC/fwload-stamp" -K "$RUN/conf.cache" || fail "fwload-stamp says the cache it was made for is not fresh"
expect x.bin "from a"

# Whole statements, one a line: the cache cut after any line is never a
# syntax error (a damaged cache cannot end the shell that sources it).
n=$(wc -l <"$RUN/conf.cache")
i=1
while [ "$i" -le "$n" ]; do
	head -n "$i" "$RUN/conf.cache" >"$T/cut"
	# shellcheck disable=SC2086 # TEST_SH is a command line
	$TEST_SH -n "$T/cut" 2>"$T/err" || fail "the cache cut after line $i is not shell: $(cat "$T/err")"
	i=$((i + 1))
done

# explain reads the same state: the cache while fwload says it is fresh.
needs fwloadctl
run ctl explain x.bin
status_is 0
grep -qx "config:   $CONF (the cache $RUN/conf.cache, fresh), FIRMWARE_ROOT=$R, FIRMWARE_PATH=/a, LOG=$LOGF" "$T/stdout" ||
	fail "explain with a fresh cache: $(cat "$T/stdout")"

# A change takes effect on the next event, within the same second too;
# explain says it reads the files.
sed -i 's|^FIRMWARE_PATH=/a$|FIRMWARE_PATH=/b|' "$CONF"
run ctl explain x.bin
status_is 0
grep -qx "config:   $CONF (read now: no fresh cache), FIRMWARE_ROOT=$R, FIRMWARE_PATH=/b, LOG=$LOGF" "$T/stdout" ||
	fail "explain with a stale cache: $(cat "$T/stdout")"
grep -qx "decision: load $R/b/x.bin, 6 bytes" "$T/stdout" || fail "explain with a stale cache: $(cat "$T/stdout")"
expect x.bin "from b"
# So does a new rules file, a changed one, and a removed one.
echo "firmware=y.bin dir=/rule" >"$T/fwload.rules"
expect y.bin "by the rule"
echo "firmware=nothing.bin dir=/rule" >"$T/fwload.rules"
expect y.bin "y from the base"
echo "firmware=y.bin dir=/rule" >"$T/fwload.rules"
expect y.bin "by the rule"
rm "$T/fwload.rules"
expect y.bin "y from the base"
# And a removed config: the defaults (LOG=kmsg: not here, no FIRMWARE_ROOT).
mv "$CONF" "$T/conf.saved"
mkdir -p "$T/sys/module/firmware_class/parameters"
echo "$R/b" >"$SYS/module/firmware_class/parameters/path"
FWLOAD=$T/fwload-nolog
own_libexec
rm "$LIBEXEC/fwload-log"
# shellcheck disable=SC2016 # the wrappers' own expansions
printf '#!/bin/sh\nexec "%s" -l none "$@"\n' "$FWBIN" >"$FWLOAD"
# shellcheck disable=SC2016
printf '#!/bin/sh\nexec "%s" -l none "$@"\n' "$HELPERS/fwload-log" >"$LIBEXEC/fwload-log"
chmod 755 "$FWLOAD" "$LIBEXEC/fwload-log"
expect x.bin "from b"
rm -r "$SYS/module"
FWLOAD=$FWBIN LIBEXEC=$HELPERS
mv "$T/conf.saved" "$CONF"

# Values are data: quotes, $(...) and backquotes stay as they are, and so
# do newlines (in a device tree's strings, say): each value on one line.
mkfw "$R/q'\$(touch $T/pwned)\`touch $T/pwned2\`/x.bin" "from the odd one"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=/q'\$(touch $T/pwned)\`touch $T/pwned2\`"
printf '%s\n' "firmware=z'\$(touch $T/pwned3).bin dir=/nowhere" >"$T/fwload.rules"
aged
expect x.bin "from the odd one"
expect x.bin "from the odd one"
grep -q "touch" "$RUN/conf.cache" || fail "no cache of the odd values"
no_file "$T/pwned" "a value ran as code"
no_file "$T/pwned2" "a value ran as code"
no_file "$T/pwned3" "a rule ran as code"
rm "$T/fwload.rules"

# No writable run directory: parsed on every event, still served, and the
# bad line reported each time (there is nowhere to remember it).
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=/a" BOGUS=1
aged
RUN=$T/a-file/run
: >"$T/a-file"
rm -f "$LOGF"
expect x.bin "from a"
expect x.bin "from a"
[ "$(grep -c 'unknown setting BOGUS' "$LOGF")" = 2 ] || fail "log: $(cat "$LOGF")"
no_file "$T/a-file/run"
