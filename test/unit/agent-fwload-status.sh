# SPDX-License-Identifier: MIT
# The agent exits with fwload's status: 0 loaded, 1, 2, 3, 111, and 5
# (another answerer holds the request) and 6 (a firmware-upload device),
# which are not failures: it adds nothing to the request. When fwload cannot
# run (126, 127), is killed (128+n, or 256+n, 384+n in other shells) or
# misused (4, 100), the request may still be open: the agent cancels it
# through "fwload -c" and exits 111, or 3 after a signal.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
mkfw "$R/lib/firmware/x.bin" "firmware"

# fake STATUS-COMMAND: FWLOAD becomes a script that writes "1" to loading
# (as fwload would have started), then runs STATUS-COMMAND; a cancel
# (-c) goes to the real fwload.
fake() {
	FWLOAD=$T/fake-fwload
	printf '#!/bin/sh\ncase " $* " in *" -c "*) exec "%s" "$@" ;; esac\nprintf 1 >"%s"\n%s\n' \
		"$FWBIN" "$REQ/loading" "$1" >"$FWLOAD"
	chmod 755 "$FWLOAD"
}

for status in 0 1 2 3 5 6 111; do
	request x.bin
	fake "exit $status"
	rm -f "$LOGF"
	run agent firmware
	status_is "$status"
	file_is "$REQ/loading" 1 "loading after fwload's exit $status (the agent must not add to it)"
	no_file "$LOGF" "the agent logged after fwload's exit $status"
done

for cmd in "exit 100:111" "exit 4:111" "exit 127:111" "exit 126:111" 'kill -9 $$:3' 'kill -TERM $$:3'; do
	request x.bin
	fake "${cmd%:*}"
	rm -f "$LOGF"
	run agent firmware
	status_is "${cmd##*:}"
	file_is "$REQ/loading" -1 "loading after fwload's '${cmd%:*}'"
	log_matches "fwload: cancelled x\\.bin for $(ere "$E_DEVPATH"); x\\.bin: fwload ended with status [0-9]+"
done

# No fwload at all (or not executable): nothing to take the request's
# lock, so the agent writes -1 itself, says so on stderr, and exits 111.
for FWLOAD in "$T/nonexistent" "$R/lib/firmware/x.bin"; do
	request x.bin
	rm -f "$LOGF"
	run agent firmware
	status_is 111
	file_is "$REQ/loading" -1
	file_is "$REQ/data" ""
	grep -q "^fwload: cannot run $FWLOAD; x.bin: fwload ended with status 12[67]; request cancelled\$" "$T/stderr" ||
		fail "stderr: $(cat "$T/stderr")"
done
