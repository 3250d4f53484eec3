# SPDX-License-Identifier: MIT
# fwload DEVPATH FILE: "1" to loading, FILE to data, "0" to loading; one
# success line in the log, none on stderr unless -v. Sizes around a page.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

for size in 1 4095 4096 4097 65536 65537 1048577; do
	mkimage "$T/img" "$size"
	request x.bin
	rm -f "$LOGF"
	run clean "$FWLOAD" -s "$SYS" -l "$LOGF" "$E_DEVPATH" "$T/img"
	status_is 0
	stderr_is ''
	stdout_is ''
	file_is "$REQ/loading" 10 "loading ($size bytes)"
	data_is "$T/img"
	log_matches "$(loaded_line x.bin "$T/img")"
	[ "$(wc -l <"$LOGF")" -eq 1 ] || fail "want one log line: $(cat "$LOGF")"
done

# The name in messages: -n, else FIRMWARE, else DEVPATH's last component.
mkimage "$T/img" 100
request x.bin
run clean FIRMWARE=from-env.bin "$FWLOAD" -s "$SYS" -l "$LOGF" -n from-option.bin "$E_DEVPATH" "$T/img"
status_is 0
log_matches "$(loaded_line from-option.bin "$T/img")"
request x.bin
run clean FIRMWARE=from-env.bin "$FWLOAD" -s "$SYS" -l "$LOGF" "$E_DEVPATH" "$T/img"
status_is 0
log_matches "$(loaded_line from-env.bin "$T/img")"

# SYSFS from the environment; -s wins over it.
request y.bin
run clean SYSFS="$SYS" "$FWLOAD" -l "$LOGF" "$E_DEVPATH" "$T/img"
status_is 0
file_is "$REQ/loading" 10
data_is "$T/img"
request y.bin
run clean SYSFS="$T/nowhere" "$FWLOAD" -t 0 -s "$SYS" "$E_DEVPATH" "$T/img"
status_is 0
file_is "$REQ/loading" 10

# -v: the success line on stderr too, and the same in the log.
request z.bin
rm -f "$LOGF"
run clean "$FWLOAD" -v -s "$SYS" -l "$LOGF" "$E_DEVPATH" "$T/img"
status_is 0
stderr_matches "$(loaded_line z.bin "$T/img")"
diff "$T/stderr" "$LOGF" || fail "-v: stderr and the log differ"

# Options bundled and attached, and '--' before the operands.
request z.bin
run clean "$FWLOAD" -vs"$SYS" -t5 -l"$LOGF" -- "$E_DEVPATH" "$T/img"
status_is 0
file_is "$REQ/loading" 10
data_is "$T/img"

# A DEVPATH whose name merely contains dots is fine.
for n in ..x.bin x..bin ...; do
	request "$n"
	run clean "$FWLOAD" -s "$SYS" "$E_DEVPATH" "$T/img"
	status_is 0
	file_is "$REQ/loading" 10 "loading for $n"
done
