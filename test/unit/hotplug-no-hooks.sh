# SPDX-License-Identifier: MIT
# An event with no hooks (the common case: hotplug runs for every uevent)
# exits 0 quietly, whether the hooks directory is empty or missing.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

request x.bin
for sub in firmware block net; do
	run hotplug "$sub"
	status_is 0
	stdout_is ''
	stderr_is ''
done
rmdir "$HOOKS"
run hotplug firmware
status_is 0
stderr_is ''
untouched
