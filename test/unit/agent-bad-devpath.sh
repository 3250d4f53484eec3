# SPDX-License-Identifier: MIT
# A DEVPATH that is missing, relative or has a '..' component names no
# request the agent may touch: exit 4, a log line, nothing written. Each bad
# DEVPATH would reach a real request if the agent followed it.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
mkfw "$R/lib/firmware/x.bin" "firmware"

# check DEVPATH|- REASON: refused for REASON ("-": no DEVPATH at all).
check() {
	request x.bin
	if [ "$1" = - ]; then
		unset E_DEVPATH
	else
		E_DEVPATH=$1
	fi
	rm -f "$LOGF"
	run agent firmware
	status_is 4
	untouched
	[ "$(wc -l <"$LOGF")" -eq 1 ] || fail "want one log line, got: $(cat "$LOGF")"
	grep -q "^fwload: bad DEVPATH '.*' ($2); event refused$" "$LOGF" ||
		fail "DEVPATH '$1': want a log line for '$2', got: $(cat "$LOGF")"
}
check - "empty name"
check "" "empty name"
check "${TF#/}/x.bin" "not absolute"
check "x.bin" "not absolute"
check "$TF/../test_firmware/x.bin" "'..' component"
check "$TF/x.bin/.." "'..' component"
check "$TF/x.bin/../x.bin" "'..' component"
check "/..$TF/x.bin" "'..' component"
check "$TF/x.bin/../../../../../x.bin" "'..' component"

# The control: the same request with its own DEVPATH is served.
request x.bin
run agent firmware
status_is 0
file_is "$REQ/loading" 10
file_is "$REQ/data" firmware
