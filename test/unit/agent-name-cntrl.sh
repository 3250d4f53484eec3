# SPDX-License-Identifier: MIT
# `echo NAME >trigger_request` asks for "NAME\n": the kernel puts that name,
# newline and all, at the end of DEVPATH (only '/' becomes '!'). Such a
# request must still be answered at once (-1), not left to time out.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
needs fwloadctl

R=$T/root
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
mkfw "$R/lib/firmware/x.bin" "firmware"
nl='
'
for name in "x.bin$nl" "x${nl}y/z.bin" "x$(printf '\033')[2J.bin"; do
	request "$name"
	run agent firmware
	status_is 4
	file_is "$REQ/loading" -1 "loading for FIRMWARE '$name'"
	file_is "$REQ/data" "" "data for FIRMWARE '$name'"
	grep -q "^fwload: cancelled x.* for $TF/x.*; bad FIRMWARE name (control character in name)\$" "$LOGF" ||
		fail "no log line for FIRMWARE '$name': $(cat "$LOGF")"
	rm -f "$LOGF"
done

# (yash in the C locale keeps no byte over 127 in a variable: this case
# cannot make the names below there.)
case $TEST_SH in yash*) exit 0 ;; esac
# C1 control characters (U+0080 to U+009F: CSI is U+009B), as UTF-8
# (\302\233) and as a lone byte (\233, a terminal's 8-bit CSI), in a name
# that is otherwise fine: never shown raw. fwload's lines escape them
# (\xc2\x9b, \x9b), and so do fwloadctl's rescan, status (the pending
# requests and the missing list); UTF-8 letters (é) stay as they are.
csi8=$(printf '\302\233')
csi=$(printf '\233')
e_acute=$(printf '\303\251')
# (grep's patterns from files: yash in the C locale keeps no byte over 127
# in a variable it hands a program.)
printf '\233\n' >"$T/csi.pat"
printf '\303\251\n' >"$T/e.pat"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MISSING_DIR=$T/missing"
for name in "a${csi8}2J.bin" "b${csi}2J.bin"; do
	rm -rf "$SYS/class/firmware"
	pending "$e_acute$name"
	run ctl rescan
	! grep -qF -f "$T/csi.pat" "$T/stdout" "$LOGF" ||
		fail "a C1 control character shown raw: $(od -c "$T/stdout" | head -n 3)"
	grep -q '\\x9b2J\.bin' "$LOGF" || fail "the log line does not escape it: $(cat "$LOGF")"
	grep -qF -f "$T/e.pat" "$LOGF" || fail "the log line escaped a UTF-8 letter: $(cat "$LOGF")"
	grep -q '\\x9b2J\.bin: 1$' "$T/stdout" || fail "rescan's line: $(cat "$T/stdout")"
	# Pending again (status lists it), and in the missing list.
	: >"$REQ/loading"
	run ctl status
	! grep -qF -f "$T/csi.pat" "$T/stdout" || fail "status shows a C1 control character raw: $(grep -a 2J "$T/stdout" | od -c | head -n 3)"
	grep -q '\\x9b2J\.bin  /devices/.*age ' "$T/stdout" || fail "status, pending: $(cat "$T/stdout")"
	grep -q '^  .*\\x9b2J\.bin  /devices/' "$T/stdout" || fail "status, missing list: $(cat "$T/stdout")"
	rm -f "$LOGF" "$T/missing"/*
done
