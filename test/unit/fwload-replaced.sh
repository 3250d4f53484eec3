# SPDX-License-Identifier: MIT
# shellcheck disable=SC2086 # $PRELOAD and $DYN are word lists (see lib.sh)
# loading and data are opened relative to one directory fd: a request
# replaced by a new one at the same DEVPATH right after fwload opened
# loading gets nothing from this fwload; the old request gets the whole
# answer. (Before, data was looked up by name later, and the new request got
# the image while the old one got "1" and "0" with no data.)
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkimage "$T/img" 10000
request x.bin
mkdir "$REQ.new"
: >"$REQ.new/loading"
: >"$REQ.new/data"
fault_run FAULT_REPLACE="$REQ" -- -s "$SYS" "$E_DEVPATH" "$T/img"
[ -d "$REQ.old" ] || fail "the request was not replaced"
status_is 0
file_is "$REQ.old/loading" 10 "the old request's loading"
cmp -s "$T/img" "$REQ.old/data" || fail "the old request's data is not the image"
file_is "$REQ/loading" "" "the new request's loading"
file_is "$REQ/data" "" "the new request's data"
