# SPDX-License-Identifier: MIT
# A name found in no directory is cancelled at once: the driver gets ENOENT
# (2) in under a second, not the timeout's ETIMEDOUT (110) after 60 s, and
# the kernel log says where fwload's agent looked.
. ../lib.sh
request_fails absent.bin 2
[ "${ms%.*}" -lt 1000 ] || fail "absent.bin: cancelled after $ms ms, want under 1000"
kmsg "fwload: cancelled absent\\.bin for /devices/virtual/misc/test_firmware/absent\\.bin; not found in "
echo "ok: cancelled in $ms ms (under 1 s)"
