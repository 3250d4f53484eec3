# SPDX-License-Identifier: MIT
# A rule's hold=SECONDS holds only its own names: with HOLD=0, a name the
# rule matches is held (served once its file appears), every other name
# not found is cancelled at once; with HOLD=30, a rule's hold=0 cancels its
# names at once. Bad values and misused words are reported and the rule
# skipped; explain names the rule's hold.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
D=$R/lib/firmware
mkdir -p "$D"
echo 6.12.0-test >"$T/proc/sys/kernel/osrelease"
RULES=$T/fwload.rules
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" HOLD=0 "RULES=$RULES"
printf '%s\n' 'firmware=late-* hold=30' 'firmware=iwl-* hold=0' >"$RULES"

# HOLD=0: another name not found is cancelled at once.
request other.bin
run agent firmware
status_is 1
file_is "$REQ/loading" -1

# The rule's name is held, then served once its file is there.
request late-a.bin
agent_bg
until_true "late-a.bin held" grep -q 'late-a\.bin held for .*waiting up to (29|30) s\|late-a\.bin held for ' "$LOGF"
grep -Eq "late-a\.bin held for .*; waiting up to (29|30) s for it" "$LOGF" || fail "held line: $(cat "$LOGF")"
untouched
mkimage "$T/late.tmp" 5000
mv "$T/late.tmp" "$D/late-a.bin"
wait "$bg"
read -r st <"$T/bg.st"
[ "$st" = 0 ] || fail "the held agent ended with $st: $(cat "$T/bg.out") log: $(cat "$LOGF")"
data_is "$D/late-a.bin"

# HOLD=30: a rule's hold=0 cancels its names at once.
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" HOLD=30 "RULES=$RULES"
request iwl-7.ucode
run agent firmware
status_is 1
file_is "$REQ/loading" -1

# explain names the rule's hold.
needs fwloadctl
run ctl explain late-b.bin
status_is 8
grep -q "^rule:     $RULES:1 applies: hold=30$" "$T/stdout" || fail "explain: $(cat "$T/stdout")"
run ctl explain iwl-8.ucode
status_is 1
grep -q "^rule:     $RULES:2 applies: hold=0$" "$T/stdout" || fail "explain: $(cat "$T/stdout")"

# Bad values, misused: reported, the rule skipped.
printf '%s\n' 'firmware=a* hold=abc' 'firmware=b* hold=86401' 'firmware=c* hold=5 run=/bin/true' 'firmware=d* hold=-1' >"$RULES"
run ctl explain a.bin
for w in "$RULES:1: hold=abc: whole seconds, 0 to 86400; rule ignored" \
	"$RULES:2: hold=86401: whole seconds, 0 to 86400; rule ignored" \
	"$RULES:3: run= goes with no name=, dir= or hold=; rule ignored" \
	"$RULES:4: hold=-1: whole seconds, 0 to 86400; rule ignored"; do
	grep -qxF "fwload: $w" "$T/stderr" || fail "no warning '$w': $(cat "$T/stderr")"
done
