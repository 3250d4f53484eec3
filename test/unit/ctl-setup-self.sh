# SPDX-License-Identifier: MIT
# shellcheck disable=SC2086 # $TEST_SH is a command line ("busybox sh")
# fwloadctl setup never keeps our own hotplug as "the previous helper" (it
# would run itself for every other event, for ever): helpers are compared
# as files, not as strings, and another copy of our hotplug is ours too.
# The kernel's helper naming it through another path: a merged /usr
# (/sbin -> usr/sbin), CONFIG_UEVENT_HELPER_PATH=/sbin/hotplug with a
# PREFIX=/usr install. A helper that does not exist is not kept either
# (setup says so). Counted: the programs one usb event starts (execve),
# under strace; a hang guard of 10 s, whose expiry is a failure.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

command -v strace >/dev/null 2>&1 || fail "strace is not installed (test/deps.sh installs it)"
P=$T/proc
H=$P/sys/kernel/hotplug
mkdir -p "$P/sys/kernel" "$SYS/class/firmware" "$T/usr/sbin" "$T/old/sbin"
ln -s usr/sbin "$T/sbin"
cp "$REPO/hotplug" "$T/usr/sbin/hotplug"
cp "$REPO/hotplug" "$T/old/sbin/hotplug"  # an older install's copy
chmod 755 "$T/usr/sbin/hotplug" "$T/old/sbin/hotplug"
conf "LOG=$LOGF" FORCE_FALLBACK=no
unset E_ACTION E_DEVPATH E_FIRMWARE E_SUBSYSTEM E_TIMEOUT E_ASYNC E_SEQNUM

# setup: fwloadctl setup, our hotplug installed at $T/usr/sbin/hotplug.
setup() {
	run kernel_env FWLOAD_HOTPLUG="$T/usr/sbin/hotplug" $TEST_SH "$REPO/fwloadctl" setup
}
# usb_event: one usb event as the kernel runs its helper ($H's value);
# sets $progs, the programs it started.
usb_event() {
	read -r helper <"$H"
	rm -f "$T/strace"
	env -i ACTION=add SUBSYSTEM=usb DEVPATH=/devices/pci0000:00/usb1 SEQNUM=7 HOME=/ PATH="$KPATH" \
		HOTPLUG_DIR="$HOOKS" FWLOAD_RUNDIR="$RUN" \
		timeout 10 strace -f -qq -e trace=execve -o "$T/strace" "$helper" usb </dev/null >/dev/null 2>&1
	[ $? -ne 124 ] || fail "one usb event did not end within 10 s: $(grep -c execve "$T/strace") programs started"
	progs=$(grep -c '^[0-9]* *execve(.*= 0$' "$T/strace")
}

for helper in "$T/sbin/hotplug" "$T/old/sbin/hotplug"; do
	rm -rf "$RUN"
	echo "$helper" >"$H"
	setup
	status_is 0
	grep -q "previous\|still runs" "$T/stdout" && fail "$helper kept as the previous helper: $(cat "$T/stdout")"
	no_file "$RUN/previous-helper" "a record of $helper as the previous helper"
	file_is "$H" "$T/usr/sbin/hotplug
"
	echo "$helper" >"$H"
	usb_event
	assert_eq "programs for one usb event through $helper" 1 "$progs"
done

# A helper that is not there (CONFIG_UEVENT_HELPER_PATH=/sbin/hotplug on a
# system whose /sbin/hotplug is gone): not kept, and said so.
rm -rf "$RUN"
echo "$T/nowhere/hotplug" >"$H"
setup
status_is 0
grep -qx "fwloadctl: setup: the uevent helper was $T/nowhere/hotplug, which does not exist (or cannot run): nothing to keep" "$T/stdout" ||
	fail "stdout: $(cat "$T/stdout")"
no_file "$RUN/previous-helper" "a record of a helper that does not exist"
run ctl status
! grep -q nowhere "$T/stdout" || fail "status: $(cat "$T/stdout")"

# And hotplug itself runs a kept helper once: a copy of hotplug kept by
# hand runs no kept helper again.
echo "$T/old/sbin/hotplug" >"$RUN/previous-helper"
echo "$T/usr/sbin/hotplug" >"$H"
usb_event
assert_eq "programs for one usb event, a copy of hotplug kept by hand" 2 "$progs"
