# SPDX-License-Identifier: MIT
# A held request is never given a file still being written: the agent
# loads a file it finds only once no process has it open for writing (and
# its size and times hold still across two searches). Here a writer puts
# 16 KiB of 64 KiB in place and pauses, the file open, for as long as the
# agent takes to search it again several times; then writes the rest. The
# request gets the whole image. (Before, the file counted as complete once
# unchanged for a quarter of a second: 16 KiB loaded, logged as loaded.)
# Files should arrive whole, renamed into place (fwload.conf(5)); this is
# for the copy that does not.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
D=$R/lib/firmware
mkdir -p "$D"
echo 6.12.0-test >"$T/proc/sys/kernel/osrelease"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" HOLD=30
mkimage "$T/full" 65536
# fwload-stamp, counting the agent's looks at a file it found
# (fwload-stamp -W FILE).
own_libexec
rm "$LIBEXEC/fwload-stamp"
cat >"$LIBEXEC/fwload-stamp" <<END
#!/bin/sh
case "\$*" in "-W $D/late.bin") echo look >>"$T/looks" ;; esac
exec "$HELPERS/fwload-stamp" "\$@"
END
chmod 755 "$LIBEXEC/fwload-stamp"

request late.bin
hold_rec
agent_bg
until_true "the hold record" test -f "$REC"
# The writer: 16 KiB, then it waits for the word (or the case's end), its
# file open.
(
	exec >"$D/late.bin"
	head -c 16384 "$T/full"
	until [ -e "$T/go" ] || [ ! -d "$T/sys" ]; do sleep 0.05; done
	tail -c +16385 "$T/full"
) &
writer=$!
# Six looks at the partial file, or the agent's end (the partial file
# loaded: the bug).
looked() { [ -e "$T/bg.st" ] || [ "$({ wc -l <"$T/looks"; } 2>/dev/null || echo 0)" -ge 6 ]; }
until_true "six looks at the partial file" looked
[ ! -e "$T/bg.st" ] || {
	: >"$T/go"
	fail "the agent answered while the file was being written: status $(cat "$T/bg.st"); log: $(cat "$LOGF")"
}
untouched
: >"$T/go"
wait "$writer"
wait "$bg"
read -r st <"$T/bg.st"
status_is 0
file_is "$REQ/loading" 10
data_is "$T/full"
log_matches "$(loaded_line late.bin "$D/late.bin")"
