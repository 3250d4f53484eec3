# SPDX-License-Identifier: MIT
# The child's environment from the netlink path: the allowed keys only. A
# synthetic uevent written to test_firmware's uevent file with arguments
# ("change UUID KEY=VALUE ...", letters and digits only) carries SYNTH_UUID
# and SYNTH_ARG_KEY=VALUE variables besides the device's own (MAJOR, MINOR,
# DEVNAME): with -s misc
# the child gets the event's ACTION, DEVPATH, SUBSYSTEM, SEQNUM and device
# keys, HOME=/ and the kernel's PATH, and nothing else. A firmware request's
# child gets exactly the kernel helper's variables, and hotplugd's own
# FWLOAD_HOLD_DETACH (a hold never keeps a job slot).
. ../lib.sh
. ./hotplugd-lib
# PROGRAM: its environment's names (the shell's own left out) and FIRMWARE.
cat >/run/hp-env <<'END'
#!/bin/sh
{
	env | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)=.*/\1/p' | grep -v -e '^PWD$' -e '^SHLVL$' -e '^_$' -e '^OLDPWD$' |
		LC_ALL=C sort | tr '\n' ' '
	echo
} >"/run/hp-env.$1.$$"
[ "$1" = firmware ] && exec /sbin/hotplug "$@"
exit 0
END
chmod 755 /run/hp-env
rm -f /run/hp-env.*
start_hotplugd -s misc -s firmware -x /run/hp-env
echo "change 2f5b2b72-8a4c-4c0e-b2a1-8a1b9a6c3d10 HOTPLUGDIR=tmp IFS=x" >"$TF/uevent" ||
	fail "the kernel refused the synthetic uevent"
mkimage fwload-test-env.bin 3000
request fwload-test-env.bin
i=0
while ! cat /run/hp-env.misc.* >/dev/null 2>&1 && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
stop_hotplugd
misc=$(cat /run/hp-env.misc.*) || fail "PROGRAM did not run for the misc event"
want="ACTION DEVNAME DEVPATH HOME MAJOR MINOR PATH SEQNUM SUBSYSTEM "
[ "$misc" = "$want" ] || fail "the misc event's child got: $misc; want: $want"
fw=$(cat /run/hp-env.firmware.*) || fail "PROGRAM did not run for the firmware event"
want="ACTION ASYNC DEVPATH FIRMWARE FWLOAD_HOLD_DETACH HOME PATH SEQNUM SUBSYSTEM TIMEOUT "
[ "$fw" = "$want" ] || fail "the firmware event's child got: $fw; want: $want"
echo "ok: the children got the allowed keys only (misc: $misc)"
