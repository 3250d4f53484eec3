# SPDX-License-Identifier: MIT
# firmware.agent --explain NAME [DEVPATH] shows each directory searched and
# the decision, with the exit status a request would get, and touches
# neither sysfs nor the log.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=/extra"
mkdir -p "$R/lib/firmware" "$R/extra" "$R/store"
printf '0123456789' >"$R/extra/good.bin"
: >"$R/lib/firmware/good.bin"
printf 'x' >"$R/store/secret"
ln -s ../store/secret "$R/extra/link.bin"
echo 6.12.0-test >"$T/proc/sys/kernel/osrelease"
unset E_ACTION E_DEVPATH E_FIRMWARE E_SUBSYSTEM E_TIMEOUT E_ASYNC E_SEQNUM

run agent --explain good.bin
status_is 0
grep -qx "search:   $R/lib/firmware/updates/6.12.0-test/good.bin: absent" "$T/stdout" ||
	fail "no line for the first directory: $(cat "$T/stdout")"
grep -qx "search:   $R/lib/firmware/good.bin: empty file, skipped" "$T/stdout" ||
	fail "the empty file is not shown skipped: $(cat "$T/stdout")"
grep -qx "search:   $R/extra/good.bin: found" "$T/stdout" || fail "not found: $(cat "$T/stdout")"
grep -qx "decision: load $R/extra/good.bin, 10 bytes" "$T/stdout" || fail "decision: $(cat "$T/stdout")"

run agent --explain missing.bin /devices/x/missing.bin
status_is 1
grep -qx "decision: not found; the request would be cancelled at once" "$T/stdout" || fail "$(cat "$T/stdout")"

run agent --explain link.bin
status_is 2
grep -qx "links:    $R/extra/link.bin resolves to $R/store/secret" "$T/stdout" || fail "$(cat "$T/stdout")"

run agent --explain ../x
status_is 4
grep -qx "decision: refuse the name ('..' component); the request would be cancelled" "$T/stdout" || fail "$(cat "$T/stdout")"

run agent --explain good.bin devices/relative
status_is 4

run agent --explain
status_is 100

no_file "$LOGF" "--explain wrote to the log"
[ -z "$(ls "$SYS$TF")" ] || fail "--explain touched the fake sysfs: $(ls "$SYS$TF")"
