# SPDX-License-Identifier: MIT
# fwloadctl explain NAME [DEVPATH] shows each directory searched and the
# decision, with the exit status a request would get, and touches neither
# sysfs nor the log. It is the agent's own code (firmware.agent --dry-run).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
needs fwloadctl

R=$T/root
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=/extra"
mkdir -p "$R/lib/firmware" "$R/extra" "$R/store"
printf '0123456789' >"$R/extra/good.bin"
: >"$R/lib/firmware/good.bin"
printf 'x' >"$R/store/secret"
ln -s ../store/secret "$R/extra/link.bin"
echo 6.12.0-test >"$T/proc/sys/kernel/osrelease"
unset E_ACTION E_DEVPATH E_FIRMWARE E_SUBSYSTEM E_TIMEOUT E_ASYNC E_SEQNUM

run ctl explain good.bin
status_is 0
grep -qx "search:   $R/lib/firmware/updates/6.12.0-test/good.bin: absent" "$T/stdout" ||
	fail "no line for the first directory: $(cat "$T/stdout")"
grep -qx "search:   $R/lib/firmware/good.bin: empty file, skipped" "$T/stdout" ||
	fail "the empty file is not shown skipped: $(cat "$T/stdout")"
grep -qx "search:   $R/extra/good.bin: found" "$T/stdout" || fail "not found: $(cat "$T/stdout")"
grep -qx "decision: load $R/extra/good.bin, 10 bytes; skipped $R/lib/firmware/good.bin (empty file)" "$T/stdout" ||
	fail "decision: $(cat "$T/stdout")"
# The same decisions as a request gets.
request good.bin
run agent firmware
status_is 0
file_is "$REQ/data" 0123456789
log_matches "fwload: loaded good\\.bin \\(10 bytes, [0-9]+ ms\\) from $(ere "$R/extra/good.bin") for $(ere "$E_DEVPATH"); skipped $(ere "$R/lib/firmware/good.bin") \\(empty file\\)"
rm "$LOGF" "$REQ/loading" "$REQ/data"
rmdir "$REQ"

run ctl explain missing.bin /devices/x/missing.bin
status_is 1
grep -qx "decision: not found; the request would be cancelled" "$T/stdout" || fail "$(cat "$T/stdout")"

run ctl explain link.bin
status_is 2
# fwload's own verdict (fwload -O), as the load would get it
grep -qx "decision: refuse: $R/extra/link.bin resolves to $R/store/secret, outside the firmware directories; the request would be aborted" "$T/stdout" ||
	fail "$(cat "$T/stdout")"

run ctl explain ../x
status_is 4
grep -qx "decision: bad FIRMWARE name ('..' component); the request would be cancelled" "$T/stdout" || fail "$(cat "$T/stdout")"

run ctl explain good.bin devices/relative
status_is 4

run ctl explain
status_is 100
run ctl explain a b c
status_is 100

no_file "$LOGF" "explain wrote to the log"
[ -z "$(ls "$SYS$TF")" ] || fail "explain touched the fake sysfs: $(ls "$SYS$TF")"

# The note that the kernel's own loader finds a file itself: only where it
# looks (its list: firmware_class.path and /lib/firmware...), never under
# FIRMWARE_ROOT, and never for a rule's renamed name (the kernel asks for
# the driver's name).
note="note:     the kernel's own loader reads"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
mkfw "$R/lib/firmware/base.bin" "in the base under FIRMWARE_ROOT"
run ctl explain base.bin
status_is 0
! grep -q "^$note" "$T/stdout" || fail "a note with FIRMWARE_ROOT: $(cat "$T/stdout")"
mkdir -p "$SYS/module/firmware_class/parameters"
echo "$T/para" >"$SYS/module/firmware_class/parameters/path"
mkfw "$T/para/real.bin" "in firmware_class.path"
echo "firmware=alias.bin name=real.bin" >"$T/fwload.rules"
conf "LOG=$LOGF"
run ctl explain real.bin
status_is 0
grep -q "^$note $T/para too: it loads this file itself" "$T/stdout" || fail "no note for firmware_class.path: $(cat "$T/stdout")"
run ctl explain alias.bin
status_is 0
grep -qx "decision: load $T/para/real.bin, 22 bytes" "$T/stdout" || fail "$(cat "$T/stdout")"
! grep -q "^$note" "$T/stdout" || fail "a note for a renamed name: $(cat "$T/stdout")"
no_file "$LOGF" "explain wrote to the log"
