# SPDX-License-Identifier: MIT
# An event whose request was answered meanwhile (a rescan's, or a restarted
# hotplugd's, while another answerer served it): the kernel makes a
# request's files before its uevent, so a directory that is not there is a
# request that ended. The agent ends in milliseconds with status 5 and no
# log line: when the directory is gone before the agent looks, and when it
# goes between the agent's look and fwload's (fwload -e). Before, the agent
# logged "no firmware request ... event ignored", or fwload waited the whole
# TIMEOUT (60 s, holding a hotplugd job slot) for a loading that never came
# and logged "no request: ... ENOENT".
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
mkfw "$R/lib/firmware/x.bin" "firmware"

# quick WHAT: the last run took at most 5 s (the request's TIMEOUT is 60).
quick() {
	uptime_s
	[ $((up - t0)) -le 5 ] || fail "$1: $((up - t0)) s"
}

# Gone before the agent looks.
request x.bin
rm -r "$REQ"
uptime_s
t0=$up
run agent firmware
quick "a request gone before the agent"
status_is 5
no_file "$LOGF" "a log line for a request answered meanwhile"
no_file "$REQ"

# Gone between the agent's look and fwload's: a fwload in front of the real
# one takes the request away first (another answerer's 0, then the kernel).
cat >"$T/fwload-late" <<END
#!/bin/sh
case " \$* " in *" $TF/x.bin "*) rm -r "$SYS$TF/x.bin" ;; esac
exec "$FWLOAD" "\$@"
END
chmod 755 "$T/fwload-late"
request x.bin
uptime_s
t0=$up
real=$FWLOAD
FWLOAD=$T/fwload-late
run agent firmware
FWLOAD=$real
quick "a request gone before fwload"
status_is 5
no_file "$LOGF" "a log line for a request answered meanwhile"

# The control: a request that stays is served.
request x.bin
run agent firmware
status_is 0
file_is "$REQ/loading" 10
file_is "$REQ/data" "firmware"
