# SPDX-License-Identifier: MIT
# fwloadctl status where there is no stat command (Buildroot's default
# busybox has no stat applet): a pending request's age is still right, from
# the request directory's time (date -r), and never a made-up 0.
# shellcheck disable=SC2086 # $TEST_SH is a command line ("busybox sh")
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkdir -p "$T/bin"
# A stat that is not there, as a busybox without the applet answers.
printf '#!/bin/sh\necho "stat: applet not found" >&2\nexit 127\n' >"$T/bin/stat"
chmod 755 "$T/bin/stat"
conf "LOG=$LOGF"
pending old.bin
unset E_ACTION E_DEVPATH E_FIRMWARE E_SUBSYSTEM E_TIMEOUT E_ASYNC E_SEQNUM
# The request directory was made 1000 s ago (a fake sysfs has no ctime to
# set; kernfs gives a request's directory the same mtime and ctime).
then=$(($(date +%s) - 1000))
touch -d "@$then" "$REQ" || fail "touch -d failed"
run kernel_env PATH="$T/bin:$KPATH" $TEST_SH "$REPO/fwloadctl" status
status_is 0
age=$(sed -n 's|^  old\.bin  '"$TF"'/old\.bin  age \([0-9]*\) s$|\1|p' "$T/stdout")
[ -n "$age" ] || fail "no age for old.bin: $(cat "$T/stdout")"
{ [ "$age" -ge 1000 ] && [ "$age" -le 1060 ]; } || fail "age $age s, want 1000 (60 s slack for a slow run)"

# No way to read the time at all: "age unknown", not a number. (busybox sh
# runs its own date applet, whatever PATH holds: not there.)
case $TEST_SH in busybox*) exit 0 ;; esac
printf '#!/bin/sh\nexit 1\n' >"$T/bin/date"
chmod 755 "$T/bin/date"
run kernel_env PATH="$T/bin:$KPATH" $TEST_SH "$REPO/fwloadctl" status
status_is 0
grep -qx "  old.bin  $TF/old.bin  age unknown" "$T/stdout" || fail "status: $(cat "$T/stdout")"
