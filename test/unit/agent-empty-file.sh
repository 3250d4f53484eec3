# A zero-length firmware file cannot be delivered (the kernel would hand
# the driver ENOMEM): fwload refuses it before starting, so loading gets
# only "-1"; exit 2, and the log says why.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
mkdir -p "$R/lib/firmware"
: >"$R/lib/firmware/empty.bin"

request empty.bin
run agent firmware
status_is 2
file_is "$REQ/loading" -1
file_is "$REQ/data" ""
log_has "fwload: empty.bin: empty file $R/lib/firmware/empty.bin"
