# SPDX-License-Identifier: MIT
# The kernel starts its helper with fds 0, 1 and 2 closed. hotplug, the
# agent and fwload must fill them before opening anything, or a file they
# open becomes stdout/stderr and catches a stray message: data must hold
# exactly the image, and every program must see /dev/null on fds 0-2.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
mkimage "$R/lib/firmware/x.bin" 70000

# The agent alone.
request x.bin
agent firmware 0<&- 1>&- 2>&-
st=$?
status_is 0
file_is "$REQ/loading" 10
data_is "$R/lib/firmware/x.bin"
log_matches "$(loaded_line x.bin "$R/lib/firmware/x.bin")"

# A failure has messages for stderr: they must not land in data or loading.
rm -f "$LOGF"
request missing.bin
agent firmware 0<&- 1>&- 2>&-
st=$?
status_is 1
file_is "$REQ/loading" -1
file_is "$REQ/data" ""
log_matches "fwload: cancelled missing\\.bin for .*; not found in .*"

# hotplug -> agent -> fwload, the way the kernel runs it. The hook runs the
# agent under the shell being tested.
mkdir -p "$HOOKS/firmware"
cat >"$HOOKS/firmware/50-firmware.hotplug" <<END
#!/bin/sh
for fd in 0 1 2; do
	echo "hook \$fd \$(readlink /proc/\$\$/fd/\$fd)" >>"$T/fds"
done
exec $TEST_SH "$REPO/firmware.agent" "\$@"
END
chmod 755 "$HOOKS/firmware/50-firmware.hotplug"
request x.bin
hotplug firmware 0<&- 1>&- 2>&-
st=$?
status_is 0
file_is "$REQ/loading" 10
data_is "$R/lib/firmware/x.bin"
printf 'hook %s /dev/null\n' 0 1 2 | diff - "$T/fds" || fail "hotplug's hook did not get /dev/null on fds 0-2"

# What the agent hands fwload when hotplug runs it: fds 0-2 open on
# /dev/null (hotplug opens them; the agent adds no system calls of its own).
cat >"$HOOKS/firmware/50-firmware.hotplug" <<END
#!/bin/sh
exec $TEST_SH "$REPO/firmware.agent" "\$@"
END
FWLOAD=$T/fwload-fds
cat >"$FWLOAD" <<END
#!/bin/sh
# (-O, a setting's check, answers into a command substitution: a pipe.)
[ "\$3" = -O ] || for fd in 0 1 2; do
	echo "fwload \$fd \$(readlink /proc/\$\$/fd/\$fd)" >>"$T/fds2"
done
exec "$FWBIN" "\$@"
END
chmod 755 "$FWLOAD"
request x.bin
hotplug firmware 0<&- 1>&- 2>&-
st=$?
status_is 0
data_is "$R/lib/firmware/x.bin"
# (fd 0: /dev/null, or the firmware_class.path file the agent read last,
# read-only: the agent reads it on fd 0, which nothing after reads.)
sed "s|^fwload 0 $SYS/module/firmware_class/parameters/path\$|fwload 0 /dev/null|" "$T/fds2" >"$T/fds2.seen"
printf 'fwload %s /dev/null\n' 0 1 2 | diff - "$T/fds2.seen" || fail "the agent did not give fwload /dev/null on fds 0-2"

# fwload alone, -v (a success message for stderr), and a failure.
FWLOAD=$FWBIN
request x.bin
clean "$FWBIN" -v -s "$SYS" -l "$LOGF" "$E_DEVPATH" "$R/lib/firmware/x.bin" 0<&- 1>&- 2>&-
st=$?
status_is 0
file_is "$REQ/loading" 10
data_is "$R/lib/firmware/x.bin"
request x.bin
clean "$FWBIN" -v -s "$SYS" -l "$LOGF" "$E_DEVPATH" "$T/nonexistent" 0<&- 1>&- 2>&-
st=$?
status_is 2
file_is "$REQ/loading" -1
file_is "$REQ/data" ""
