# A zero-length file cannot be delivered (the kernel would hand the driver
# ENOMEM): fwload refuses it and the driver sees ENOENT at once.
. ../lib.sh
: >"$FW/fwload-test-empty.bin"
request_fails fwload-test-empty.bin 2
kmsg 'fwload: fwload-test-empty.bin: empty file /run/fw/fwload-test-empty.bin'
