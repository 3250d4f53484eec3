# SPDX-License-Identifier: MIT
# MISSING_DIR=DIR (off by default): a request for firmware that is not there
# is cancelled once (by fwload) and listed as DIR/KEY, KEY the name with '!'
# for '/', holding the DEVPATH; a later load of that name removes it. A
# firmware-upload device is no request: never listed.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
L=$T/run/missing
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MISSING_DIR=$L"

request gone.bin
printf zzz >"$REQ/loading"  # fwload writes at offset 0; a second cancel would show
run agent firmware
status_is 1
file_is "$REQ/loading" -1z "loading (one cancel, by fwload)"
file_is "$L/gone.bin" "$TF/gone.bin
"
request vendor/late.bin
run agent firmware
status_is 1
file_is "$L/vendor!late.bin" "$TF/vendor!late.bin
"
mkfw "$R/lib/firmware/vendor/late.bin" "here now"
request vendor/late.bin
run agent firmware
status_is 0
file_is "$REQ/data" "here now"
no_file "$L/vendor!late.bin" "listed after it loaded"
file_is "$L/gone.bin" "$TF/gone.bin
"

request flash.bin
: >"$REQ/remaining_size"
run agent firmware
status_is 6
untouched
no_file "$L/flash.bin" "a firmware-upload device in the missing list"

# Off by default: nothing listed anywhere.
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
rm -r "$L"
request gone.bin
run agent firmware
status_is 1
no_file "$L"
