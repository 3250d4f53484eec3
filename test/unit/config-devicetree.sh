# SPDX-License-Identifier: MIT
# Rules that read the device tree (model=, compatible=) read it from the
# sysfs the agent uses, into the cache, whose stamp holds the device tree
# directory's identity: a device tree that appears after the first event
# (absent then: "-") makes the cache stale, and one that is there but
# still empty is never cached. compatible= rules then match from the next
# event on, not from the next boot.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
dt=$SYS/firmware/devicetree/base
mkfw "$R/lib/firmware/cal.bin" "generic calibration"
mkfw "$R/boards/b/cal.bin" "board b calibration"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
echo "compatible=acme,board-b firmware=cal.bin dir=/boards/b" >"$T/fwload.rules"
aged

# expect DATA: a request for cal.bin gets DATA.
expect() {
	request cal.bin
	run agent firmware
	status_is 0
	file_is "$REQ/data" "$1" "data ($2)"
}

# No device tree yet: the rule holds for nothing, and the cache says so.
expect "generic calibration" "no device tree"
[ -f "$RUN/conf.cache" ] || fail "no cache made"
# The device tree appears, empty at first: no cache of it.
mkdir -p "$dt"
expect "generic calibration" "an empty device tree"
no_file "$RUN/conf.cache" "a cache of an empty device tree"
# Its strings arrive: the rule holds from the next event on.
printf 'acme,board-b\0acme,soc\0' >"$dt/compatible"
expect "board b calibration" "the device tree filled in"
expect "board b calibration" "the device tree filled in, again"
[ -f "$RUN/conf.cache" ] || fail "no cache of the filled device tree"
grep -q "^dt_compatible='acme,board-b'\"\$nl\"'acme,soc'\$" "$RUN/conf.cache" ||
	fail "the device tree's strings in the cache: $(grep dt_compatible "$RUN/conf.cache")"
