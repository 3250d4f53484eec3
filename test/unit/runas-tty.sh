# SPDX-License-Identifier: MIT
# A run= user= program never gets the terminal of whoever started the
# chain: started from a pseudo-terminal (util-linux script), by fwloadctl
# rescan typed in a root shell, or by a hotplugd started there, the program
# cannot open /dev/tty (ENXIO), so it cannot push keystrokes into root's
# shell with TIOCSTI. fwloadctl setup starts hotplugd detached: a session
# of its own, no controlling terminal, standard input /dev/null. Before,
# the program opened /dev/tty and TIOCSTI pushed a byte; hotplugd kept
# setup's terminal.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=hotplugd-lib
. "$REPO/test/unit/hotplugd-lib"
command -v script >/dev/null || fail "no script (util-linux) to make a pseudo-terminal"

runas_user
conf "LOG=$LOGF"
echo "firmware=tty*.bin run=$T/ttyprobe user=$RUNAS" >"$T/fwload.rules"
echo "RULES=$T/fwload.rules" >>"$CONF"
cat >"$T/ttyprobe" <<'PROG'
#!/usr/bin/python3
import errno, fcntl, os, termios
try:
    fd = os.open("/dev/tty", os.O_RDWR)
except OSError as e:
    print("tty:", errno.errorcode[e.errno])
else:
    try:
        fcntl.ioctl(fd, termios.TIOCSTI, b"#")
        print("tty: opened, TIOCSTI pushed a byte")
    except OSError as e:
        print("tty: opened, TIOCSTI", errno.errorcode[e.errno])
PROG
chmod 755 "$T/ttyprobe"

# in_pty SCRIPT: run the sh SCRIPT with a pseudo-terminal as its
# controlling terminal (script -q: no transcript; its output to $T/pty).
in_pty() {
	SHELL=/bin/sh script -qc "sh $1" /dev/null </dev/null >"$T/pty" 2>&1
}

# fwloadctl rescan, typed in a root shell: the agent, fwload and
# fwload-runas all start with the terminal.
pending tty1.bin
cat >"$T/rescan.sh" <<END
[ -t 0 ] || echo "not in a terminal" >&2
exec env -i PATH="$KPATH" SYSFS="$SYS" FWLOAD_CONF="$CONF" FWLOAD="$FWLOAD" \
	FWLOAD_LIBEXEC="$REPO" FWLOAD_RUNDIR="$RUN" FWLOAD_PASSWD="$FWLOAD_PASSWD" PROCFS="$T/proc" \
	$TEST_SH "$REPO/fwloadctl" rescan
END
in_pty "$T/rescan.sh"
grep -q 'not in a terminal' "$T/pty" && fail "script gave no terminal: $(cat "$T/pty")"
file_is "$REQ/loading" 10 "loading (rescan in a terminal; $(cat "$T/pty"))"
file_is "$REQ/data" "tty: ENXIO
" "what the program run by a rescan in a terminal could do with /dev/tty"

# hotplugd started from a terminal: its start rescan's child (a session
# of its own: no terminal, one process group), the chain under it, the
# program.
pending tty2.bin
cat >"$T/hp" <<END
#!/bin/sh
read -r pid _ _ _ pgrp sid tty_nr _ <"/proc/\$\$/stat"
echo "session=\$([ "\$sid" = "\$pid" ] && echo own || echo "\$sid") group=\$([ "\$pgrp" = "\$pid" ] && echo own || echo "\$pgrp") tty_nr=\$tty_nr" >"$T/child"
exec env SYSFS="$SYS" FWLOAD_CONF="$CONF" FWLOAD="$FWLOAD" FWLOAD_LIBEXEC="$REPO" FWLOAD_RUNDIR="$RUN" \
	FWLOAD_PASSWD="$FWLOAD_PASSWD" PROCFS="$T/proc" $TEST_SH "$REPO/firmware.agent" "\$@"
END
chmod 755 "$T/hp"
echo "exec $HPD -x $T/hp -S $SYS -p $T/hpd.pid" >"$T/hpd.sh"
in_pty "$T/hpd.sh" &
spid=$!
until_true "the request served by hotplugd's start rescan ($(cat "$T/pty"))" grep -q 0 "$REQ/loading"
read -r HPID <"$T/hpd.pid"
kill -TERM "$HPID" || fail "hotplugd is gone before SIGTERM"
wait "$spid"  # script ends with hotplugd
HPID=
file_is "$REQ/loading" 10 "loading (hotplugd started in a terminal)"
file_is "$T/child" "session=own group=own tty_nr=0
" "where hotplugd started in a terminal runs its child"
file_is "$REQ/data" "tty: ENXIO
" "what the program run under a hotplugd started in a terminal could do with /dev/tty"

# fwloadctl setup --hotplugd in a terminal: hotplugd (a stand-in that says
# where it runs, then is ready) in a session of its own, with no terminal
# and standard input /dev/null.
cat >"$T/hotplugd" <<END
#!/bin/sh
read -r pid _ _ _ _ sid tty_nr _ <"/proc/\$\$/stat"
echo "session=\$([ "\$sid" = "\$pid" ] && echo own || echo "\$sid") tty_nr=\$tty_nr stdin=\$(readlink /proc/\$\$/fd/0)" >"$T/where"
echo \$\$ >"\$2"
echo >&3
END
chmod 755 "$T/hotplugd"
cat >"$T/setup.sh" <<END
[ -t 0 ] || echo "not in a terminal" >&2
exec env -i PATH="$KPATH" SYSFS="$SYS" FWLOAD_CONF="$CONF" FWLOAD_RUNDIR="$RUN" PROCFS="$T/proc" FWLOAD_LIBEXEC="$REPO" \
	FWLOAD_UDEV_ROOT="$UROOT" FWLOAD_HOTPLUGD="$T/hotplugd" $TEST_SH "$REPO/fwloadctl" setup --hotplugd
END
in_pty "$T/setup.sh"
grep -q 'not in a terminal' "$T/pty" && fail "script gave no terminal: $(cat "$T/pty")"
file_is "$T/where" "session=own tty_nr=0 stdin=/dev/null
" "where fwloadctl setup started hotplugd from a terminal (setup: $(cat "$T/pty"))"
