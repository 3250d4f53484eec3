# SPDX-License-Identifier: MIT
# OpenWrt's procd runs its hotplug hooks one at a time, and then answers
# the request itself (hotplug.json: load-firmware): a hold there would
# stop every later uevent, and a hold in the background would be answered
# by procd at once. So the package's hook (contrib/openwrt, sourced by
# hotplug-call) runs the agent with FWLOAD_SOURCE=procd, and the agent
# refuses HOLD= there: a name not found is cancelled at once, the log line
# says why; a name found is loaded as ever.
# shellcheck disable=SC2016,SC2086 # the hook's own expansions; $TEST_SH is a command line
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
D=$R/lib/firmware
mkdir -p "$D"
echo 6.12.0-test >"$T/proc/sys/kernel/osrelease"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" HOLD=30
# hotplug-call sources each hook of /etc/hotplug.d/firmware: the package's,
# its agent here.
sed "s|/usr/libexec/fwload/firmware.agent|$REPO/firmware.agent|" \
	"$REPO/contrib/openwrt/fwload/files/fwload.hotplug" >"$T/20-fwload"
grep -q "$REPO/firmware.agent firmware" "$T/20-fwload" || fail "the hook does not run the agent: $(cat "$T/20-fwload")"
printf '%s\n' '. "$1"' >"$T/hotplug-call"

request missing.bin
run kernel_env $TEST_SH "$T/hotplug-call" "$T/20-fwload"
status_is 1
file_is "$REQ/loading" -1
no_file "$RUN/held" "a hold record under procd"
log_matches "fwload: cancelled missing\.bin for $(ere "$E_DEVPATH"); not found in .* \(HOLD=30, but procd answers every request itself once its hooks are done: no hold under procd\)"
[ "$(wc -l <"$LOGF")" = 1 ] || fail "more than one line: $(cat "$LOGF")"

mkfw "$D/here.bin" "here"
request here.bin
run kernel_env $TEST_SH "$T/hotplug-call" "$T/20-fwload"
status_is 0
file_is "$REQ/data" here
