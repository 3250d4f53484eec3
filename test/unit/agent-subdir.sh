# SPDX-License-Identifier: MIT
# A name with a directory: FIRMWARE keeps the '/', DEVPATH has '!' instead.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
mkimage "$R/lib/firmware/vendor/sub/dir.bin" 5000
mkfw "$R/lib/firmware/vendor!sub!dir.bin" "the DEVPATH spelling: wrong"

request vendor/sub/dir.bin
assert_eq DEVPATH "$TF/vendor!sub!dir.bin" "$E_DEVPATH"
run agent firmware
status_is 0
file_is "$REQ/loading" 10
data_is "$R/lib/firmware/vendor/sub/dir.bin"
log_matches "$(loaded_line vendor/sub/dir.bin "$R/lib/firmware/vendor/sub/dir.bin")"

# The same name missing: cancelled, the log names it with its '/'.
rm -r "$R/lib/firmware/vendor"
request vendor/sub/dir.bin
run agent firmware
status_is 1
file_is "$REQ/loading" -1
log_matches "fwload: cancelled vendor/sub/dir\\.bin for $(ere "$TF")/vendor!sub!dir\\.bin; not found in .*"
