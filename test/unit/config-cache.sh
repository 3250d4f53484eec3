# SPDX-License-Identifier: MIT
# fwload.conf and the rules file are parsed once into $FWLOAD_RUNDIR/
# conf.cache (validated assignments, the rules as one shell function), which
# the agent sources while it is newer than both: comments cost nothing per
# event. A changed config or rules file takes effect on the next event, a
# removed one too. Values are data, never code. Without a writable run
# directory the agent parses both on every event, and still serves.
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
expect x.bin "from a"

# A change takes effect on the next event, even within the same second.
sed -i 's|^FIRMWARE_PATH=/a$|FIRMWARE_PATH=/b|' "$CONF"
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
FWLOAD_CONF_WAS=$CONF
CONF=$T/none.conf
mkdir -p "$T/sys/module/firmware_class/parameters"
echo "$R/b" >"$SYS/module/firmware_class/parameters/path"
FWLOAD=$T/fwload-nolog
printf '#!/bin/sh\nexec "%s" -l none "$@"\n' "$FWBIN" >"$FWLOAD"
chmod 755 "$FWLOAD"
expect x.bin "from b"
rm -r "$SYS/module"
FWLOAD=$FWBIN
CONF=$FWLOAD_CONF_WAS
mv "$T/conf.saved" "$CONF"

# Values are data: quotes, $(...) and backquotes stay as they are.
mkfw "$R/q'\$(touch $T/pwned)\`touch $T/pwned2\`/x.bin" "from the odd one"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=/q'\$(touch $T/pwned)\`touch $T/pwned2\`"
printf '%s\n' "firmware=z'\$(touch $T/pwned3).bin dir=/nowhere" >"$T/fwload.rules"
expect x.bin "from the odd one"
no_file "$T/pwned" "a value ran as code"
no_file "$T/pwned2" "a value ran as code"
no_file "$T/pwned3" "a rule ran as code"
rm "$T/fwload.rules"

# No writable run directory: parsed on every event, still served, and the
# bad line reported each time (there is nowhere to remember it).
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=/a" BOGUS=1
RUN=$T/a-file/run
: >"$T/a-file"
rm -f "$LOGF"
expect x.bin "from a"
expect x.bin "from a"
[ "$(grep -c 'unknown setting BOGUS' "$LOGF")" = 2 ] || fail "log: $(cat "$LOGF")"
no_file "$T/a-file/run"
