# SPDX-License-Identifier: MIT
# An event without ACTION did not come from the kernel (which always sets
# it): exit 4, a message on stderr, nothing touched.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
mkfw "$R/lib/firmware/x.bin" "firmware"

request x.bin
unset E_ACTION
run agent firmware
status_is 4
untouched
stderr_is "fwload: firmware.agent: no ACTION in the environment"

request x.bin
E_ACTION=
run agent firmware
status_is 4
untouched
