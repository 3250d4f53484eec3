# SPDX-License-Identifier: MIT
# A line the agent cannot understand (unknown key, no '=', a bad LOG value)
# is reported in the log with its line number and ignored; the request is
# still served. Comments, blank lines, leading blanks and a last line
# without a newline are all fine.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
mkfw "$R/extra/x.bin" "from FIRMWARE_PATH"
{
	echo "LOG=$LOGF"
	echo "# a comment"
	echo ""
	echo "   "
	echo "FOO=bar"
	echo "hello world"
	echo "LOG=relative/file"
	echo "	  FIRMWARE_ROOT=$R"
	echo "  # an indented comment"
	echo "firmware_path=/lowercase"
	printf '%s' "FIRMWARE_PATH=/extra"
} >"$CONF"

request x.bin
run agent firmware
status_is 0
file_is "$REQ/loading" 10
file_is "$REQ/data" "from FIRMWARE_PATH"
cat >"$T/want" <<END
fwload: $CONF:5: unknown setting FOO; ignored
fwload: $CONF:6: not KEY=VALUE; ignored
fwload: $CONF:7: LOG wants kmsg, syslog, none or /FILE; ignored
fwload: $CONF:10: unknown setting firmware_path; ignored
END
diff "$T/want" "$T/stderr" || fail "warnings on stderr"
sed '$d' "$LOGF" | diff "$T/want" - || fail "warnings in the log"
tail -n 1 "$LOGF" | grep -Eqx "$(loaded_line x.bin "$R/extra/x.bin")" ||
	fail "the log should end with fwload's line: $(cat "$LOGF")"
no_file "$T/relative" "LOG=relative/file was used"
