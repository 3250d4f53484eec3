# SPDX-License-Identifier: MIT
# fwload-pending, the one lister of pending requests (request.h: hotplugd's rescan
# reads through the same code): each request in SYSFS/class/firmware/ as
# DEVPATH, FIRMWARE and TIMEOUT, each ended by a NUL, the name whole from
# the uevent file (a newline inside it or at its end included), never a
# firmware-upload device or the class's own files; with COMMAND, that
# command once per request with the event's variables in its environment,
# the highest of its statuses the exit status. fwload-pending -k DEVPATH:
# the request's key, DEV-INO of its directory (its lock file's name); -u -k
# an upload device's.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
PENDING=$LIBEXEC/fwload-pending

nl='
'
pending a.bin
a=$REQ
pending "x.bin$nl"
pending "sub/y$nl.bin"
pending flash.bin
: >"$REQ/remaining_size"
pending odd.bin
printf 'FIRMWARE=odd.bin\nASYNC=1\n' >"$REQ/uevent"
: >"$SYS/class/firmware/timeout"

# The records, in any order: sorted here, NUL kept.
run clean "$PENDING" -s "$SYS"
status_is 0
stderr_is ''
printf '%s\0%s\0%s\0' "$TF/a.bin" a.bin 60 "$TF/x.bin$nl" "x.bin$nl" 60 \
	"$TF/sub!y$nl.bin" "sub/y$nl.bin" 60 "$TF/odd.bin" "" "" >"$T/want"
# recs FILE: each record on a line, its fields joined by '|', a newline in
# them as '~', sorted.
recs() {
	tr '\n\0' '~\n' <"$1" | awk '{ printf "%s%s", $0, NR % 3 ? "|" : "\n" }' | LC_ALL=C sort
}
[ "$(recs "$T/stdout")" = "$(recs "$T/want")" ] ||
	fail "fwload-pending: $(tr '\0\n' '|~' <"$T/stdout"), want $(tr '\0\n' '|~' <"$T/want")"

# COMMAND once per request, one at a time, with the event's variables (an
# ACTION or FIRMWARE of ours replaced); the highest status.
cat >"$T/cmd" <<END
#!/bin/sh
{ printf '%s\0' "\$ACTION|\$SUBSYSTEM|\$DEVPATH|\$FIRMWARE|\${TIMEOUT-unset}|\${ASYNC-unset}|\$MINE|\$*"; } >>"$T/runs"
case \$FIRMWARE in a.bin) exit 3 ;; esac
exit 0
END
chmod 755 "$T/cmd"
run clean ACTION=remove FIRMWARE=mine MINE=kept "$PENDING" -s "$SYS" "$T/cmd" firmware
status_is 3
printf '%s\0' "add|firmware|$TF/a.bin|a.bin|60|1|kept|firmware" "add|firmware|$TF/x.bin$nl|x.bin$nl|60|1|kept|firmware" \
	"add|firmware|$TF/sub!y$nl.bin|sub/y$nl.bin|60|1|kept|firmware" "add|firmware|$TF/odd.bin||unset|unset|kept|firmware" >"$T/want"
[ "$(tr '\0\n' '\n~' <"$T/runs" | LC_ALL=C sort)" = "$(tr '\0\n' '\n~' <"$T/want" | LC_ALL=C sort)" ] ||
	fail "COMMAND's runs: $(tr '\0\n' '|~' <"$T/runs")"
run clean "$PENDING" -s "$SYS" relative
status_is 100
# No fallback in this kernel: nothing pending.
run clean "$PENDING" -s "$T/none"
status_is 0
stdout_is ''

# -k: the request's key; an upload device 6; no request 111.
run clean "$PENDING" -s "$SYS" -k "$TF/a.bin"
status_is 0
for STAT in /usr/bin/stat /bin/stat; do
	[ -x "$STAT" ] && break
done
stdout_is "$("$STAT" -c %d-%i "$a")"
run clean "$PENDING" -s "$SYS" -k "$TF/flash.bin"
status_is 6
run clean "$PENDING" -s "$SYS" -u -k "$TF/flash.bin"
status_is 0
stdout_is "$("$STAT" -c %d-%i "$SYS$TF/flash.bin")"
run clean "$PENDING" -s "$SYS" -u -k "$TF/a.bin"
status_is 6
run clean "$PENDING" -s "$SYS" -k "$TF/none.bin"
status_is 111
stderr_is "fwload-pending: no request at $SYS$TF/none.bin"
run clean "$PENDING" -s "$SYS" -k
status_is 100
