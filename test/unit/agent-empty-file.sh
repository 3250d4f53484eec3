# SPDX-License-Identifier: MIT
# A zero-length firmware file cannot be delivered (the kernel would hand
# the driver ENOMEM). Like the kernel's own loader, the agent skips it and
# searches on: with nothing else found the request is cancelled (exit 1)
# and the log names the skipped file; a later non-empty copy is loaded.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
mkdir -p "$R/lib/firmware"
: >"$R/lib/firmware/empty.bin"

request empty.bin
run agent firmware
status_is 1
file_is "$REQ/loading" -1
file_is "$REQ/data" ""
grep -F "fwload: cancelled empty.bin for $E_DEVPATH; not found in $R " "$LOGF" |
	grep -Fq "; skipped $R/lib/firmware/empty.bin (empty file)" ||
	fail "no 'not found' line naming the skipped empty file; log: $(cat "$LOGF")"

mkdir -p "$R/extra"
printf 'later copy' >"$R/extra/empty.bin"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=/extra"
request empty.bin
run agent firmware
status_is 0
file_is "$REQ/data" "later copy"
log_matches "$(loaded_line empty.bin "$R/extra/empty.bin"); skipped $(ere "$R/lib/firmware/empty.bin") \\(empty file\\)"
