# SPDX-License-Identifier: MIT
# Events that are not a firmware request being added are not the agent's:
# exit 0, nothing written, nothing logged. ACTION=remove follows every
# request when its directory goes away.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
mkfw "$R/lib/firmware/x.bin" "firmware"

# quiet: exit 0, and no trace at all.
quiet() {
	status_is 0
	untouched
	stdout_is ''
	stderr_is ''
	no_file "$LOGF" "the agent logged for an event that is not its own"
}

for action in remove change bind unbind move online offline ADD 'add '; do
	request x.bin
	E_ACTION=$action
	run agent firmware
	quiet
done

# Another subsystem, as argument or (without one) in the environment.
for sub in block net firmware_class firmwarex ''; do
	request x.bin
	E_SUBSYSTEM=$sub
	run agent "$sub"
	quiet
	run agent
	quiet
done

# The control: no argument, SUBSYSTEM=firmware, ACTION=add is served.
request x.bin
run agent
status_is 0
file_is "$REQ/loading" 10
file_is "$REQ/data" firmware
