# SPDX-License-Identifier: MIT
# A failing hook (non-zero exit, killed by a signal, not runnable) does not
# stop the ones after it, and hotplug itself still exits 0.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkdir -p "$HOOKS/firmware" "$HOOKS/default"
printf '#!/bin/sh\necho 10 >>"%s"\nexit 1\n' "$T/ran" >"$HOOKS/firmware/10-fails.hotplug"
printf '#!/bin/sh\necho 20 >>"%s"\nkill -9 $$\n' "$T/ran" >"$HOOKS/firmware/20-killed.hotplug"
printf '#!/nonexistent/interpreter\n' >"$HOOKS/firmware/30-badinterp.hotplug"
printf '#!/bin/sh\necho 40 >>"%s"\nexit 111\n' "$T/ran" >"$HOOKS/firmware/40-fails.hotplug"
printf '#!/bin/sh\necho 50 >>"%s"\n' "$T/ran" >"$HOOKS/default/50-ok.hotplug"
chmod 755 "$HOOKS"/*/*.hotplug

request x.bin
run hotplug firmware
status_is 0
printf '10\n20\n40\n50\n' | cmp -s - "$T/ran" || fail "want hooks 10 20 40 50 to run, got: $(cat "$T/ran")"
