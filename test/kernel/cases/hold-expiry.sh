# SPDX-License-Identifier: MIT
# HOLD=3 and no file: the request is cancelled when HOLD ends (ENOENT),
# neither at once nor at the kernel's timeout (60 s here), with one line
# saying so; no process of the hold is left.
. ../lib.sh
conf FIRMWARE_PATH=/run/fw LOG=kmsg HOLD=3
name=fwload-test-hold-expiry.bin
trigger trigger_request "$name"
[ "$err" = 2 ] || fail "errno $err after $ms ms, want 2 (cancelled at HOLD's end)"
s=${ms%%.*}
{ [ "$s" -ge 3000 ] && [ "$s" -lt 30000 ]; } || fail "cancelled after $ms ms: HOLD is 3 s, the kernel's timeout 60 s"
echo "ok: cancelled after $ms ms (HOLD=3, timeout 60 s)"
kmsg "fwload: cancelled $name for /devices/virtual/misc/test_firmware/$name; not found in .* \(held until HOLD's end, HOLD=3\)"
[ "$(dmesg | grep -c "fwload: cancelled $name ")" = 1 ] || fail "not one line: $(dmesg | grep "$name")"
! dmesg | grep -q "past its deadline" || fail "hotplugd killed a child: $(dmesg | grep 'past its deadline')"
# The record goes once the request is answered (the answer comes first):
# within 5 s, else what is left is named with its content.
i=0
while [ -n "$(ls /run/fwload/held 2>/dev/null)" ]; do
	i=$((i + 1))
	[ "$i" -le 50 ] || fail "hold records left 5 s after the answer: $(for f in /run/fwload/held/*; do echo "$f: $(cat "$f")"; done)"
	sleep 0.1
done
