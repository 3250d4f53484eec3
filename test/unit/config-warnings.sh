# SPDX-License-Identifier: MIT
# A line the agent cannot understand (unknown key, no '=', a bad value) is
# reported in the log (through fwload-log) with its line number and ignored,
# once: not again on the next event, while the config is unchanged. The
# request is still served. Comments, blank lines, leading blanks and a last
# line without a newline are all fine.
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
aged

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
sed '$d' "$LOGF" | diff "$T/want" - || fail "warnings in the log"
tail -n 1 "$LOGF" | grep -Eqx "$(loaded_line x.bin "$R/extra/x.bin")" ||
	fail "the log should end with fwload's line: $(cat "$LOGF")"
no_file "$T/relative" "LOG=relative/file was used"

# Once: the next event says nothing more about them.
request x.bin
run agent firmware
status_is 0
[ "$(grep -c "$CONF:" "$LOGF")" = 4 ] || fail "warnings repeated: $(cat "$LOGF")"

# Every other key's checks (fwloadctl shows them on stderr).
conf "LOG=$LOGF" COMPRESSED=maybe UNLISTED=x FORCE_FALLBACK=1 SOURCE=udev TIMEOUT=-1 DEADLINE=0 \
	MAX_SIZE=12T FIRMWARE_ROOT=rel MISSING_DIR=rel MISSING_LIST=/run/x MAX_SIZE=64M DEADLINE=30
needs fwloadctl
run ctl status
cat >"$T/want" <<END
fwload: $CONF:2: COMPRESSED wants yes or no; ignored
fwload: $CONF:3: UNLISTED wants load or refuse, not 'x'; refuse used
fwload: $CONF:4: FORCE_FALLBACK wants yes or no; ignored
fwload: $CONF:5: SOURCE wants auto, helper or hotplugd; ignored
fwload: $CONF:6: TIMEOUT wants whole seconds; ignored
fwload: $CONF:7: DEADLINE wants whole seconds, 1 to 86400, not '0'; the default (300) used
fwload: $CONF:8: MAX_SIZE wants bytes, 1 to 2047M (K, M or G after the number), not '12T'; the default (256M) used
fwload: $CONF:9: FIRMWARE_ROOT wants an absolute path; ignored
fwload: $CONF:10: MISSING_DIR wants an absolute path; ignored
fwload: $CONF:11: MISSING_LIST is now MISSING_DIR=/DIR (one file per name); ignored
END
diff "$T/want" "$T/stderr" || fail "warnings on stderr"
# The good MAX_SIZE and DEADLINE reach fwload.
printf '#!/bin/sh\nprintf "%%s\\n" "$@" >"%s"\n' "$T/args" >"$T/fwload-args"
chmod 755 "$T/fwload-args"
FWLOAD=$T/fwload-args
conf "FIRMWARE_PATH=$R/extra" MAX_SIZE=64M DEADLINE=30
rm -r "$RUN"  # (this fwload checks no cache: none is made)
request x.bin
run agent firmware
tr '\n' ' ' <"$T/args" | grep -q -- "-S 64M -T 30 " || fail "fwload got: $(cat "$T/args")"
