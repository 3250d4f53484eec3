# SPDX-License-Identifier: MIT
# Firmware found nowhere: the request is cancelled at once (-1, so the
# driver sees ENOENT instead of waiting out TIMEOUT), exit 1, and fwload's
# one log line lists every directory searched.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
mkdir -p "$R/lib/firmware"
echo 6.12.0-test >"$T/proc/sys/kernel/osrelease"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=/opt/fw"

request fwload-test-missing.bin
run agent firmware
status_is 1
file_is "$REQ/loading" -1
file_is "$REQ/data" ""
line="fwload: cancelled fwload-test-missing.bin for $TF/fwload-test-missing.bin; not found in $R /lib/firmware/updates/6.12.0-test:/lib/firmware/updates:/lib/firmware/6.12.0-test:/lib/firmware:/opt/fw"
printf '%s\n' "$line" | cmp -s - "$LOGF" || fail "want exactly the line '$line' in the log, got: $(cat "$LOGF")"

# Without FIRMWARE_ROOT the directories are searched as they are.
conf "LOG=$LOGF"
rm "$LOGF"
request fwload-test-missing.bin
run agent firmware
status_is 1
file_is "$REQ/loading" -1
log_has "fwload: cancelled fwload-test-missing.bin for $TF/fwload-test-missing.bin; not found in /lib/firmware/updates/6.12.0-test:/lib/firmware/updates:/lib/firmware/6.12.0-test:/lib/firmware"
