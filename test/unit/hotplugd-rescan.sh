# SPDX-License-Identifier: MIT
# At start hotplugd serves the requests already pending in
# SYSFS/class/firmware/ as ACTION=add events: PROGRAM runs once for each,
# with argv [PROGRAM, firmware], the kernel helper's environment (the
# event's variables, HOME=/, the kernel's PATH) and FWLOAD_HOLD_DETACH=1 (a
# hold goes on in an agent of its own), fds 0-2 on /dev/null,
# no standard signal blocked or ignored, in / with umask 022 (hotplugd itself is
# started elsewhere with umask 077). A firmware-upload device
# (remaining_size) and the class's timeout file are left alone; without
# firmware among the subsystems there is no rescan.
# shellcheck disable=SC2016 # wait_for takes sh code, expanded when it runs
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=hotplugd-lib
. "$REPO/test/unit/hotplugd-lib"

standin 0
pending x.bin
pending sub/dir.bin
pending upload.bin
: >"$REQ/remaining_size"
echo 60 >"$SYS/class/firmware/timeout"

cd "$T" || fail "cannot cd to $T"
umask 077
hpd_start -x "$T/prog" -S "$SYS"
cd / && umask 022
wait_for '[ "$(runs)" -ge 2 ]' "PROGRAM ran $(runs) times, want 2; hotplugd: $(cat "$T/hpd.err")"
sleep 0.3  # a third (wrong) run would show by now
hpd_stop TERM
[ "$(runs)" = 2 ] || fail "PROGRAM ran $(runs) times, want 2 (the upload device must be skipped)"
# Only the standard signals (1-31) are compared: 32 and 33 belong to glibc,
# which refuses to change them, and whatever started the test (make, or
# qemu-user for a cross build) may leave them ignored (as fwload-child).
cat "$T"/runs/* | while IFS= read -r line; do
	case $line in
	Sig*) printf '%s\t%016x\n' "${line%%	*}" $((0x${line#*	} & 0x7fffffff)) ;;
	*) printf '%s\n' "$line" ;;
	esac
done >"$T/got"
for name in x.bin sub/dir.bin; do
	dev=$TF/$(printf %s "$name" | tr / !)
	cat <<END
argc=1 argv1=firmware
ACTION=add
ASYNC=1
DEVPATH=$dev
FIRMWARE=$name
FWLOAD_HOLD_DETACH=1
HOME=/
PATH=$KPATH
SUBSYSTEM=firmware
TIMEOUT=60
fd0=/dev/null
fd1=/dev/null
fd2=/dev/null
SigBlk:	0000000000000000
SigIgn:	0000000000000000
cwd=/ umask=0022
END
done >"$T/want"
# the order of the two runs is the directory's
sort "$T/want" >"$T/want.s"
sort "$T/got" >"$T/got.s"
diff "$T/want.s" "$T/got.s" >"$T/diff" || fail "PROGRAM's runs differ from the kernel helper's (want, got): $(cat "$T/diff")"
grep -q "^hotplugd: rescan: pending request $TF/x.bin\$" "$T/hpd.err" || fail "no rescan line: $(cat "$T/hpd.err")"
grep -q 'upload.bin' "$T/hpd.err" && fail "the upload device was touched: $(cat "$T/hpd.err")"
file_is "$SYS$TF/upload.bin/loading" "" "the upload device's loading"

# Another subsystem only: no rescan, nothing runs.
rm -f "$T"/runs/*
hpd_start -x "$T/prog" -S "$SYS" -s misc
sleep 0.3
hpd_stop INT
[ "$(runs)" = 0 ] || fail "-s misc: PROGRAM ran $(runs) times, want 0"
