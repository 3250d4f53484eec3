# SPDX-License-Identifier: MIT
# shellcheck disable=SC2086 # $TEST_SH is a command line ("busybox sh")
# Early boot: no /dev and no /proc yet, and the kernel starts its helper
# with fds 0-2 closed. hotplug and the agent must still serve what they can
# and cancel what they cannot: a redirection that cannot be opened (no
# /dev/null) must not end the shell. Here an empty tmpfs covers /dev and
# /proc in a mount namespace of the test's own (unshare -m, as root).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

unshare -m true || fail "unshare -m does not work here (the test needs root)"
R=$T/root
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
mkimage "$R/lib/firmware/x.bin" 9000
mkdir -p "$HOOKS/firmware"
printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$TEST_SH" "$REPO/firmware.agent" >"$HOOKS/firmware/50-firmware.hotplug"
chmod 755 "$HOOKS/firmware/50-firmware.hotplug"

# early COMMAND ARG...: COMMAND with the kernel's environment (kernel_env),
# no /dev, no /proc, fds 0-2 closed.
early() {
	# shellcheck disable=SC2016 # for the inner shell
	kernel_env unshare -m sh -c 'mount -t tmpfs none /dev && mount -t tmpfs none /proc &&
		[ ! -e /dev/null ] && [ ! -e /proc/self ] && exec "$@" 0<&- 1>&- 2>&-' sh "$@"
	st=$?
}

# hotplug starting the agent (a hook of its own), hotplug running the agent
# in its own shell (the hook is fwload's agent: FWLOAD_LIBEXEC/firmware.agent), the agent.
for via in hotplug hotplug-agent agent; do
	case $via in
	hotplug) set -- $TEST_SH "$REPO/hotplug" firmware ;;
	hotplug-agent)
		ln -sf "$REPO/firmware.agent" "$HOOKS/firmware/50-firmware.hotplug"
		set -- env FWLOAD_LIBEXEC="$LIBEXEC" $TEST_SH "$REPO/hotplug" firmware
		;;
	agent) set -- $TEST_SH "$REPO/firmware.agent" firmware ;;
	esac
	request x.bin
	early "$@"
	file_is "$REQ/loading" 10 "loading ($via, found)"
	data_is "$R/lib/firmware/x.bin"
	request missing.bin
	early "$@"
	file_is "$REQ/loading" -1 "loading ($via, missing)"
	request ../bad.bin "$TF/bad"
	early "$@"
	file_is "$REQ/loading" -1 "loading ($via, bad name)"
done
log_matches "fwload: cancelled missing\\.bin for $(ere "$TF/missing.bin"); not found in .*"
