# SPDX-License-Identifier: MIT
# No fwload.conf: the defaults (no FIRMWARE_ROOT, no FIRMWARE_PATH, LOG=kmsg)
# and the request is still served. To keep this test out of the host's
# kernel log, FWLOAD is a wrapper that records its arguments and runs the
# real fwload with "-l none" instead of what it was given.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

CONF=$T/no-such.conf
FWLOAD=$T/fwload-wrapper
cat >"$FWLOAD" <<END
#!/bin/sh
printf '%s\n' "\$@" >"$T/args"
n=\$#
prev=
while [ "\$n" -gt 0 ]; do
	a=\$1
	shift
	[ "\$prev" = -l ] && a=none
	set -- "\$@" "\$a"
	prev=\$a
	n=\$((n - 1))
done
exec "$FWBIN" "\$@"
END
chmod 755 "$FWLOAD"

# Only firmware_class.path is searched with a real (absolute) directory:
# the default list is under /, which the test must not rely on.
mkdir -p "$SYS/module/firmware_class/parameters"
echo "$T/fw" >"$SYS/module/firmware_class/parameters/path"
name=fwload-unit-config-missing.bin
mkimage "$T/fw/$name" 3000

request "$name"
run agent firmware
status_is 0
file_is "$REQ/loading" 10
data_is "$T/fw/$name"
stderr_is ''
# One -r root: a plain file lies in the directory it was found in.
printf '%s\n' -e -l kmsg -k "$RUN/lock" -n "$name" -s "$SYS" -r "$T/fw" -- "$E_DEVPATH" "$T/fw/$name" >"$T/want"
diff "$T/want" "$T/args" || fail "fwload was not called with the defaults"
