# SPDX-License-Identifier: MIT
# A well-formed event whose request directory has no loading file (a device
# directory: no request, or a forged event): nothing to answer, exit 111, a
# log line; nothing created. (A directory that is gone altogether is a
# request answered meanwhile: agent-gone.)
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
mkfw "$R/lib/firmware/x.bin" "firmware"

request x.bin
rm "$REQ/loading"
run agent firmware
status_is 111
log_has "fwload: no firmware request at $REQ (loading missing); event ignored"
no_file "$REQ/loading"
file_is "$REQ/data" ""
