# SPDX-License-Identifier: MIT
# The rules file (RULES=, default fwload.rules beside fwload.conf): the
# first rule whose conditions (firmware=, devpath=, model=, compatible=
# globs) all hold gives the request another file name (name=) and/or a
# directory searched first (dir=). Lines it cannot use are reported and
# skipped (once: the rules are compiled into the config cache). fwloadctl
# explain names the rule.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
fw=$R/lib/firmware
echo 6.12.0-test >"$T/proc/sys/kernel/osrelease"
dt=$SYS/firmware/devicetree/base
mkdir -p "$dt"
printf 'Acme Widget v2 rev 3\0' >"$dt/model"
printf 'acme,widget-v2\0acme,widget\0' >"$dt/compatible"
mkfw "$fw/brcm/wifi.txt" generic
mkfw "$fw/brcm/wifi.acme,widget-v2.txt" "per board"
mkfw "$fw/cal.bin" "generic calibration"
mkfw "$R/boards/v2/cal.bin" "v2 calibration"
mkfw "$R/boards/other/cal.bin" "other calibration"
mkfw "$fw/dev.bin" generic
mkfw "$fw/dev-b.bin" "for device b"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
cat >"$T/fwload.rules" <<'RULES'
# comment, blank lines, and leading blanks are fine

   compatible=nobody,* dir=/boards/other
firmware=brcm/wifi.txt compatible=acme,widget-v2   name=brcm/wifi.acme,widget-v2.txt
firmware=cal.bin model=Acme?Widget?v2*	dir=/boards/v2
firmware=cal.bin dir=/boards/other
devpath=*/dev-b/* firmware=dev.bin name=dev-b.bin
firmware=unused.bin frobnicate=yes dir=/x
firmware=unused.bin
firmware=unused.bin name=../x
RULES
aged  # (each bad line is reported once, when a cache remembers it)

# expect NAME DATA [DEVPATH]
expect() {
	request "$1" ${3+"$3"}
	run agent firmware
	status_is 0
	file_is "$REQ/loading" 10 "loading for $1"
	file_is "$REQ/data" "$2" "data for $1"
}
expect brcm/wifi.txt "per board"
log_matches "fwload: loaded brcm/wifi\.txt \([0-9]+ bytes, [0-9]+ ms\) from $(ere "$fw/brcm/wifi.acme,widget-v2.txt") for .*"
expect cal.bin "v2 calibration"
expect dev.bin generic
expect dev.bin "for device b" /devices/platform/dev-b/dev.bin
log_has "fwload: $T/fwload.rules:8: 'frobnicate=yes' is not firmware=, devpath=, model=, compatible= GLOB or name=NAME, dir=/DIR, hold=SECONDS, extract=SOURCE,OFFSET,SIZE [OPTION]..., run=/PROGRAM [user=NAME]; rule ignored"
log_has "fwload: $T/fwload.rules:9: no name=, dir=, hold=, extract= or run=; rule ignored"
log_has "fwload: $T/fwload.rules:10: name=../x: '..' component; rule ignored"
[ "$(grep -c "fwload.rules:8:" "$LOGF")" = 1 ] || fail "a bad rule reported more than once: $(cat "$LOGF")"

needs fwloadctl
run ctl explain brcm/wifi.txt
status_is 0
grep -qx "rule:     $T/fwload.rules:4 applies: name=brcm/wifi.acme,widget-v2.txt" "$T/stdout" || fail "$(cat "$T/stdout")"
grep -qx "search:   $fw/brcm/wifi.acme,widget-v2.txt: found" "$T/stdout" || fail "$(cat "$T/stdout")"
run ctl explain cal.bin
grep -qx "rule:     $T/fwload.rules:5 applies: dir=/boards/v2" "$T/stdout" || fail "$(cat "$T/stdout")"
grep -qx "search:   $R/boards/v2/cal.bin: found" "$T/stdout" || fail "$(cat "$T/stdout")"
run ctl explain dev.bin
grep -qx "rule:     none of $T/fwload.rules applies" "$T/stdout" || fail "$(cat "$T/stdout")"
run ctl explain dev.bin /devices/platform/dev-b/dev.bin
grep -qx "rule:     $T/fwload.rules:7 applies: name=dev-b.bin" "$T/stdout" || fail "$(cat "$T/stdout")"

# Another board: the model rule no longer holds, the next one does. (The
# device tree is read when the config cache is made: it does not change
# while a system runs, and the cache's run directory is emptied at boot.)
printf 'Acme Widget v1\0' >"$dt/model"
printf 'acme,widget-v1\0acme,widget\0' >"$dt/compatible"
rm -r "$RUN"
expect cal.bin "other calibration"
expect brcm/wifi.txt generic
# No device tree at all: model= and compatible= hold for nothing.
rm -r "$SYS/firmware"
rm -r "$RUN"
expect cal.bin "other calibration"
expect brcm/wifi.txt generic

# A renamed file that is not there: not found, no fallback to the old name.
rm "$fw/dev-b.bin"
request dev.bin /devices/platform/dev-b/dev.bin
run agent firmware
status_is 1
file_is "$REQ/loading" -1
log_matches "fwload: cancelled dev\.bin for /devices/platform/dev-b/dev\.bin; dev-b\.bin \(for dev\.bin\) not found in .*"

# RULES= elsewhere. One that is there but cannot be read (a directory
# here) is reported, and no image is loaded until it can be: a rule it
# holds might pick another file for this board (never a wrong image).
mv "$T/fwload.rules" "$T/board.rules"
expect cal.bin "generic calibration"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "RULES=$T/board.rules"
expect cal.bin "other calibration"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "RULES=$T"
request cal.bin
run agent firmware
status_is 2
file_is "$REQ/loading" -1
log_has "fwload: $T: cannot read it; every request is cancelled until it can be read"
log_has "fwload: cancelled cal.bin for $E_DEVPATH; cannot read $T"

# CRLF line ends (a file edited on Windows) and no newline at the end.
printf 'firmware=cal.bin dir=/boards/other\r\nfirmware=dev.bin name=dev-b.bin\r' >"$T/board.rules"
mkfw "$fw/dev-b.bin" "for device b"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "RULES=$T/board.rules"
expect cal.bin "other calibration"
expect dev.bin "for device b"
