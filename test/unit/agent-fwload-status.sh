# SPDX-License-Identifier: MIT
# The agent exits with fwload's status. When fwload cannot run, is killed or
# misused (anything but 0, 1, 2, 3, 111), the request may still be open:
# the agent cancels it (-1) and logs why.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
mkfw "$R/lib/firmware/x.bin" "firmware"

# fake STATUS-COMMAND: FWLOAD becomes a script that writes "1" to loading
# (as fwload would have started), then runs STATUS-COMMAND.
fake() {
	FWLOAD=$T/fake-fwload
	printf '#!/bin/sh\nprintf 1 >"%s"\n%s\n' "$REQ/loading" "$1" >"$FWLOAD"
	chmod 755 "$FWLOAD"
}

for status in 0 1 2 3 111; do
	request x.bin
	fake "exit $status"
	rm -f "$LOGF"
	run agent firmware
	status_is "$status"
	file_is "$REQ/loading" 1 "loading after fwload's exit $status (the agent must not add to it)"
	no_file "$LOGF" "the agent logged after fwload's exit $status"
done

for cmd in "exit 100" "exit 4" "exit 127" 'kill -9 $$'; do
	request x.bin
	fake "$cmd"
	rm -f "$LOGF"
	run agent firmware
	[ "$st" -ne 0 ] || fail "exit status 0 after fwload's '$cmd'"
	file_is "$REQ/loading" -1 "loading after fwload's '$cmd'"
	log_has "fwload: $FWLOAD ended with status $st; request for x.bin cancelled"
done

# No fwload at all (or not executable): cancelled, exit 111.
for FWLOAD in "$T/nonexistent" "$R/lib/firmware/x.bin"; do
	request x.bin
	rm -f "$LOGF"
	run agent firmware
	status_is 111
	file_is "$REQ/loading" -1
	file_is "$REQ/data" ""
	log_has "fwload: cannot run $FWLOAD; request for x.bin cancelled"
done
