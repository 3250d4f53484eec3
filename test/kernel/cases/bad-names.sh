# SPDX-License-Identifier: MIT
# Hostile firmware names from a real driver request.
# - Shell metacharacters, globs, quotes, spaces, a leading dash, printf
#   formats: valid names, each loaded from its own literal file, and nothing
#   in them is ever executed or expanded.
# - An absolute name, control characters: refused, cancelled (ENOENT).
# - A name longer than NAME_MAX: its sysfs directory cannot be opened by
#   anyone; the agent says so, the driver waits for the (3 s) timeout.
# - A name too long for the uevent buffer (2 KiB): no event, no helper.
. ../lib.sh
mkimage fwload-test-a.bin 10
# shellcheck disable=SC2016 # literal $ and backticks, on purpose
for name in 'fwload-test-$(touch PWNED).bin' 'fwload-test-`touch PWNED`.bin' \
	'fwload-test-;touch PWNED;.bin' 'fwload-test-*.bin' 'fwload-test-?.bin' \
	'fwload-test-[a].bin' 'fwload-test-x y.bin' "fwload-test-'q'.bin" 'fwload-test-"dq".bin' \
	'fwload-test-&|<>.bin' 'fwload-test-~.bin' 'fwload-test-$HOME.bin' \
	'-fwload-test-dash.bin' '--fwload-test-dashdash.bin' 'fwload-test-%s%n.bin' \
	'fwload-test-\\.bin'; do
	mkimage "$name" 777
	request "$name"
done
for p in /PWNED /run/PWNED /tmp/PWNED /run/fw/PWNED; do
	[ ! -e "$p" ] || fail "$p exists: a name was executed"
done

mkimage fwload-test-abs.bin 100
request_fails /run/fw/fwload-test-abs.bin 2
kmsg "fwload: cancelled /run/fw/fwload-test-abs.bin for /devices/virtual/misc/test_firmware/!run!fw!fwload-test-abs.bin; bad FIRMWARE name \(absolute path\)"

nl='fwload-test-nl
.bin'
printf x >"$FW/$nl"
request_fails "$nl" 2
kmsg 'fwload: cancelled fwload-test-nl\\x0a\.bin for /devices/virtual/misc/test_firmware/fwload-test-nl\\x0a\.bin; bad FIRMWARE name \(control character in name\)'
ctl=$(printf 'fwload-test-\001.bin')
printf x >"$FW/$ctl"
request_fails "$ctl" 2

echo 3 >/sys/class/firmware/timeout
long=fwload-test-$(printf '%0300d' 0).bin
request_fails "$long" 110
kmsg "fwload: bad DEVPATH .*test_firmware/fwload-test-0+\.bin' \(request directory name longer than NAME_MAX, nobody can answer it; the driver waits for the timeout\); event refused"
huge=fwload-test-$(printf '%03000d' 0).bin
request_fails "$huge" 110
