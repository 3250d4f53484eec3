# SPDX-License-Identifier: MIT
# A well-formed event whose request is not (or no longer) in sysfs: nothing
# to answer, exit 111, a log line; nothing created.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
mkfw "$R/lib/firmware/x.bin" "firmware"

request x.bin
rm -r "$REQ"
run agent firmware
status_is 111
log_has "fwload: no firmware request at $REQ (loading missing); event ignored"
no_file "$REQ"

# A directory without loading (data only) is no request either.
request x.bin
rm "$REQ/loading"
run agent firmware
status_is 111
no_file "$REQ/loading"
file_is "$REQ/data" ""
