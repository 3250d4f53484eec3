# SPDX-License-Identifier: MIT
# `echo NAME >trigger_request` asks for "NAME\n": the kernel puts that name,
# newline and all, at the end of DEVPATH (only '/' becomes '!'). Such a
# request must still be answered at once (-1), not left to time out.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

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
