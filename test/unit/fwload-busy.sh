# SPDX-License-Identifier: MIT
# One answerer per request. fwload takes flock(loading) before it writes
# anything and holds it until "0" or "-1" is written. A second fwload on the
# same request (a rescan, a re-sent add uevent, a person) finds the lock
# held: it writes nothing and exits 5, and the first one's image arrives
# whole. Before, the second wrote "1" in the middle of the first one's copy
# (which, on a real kernel, discards the pages written so far).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkimage "$T/img" 300000
request x.bin
# A: the image from a slow pipe (64 KiB, a pause until B is done, the rest).
{
	head -c 65536 "$T/img"
	until [ -e "$T/go" ]; do sleep 0.05; done
	tail -c +65537 "$T/img"
} | clean "$FWLOAD" -s "$SYS" -l "$LOGF" "$E_DEVPATH" - >"$T/a.out" 2>&1 &
a=$!
data_ge() { [ "$(wc -c <"$REQ/data")" -ge "$1" ]; }
until_true "A's first 64 KiB ($T/a.out)" data_ge 65536
mkimage "$T/other" 5000
for how in file cancel; do
	case $how in
	file) run clean "$FWLOAD" -s "$SYS" -l "$LOGF" "$E_DEVPATH" "$T/other" ;;
	cancel) run clean "$FWLOAD" -s "$SYS" -l "$LOGF" -c "$E_DEVPATH" ;;
	esac
	status_is 5
	stderr_is "fwload: x.bin: another answerer holds $E_DEVPATH; left alone"
	file_is "$REQ/loading" 1 "loading while A copies (B: $how)"
done
: >"$T/go"
wait "$a"
st=$?
status_is 0
file_is "$REQ/loading" 10
data_is "$T/img"
[ "$(wc -l <"$LOGF")" -eq 1 ] || fail "want one log line (A's), got: $(cat "$LOGF")"

# The lock goes with the answer: the next answerer is served.
run clean "$FWLOAD" -s "$SYS" "$E_DEVPATH" "$T/other"
status_is 0
