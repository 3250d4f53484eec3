# SPDX-License-Identifier: MIT
# How a value in fwload.conf is read, and what a bad one does. Blanks at
# the end of a value and a comment after a blank are not part of it
# (UNLISTED=refuse with either still refuses). Quotes around a value and
# blanks around '=' are reported and taken off (FIRMWARE_PATH="/opt/fw"
# searches /opt/fw, KEY = value is KEY=value). An unknown UNLISTED value
# means refuse. MAX_SIZE and DEADLINE outside fwload's ranges (-S 1 to
# 2047M, -T 1 to 86400) are reported and the default used: fwload is never
# given a value it refuses (it would exit 100 and every image be lost).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
needs fwload-sha256

R=$T/root
M=$T/SHA256SUMS
mkimage "$R/opt/fw/x.bin" 3000
mkimage "$R/opt/fw/unlisted.bin" 3000
(cd "$R/opt/fw" && sha256sum x.bin) >"$M"
tab=$(printf '\t')

# expect STATUS LOADING NAME: one request for NAME through the agent.
expect() {
	request "$3"
	run agent firmware
	status_is "$1"
	file_is "$REQ/loading" "$2" "loading for $3 ($(tr '\n' ' ' <"$CONF"))"
}

# Trailing blanks and comments: the same value.
for v in "refuse " "refuse$tab" "refuse # strict" "refuse	#strict"; do
	conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=/opt/fw" "MANIFEST=$M" "UNLISTED=$v"
	expect 2 -1 unlisted.bin
	log_has "fwload: cancelled unlisted.bin for $E_DEVPATH; not in $M, UNLISTED=refuse"
	expect 0 10 x.bin
done
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=/opt/fw # where the vendor's files are   "
expect 0 10 x.bin

# An unknown UNLISTED value: refuse, and said so.
rm -f "$LOGF"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=/opt/fw" "MANIFEST=$M" "UNLISTED=reject"
expect 2 -1 unlisted.bin
log_has "fwload: $CONF:5: UNLISTED wants load or refuse, not 'reject'; refuse used"

# Quotes and blanks around '=': reported, and read as meant.
rm -f "$LOGF"
conf "LOG=$LOGF" "FIRMWARE_ROOT = $R" 'FIRMWARE_PATH="/opt/fw"' "MANIFEST='$M'" "UNLISTED =refuse"
expect 0 10 x.bin
expect 2 -1 unlisted.bin
log_has "fwload: $CONF:2: read as FIRMWARE_ROOT=$R (blanks around '=' taken off: not part of this file's syntax)"
log_has "fwload: $CONF:3: read as FIRMWARE_PATH=/opt/fw (quotes taken off: not part of this file's syntax)"
log_has "fwload: $CONF:4: read as MANIFEST=$M (quotes taken off: not part of this file's syntax)"
log_has "fwload: $CONF:5: read as UNLISTED=refuse (blanks around '=' taken off: not part of this file's syntax)"
run ctl explain x.bin
status_is 0
grep -qx "fwload: $CONF:3: read as FIRMWARE_PATH=/opt/fw (quotes taken off: not part of this file's syntax)" "$T/stderr" ||
	fail "explain's warnings: $(cat "$T/stderr")"

# MAX_SIZE and DEADLINE: fwload's ranges, checked when read; a bad value is
# reported, the default used, and the image loads.
for bad in MAX_SIZE=0 MAX_SIZE=3G MAX_SIZE=4G MAX_SIZE=2048M MAX_SIZE=99999999999 MAX_SIZE=99999999999999999999K \
	MAX_SIZE=1T MAX_SIZE=-1 MAX_SIZE=5m DEADLINE=0 DEADLINE=86401 DEADLINE=99999999999 DEADLINE=-5 DEADLINE=1h; do
	rm -f "$LOGF"
	conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=/opt/fw" "$bad"
	expect 0 10 x.bin
	data_is "$R/opt/fw/x.bin"
	case $bad in
	MAX*) log_has "fwload: $CONF:4: MAX_SIZE wants bytes, 1 to 2047M (K, M or G after the number), not '${bad#*=}'; the default (256M) used" ;;
	*) log_has "fwload: $CONF:4: DEADLINE wants whole seconds, 1 to 86400, not '${bad#*=}'; the default (300) used" ;;
	esac
done
# The ends of the ranges reach fwload as they are.
# shellcheck disable=SC2016 # the wrapper's own expansions
printf '#!/bin/sh\n[ "$3" = -O ] || printf "%%s\\n" "$@" >"%s"\nexec "%s" "$@"\n' "$T/args" "$FWBIN" >"$T/fwload-args"
chmod 755 "$T/fwload-args"
FWLOAD=$T/fwload-args
for good in "MAX_SIZE=2047M DEADLINE=86400" "MAX_SIZE=1 DEADLINE=1" "MAX_SIZE=2096128K DEADLINE=007" "MAX_SIZE=1G DEADLINE=60"; do
	rm -f "$LOGF"
	# shellcheck disable=SC2086 # two words
	conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=/opt/fw" $good
	request x.bin
	run agent firmware
	# shellcheck disable=SC2086 # two words
	set -- $good
	tr '\n' ' ' <"$T/args" | grep -q -- "-S ${1#*=} -T ${2#*=} " || fail "$good: fwload got: $(cat "$T/args")"
	[ "$good" = "MAX_SIZE=1 DEADLINE=1" ] || { status_is 0 && file_is "$REQ/loading" 10; }
	! grep -q "$CONF:" "$LOGF" || fail "$good reported: $(cat "$LOGF")"
done
