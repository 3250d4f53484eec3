# SPDX-License-Identifier: MIT
# The rescan looks at every name in SYSFS/class/firmware/ but "." and "..":
# requests whose names start with a dot are served too.
# shellcheck disable=SC2016 # wait_for takes sh code, expanded when it runs
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=hotplugd-lib
. "$REPO/test/unit/hotplugd-lib"

standin 0
pending .hidden.bin
pending ..two.bin
pending plain.bin
hpd_start -x "$T/prog" -S "$SYS"
wait_for '[ "$(runs)" -ge 3 ]' "PROGRAM ran $(runs) times, want 3; hotplugd: $(cat "$T/hpd.err")"
sleep 0.2
hpd_stop TERM
[ "$(runs)" = 3 ] || fail "PROGRAM ran $(runs) times, want 3"
grep -h '^FIRMWARE=' "$T"/runs/* | LC_ALL=C sort >"$T/got"
printf 'FIRMWARE=%s\n' ..two.bin .hidden.bin plain.bin >"$T/want"
diff "$T/want" "$T/got" >"$T/diff" || fail "names served (want, got): $(cat "$T/diff")"
