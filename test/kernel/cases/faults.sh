# SPDX-License-Identifier: MIT
# Faults in the middle of a real load, injected by test/fault.so into the
# dynamically linked test/fwload-dyn, each against a real pending request
# (custom fallback: no uevent, so no helper races us). Every one must end in
# -1 -- the driver sees a failed request (ENODEV, 19), never a short or
# changed image -- except the no-sendfile fallback, which must load exactly.
. ../lib.sh
if ! [ -x /usr/bin/ldd ]; then
	echo "skip: no dynamic loader in this root (busybox only)"
	exit 77
fi
FWD=/src/test/fwload-dyn
if ! [ -x "$FWD" ] || ! [ -f /src/test/fault.so ]; then
	fail "test/fwload-dyn and test/fault.so must be built"
fi
mkimage fwload-test-faults.bin 1048576
img=$FW/fwload-test-faults.bin

# fault_load EXPECTED_STATUS EXPECTED_ERRNO FAULT=VALUE...: load the image
# under the given faults and check both ends.
fault_load() {
	want_status=$1
	want_err=$2
	shift 2
	cp "$FW/fwload-test-faults.bin" /run/faults-img.bin
	custom_request fwload-test-faults.bin
	env "$@" FAULT_IMAGE=/run/faults-img.bin FAULT_STATS=/run/faults.stats \
		LD_PRELOAD=/src/test/fault.so "$FWD" "$dev" /run/faults-img.bin 2>/run/faults.err
	status=$?
	custom_result
	[ "$status" = "$want_status" ] || fail "$*: fwload exited $status, want $want_status: $(cat /run/faults.err)"
	[ "$err" = "$want_err" ] || fail "$*: request ended with errno $err, want $want_err"
	echo "ok: $* -> status $status, driver errno $err: $(cat /run/faults.err)"
}

# sendfile unsupported: the read/write loop meets the kernel's real
# one-page short writes and must still deliver every byte.
fault_load 0 0 FAULT_NO_SENDFILE=1
cmp "$img" /dev/test_firmware || fail "read/write fallback: the driver got a different image"
writes=$(sed -n 's/^write //p' /run/faults.stats)
[ "$writes" -ge 256 ] || fail "1 MiB in $writes write() calls: the short writes were not exercised"
echo "ok: read/write fallback took $writes write() calls for 1 MiB"

fault_load 2 19 FAULT_TRUNCATE_AT=65536
fault_load 2 19 FAULT_APPEND_AT=65536
fault_load 2 19 FAULT_REWRITE_AT=65536
fault_load 2 19 FAULT_NO_SENDFILE=1 FAULT_READ_EIO_AT=65536
fault_load 2 19 FAULT_EIO_AT=65536
