# SPDX-License-Identifier: MIT
# MISSING_LIST=FILE: a request for firmware that is not there is cancelled
# and listed ("NAME<TAB>DEVPATH"); a later load of that name drops it.
# --status lists the pending requests (name, DEVPATH, age) and that list,
# and touches nothing.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
L=$T/run/fwload/missing
echo 6.12.0-test >"$T/proc/sys/kernel/osrelease"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MISSING_LIST=$L"
tab=$(printf '\t')

request gone.bin
printf zzz >"$REQ/loading"  # fwload writes at offset 0; a second cancel would truncate
run agent firmware
status_is 1
file_is "$REQ/loading" -1z "loading (one cancel, by fwload)"
file_is "$L" "gone.bin$tab$TF/gone.bin
"
request vendor/late.bin
run agent firmware
status_is 1
file_is "$L" "gone.bin$tab$TF/gone.bin
vendor/late.bin$tab$TF/vendor!late.bin
"
mkfw "$R/lib/firmware/vendor/late.bin" "here now"
request vendor/late.bin
run agent firmware
status_is 0
file_is "$REQ/data" "here now"
file_is "$L" "gone.bin$tab$TF/gone.bin
"

pending a.bin
pending vendor/b.bin
mkdir -p "$SYS/class/firmware"
echo 30 >"$SYS/class/firmware/timeout"
: >"$LOGF"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MISSING_LIST=$L" BOGUS=1
run agent --status
status_is 0
grep -q "unknown setting BOGUS" "$T/stderr" || fail "no config warning on stderr: $(cat "$T/stderr")"
sed 's/age [0-9]* s$/age N s/' "$T/stdout" >"$T/shown"
file_is "$T/shown" "pending requests (timeout 30 s; those made without a uevent wait until answered):
  a.bin  $TF/a.bin  age N s
  vendor/b.bin  $TF/vendor!b.bin  age N s
missing firmware ($L):
  gone.bin  $TF/gone.bin
" "--status"
file_is "$LOGF" "" "the log after --status (config warnings go to stderr only)"
file_is "$REQ/loading" "" "a pending request after --status"

rm -r "$SYS/class/firmware" "$L"
run agent --status
status_is 0
stdout_is "pending requests (timeout unknown; those made without a uevent wait until answered):
  none
missing firmware ($L):
  none"
run agent --status extra
status_is 100
