# SPDX-License-Identifier: MIT
# What a child of hotplugd leaves behind when it ends (a held request's
# agent runs on detached; a hook may leave a straggler) becomes hotplugd's
# child, not init's (PR_SET_CHILD_SUBREAPER): reaped by hotplugd when it
# ends (no zombie), and under systemd hotplugd stays the one process of
# fwload.service whose parent is the service manager, the one it takes
# for the main process when no pid file can be read (a full /run).
# shellcheck disable=SC2016 # wait_for takes sh code, expanded when it runs
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=hotplugd-lib
. "$REPO/test/unit/hotplugd-lib"

# PROGRAM: leaves a shell behind (until $T/release, 20 s at most), records
# its pid, ends.
cat >"$T/prog" <<END
#!/bin/sh
(i=0; until [ -e "$T/release" ] || [ \$i -ge 400 ]; do sleep 0.05; i=\$((i + 1)); done) </dev/null >/dev/null 2>&1 &
echo \$! >"$T/left"
END
chmod 755 "$T/prog"
pending x.bin
hpd_start -x "$T/prog" -S "$SYS"
wait_for '[ -s "$T/left" ]' "PROGRAM did not run: $(cat "$T/hpd.err")"
read -r left <"$T/left"
wait_for 'read -r _ _ _ pp _ <"/proc/$left/stat" && [ "$pp" = "$HPID" ]' \
	"what PROGRAM left behind (pid $left) is not hotplugd's child: $(cat "/proc/$left/stat" 2>/dev/null)"
: >"$T/release"
wait_for '! alive "$left"' "what PROGRAM left behind did not end"
wait_for '[ -z "$(zombies "$HPID")" ]' "zombies of hotplugd: $(zombies "$HPID")"
hpd_stop TERM
