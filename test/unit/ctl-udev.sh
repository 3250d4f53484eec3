# SPDX-License-Identifier: MIT
# shellcheck disable=SC2086 # $TEST_SH is a command line ("busybox sh")
# fwloadctl beside udev: a rule that writes to a request's loading file
# (Debian's 50-firmware.rules: ATTR{loading}="-1", which cancels every
# request) is found with udev's precedence (/etc over /run over
# /usr/local/lib, /usr/lib and /lib; a file of the same name hides it, an
# empty one or a link to /dev/null masks it). setup masks it in /run and
# has a running udevd reload its rules before it forces the fallback, then
# serves what is pending; an administrator's rule in /etc makes it refuse,
# changing nothing; status names udevd and every such rule; udev_restore
# undoes the masks.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
needs fwloadctl

P=$T/proc
H=$P/sys/kernel/hotplug
F=$P/sys/kernel/firmware_config/force_sysfs_fallback
LIB=$UROOT/lib/udev/rules.d
ETC=$UROOT/etc/udev/rules.d
MASK=$UROOT/run/udev/rules.d/50-firmware.rules
mkdir -p "${F%/*}" "$SYS/class/firmware" "$LIB" "$ETC" "$T/bin" "$P/1"
: >"$H"
echo 0 >"$F"
echo init >"$P/1/comm"
# udevd and a worker of its: the lowest pid is named. (Root only: a
# process of udev's own program, run by root, is what is believed.)
[ "$(id -u)" = 0 ] || {
	echo "SKIP: not root (udevd is a root process of udev's own program)"
	exit 0
}
trap 'kill $standins 2>/dev/null; rm -rf "$T"' EXIT
udevd_standin "$P"
a=$standin
udevd_standin "$P"
[ "$a" -lt "$standin" ] || a=$standin
conf "LOG=$LOGF" "FIRMWARE_PATH=$T/fw"
# Debian's file, and rules that do not answer requests.
printf '%s\n' '# stub for immediately telling the kernel that userspace firmware loading' \
	'# failed; necessary to avoid long timeouts with CONFIG_FW_LOADER_USER_HELPER=y' \
	'SUBSYSTEM=="firmware", ACTION=="add", ATTR{loading}="-1"' >"$LIB/50-firmware.rules"
printf '%s\n' 'SUBSYSTEM=="firmware", ATTR{loading}=="1", GOTO="x"' '# ATTR{loading}="-1"' \
	'LABEL="x"' >"$LIB/60-reads-loading.rules"
printf '%s\n' 'SUBSYSTEM=="block", RUN+="/bin/true"' >"$LIB/80-other.rules"
# The udevadm stand-in records its arguments and what the fallback switch
# read when it ran (the mask must be in place before the fallback is on).
cat >"$T/bin/udevadm" <<END
#!/bin/sh
read -r f <"$F"
echo "\$* (fallback \$f, mask \$(readlink "$MASK"))" >>"$T/udevadm-ran"
exit \${UDEVADM_STATUS:-0}
END
chmod 755 "$T/bin/udevadm"
mkimage "$T/fw/early.bin" 3000
pending early.bin
unset E_ACTION E_DEVPATH E_FIRMWARE E_SUBSYSTEM E_TIMEOUT E_ASYNC E_SEQNUM

setup() {
	run kernel_env FWLOAD_HOTPLUG=/sbin/hotplug FWLOAD_UDEVADM="$T/bin/udevadm" \
		${UDEVADM_STATUS:+UDEVADM_STATUS=$UDEVADM_STATUS} $TEST_SH "$REPO/fwloadctl" setup
}

# Before setup: status shows the daemon and the rule that would cancel.
run ctl status
status_is 0
grep -qx "udevd:    running: systemd-udevd (pid $a)" "$T/stdout" || fail "status: $(cat "$T/stdout")"
grep -qx "udev rule: $LIB/50-firmware.rules answers every firmware request (udevd runs it): fwloadctl setup masks it" "$T/stdout" ||
	fail "status: $(cat "$T/stdout")"
[ "$(grep -c '^udev rule:' "$T/stdout")" = 1 ] || fail "status names other rules: $(cat "$T/stdout")"

# An administrator's rule in /etc that answers requests: setup refuses,
# having changed nothing.
printf '%s\n' 'SUBSYSTEM=="firmware", ATTR{loading} := "-1"' >"$ETC/10-local.rules"
setup
status_is 111
stderr_is "fwloadctl: setup: the udev rule $ETC/10-local.rules answers every firmware request (ATTR{loading}=) and is not setup's to change (setup writes only to /run): remove it, or mask it (a link to /dev/null of the same name in /etc/udev/rules.d)"
no_file "$MASK" "a mask after a refused setup"
no_file "$T/udevadm-ran" "udevadm after a refused setup"
file_is "$F" '0
'
file_is "$H" ''
untouched
rm "$ETC/10-local.rules"

# udevadm fails: the mask is there, but the fallback is not forced.
UDEVADM_STATUS=1
setup
status_is 111
UDEVADM_STATUS=
stderr_is "fwloadctl: setup: systemd-udevd (pid $a) still cancels firmware requests: $T/bin/udevadm control --reload failed (the masks are in $UROOT/run/udev/rules.d)"
file_is "$F" '0
'
untouched
rm "$T/udevadm-ran"

# setup: the mask, the reload (before the fallback is forced), the request
# that was pending served, and one line that says it all.
setup
status_is 0
[ "$(readlink "$MASK")" = /dev/null ] || fail "no mask: $(ls -l "$UROOT/run/udev/rules.d" 2>&1)"
file_is "$T/udevadm-ran" "control --reload (fallback 0, mask /dev/null)
"
file_is "$RUN/udev-masked" '50-firmware.rules
'
file_is "$F" '1
'
file_is "$REQ/loading" 10
data_is "$T/fw/early.bin"
grep -qx "fwloadctl: setup: uevent helper /sbin/hotplug, udev's $LIB/50-firmware.rules masked ($MASK -> /dev/null), systemd-udevd (pid $a) reloaded its rules, sysfs fallback forced; rescanning pending requests" "$T/stdout" ||
	fail "stdout: $(cat "$T/stdout")"
run ctl status
grep -qx "udev rule: $LIB/50-firmware.rules masked by fwloadctl setup ($MASK -> /dev/null)" "$T/stdout" ||
	fail "status: $(cat "$T/stdout")"
# Again: nothing more to mask, one record; udev reloads again (setup cannot
# know whether an earlier reload took).
setup
status_is 0
file_is "$T/udevadm-ran" "control --reload (fallback 0, mask /dev/null)
control --reload (fallback 1, mask /dev/null)
"
file_is "$RUN/udev-masked" '50-firmware.rules
'

# udev_restore (what "setup --undo" calls), run from fwloadctl's own text:
# the mask goes, udev reloads; a mask setup did not record stays.
ln -s /dev/null "$UROOT/run/udev/rules.d/70-admin.rules"
rm "$T/udevadm-ran"
sed -n '/^udev_state() {/,/^}/p; /^udevd_proc() {/,/^}/p; /^root_proc() {/,/^}/p; /^udev_writes_loading() {/,/^}/p; /^udev_restore() {/,/^}/p' \
	"$REPO/fwloadctl" >"$T/restore.sh"
echo udev_restore >>"$T/restore.sh"
# shellcheck disable=SC2016 # expanded by the shell under test
run kernel_env FWLOAD_UDEVADM="$T/bin/udevadm" $TEST_SH -c \
	'procfs=$PROCFS rundir=$FWLOAD_RUNDIR udevroot=$FWLOAD_UDEV_ROOT udevadm=$FWLOAD_UDEVADM udevrun=$udevroot/run/udev/rules.d; . "$0"' "$T/restore.sh"
status_is 0
stdout_is "fwloadctl: udev's 50-firmware.rules unmasked ($MASK removed)"
no_file "$MASK" "the mask after udev_restore"
no_file "$RUN/udev-masked" "the record after udev_restore"
[ -L "$UROOT/run/udev/rules.d/70-admin.rules" ] || fail "udev_restore removed a mask it did not make"
file_is "$T/udevadm-ran" "control --reload (fallback 1, mask )
"
run ctl status
grep -qx "udev rule: $LIB/50-firmware.rules answers every firmware request (udevd runs it): fwloadctl setup masks it" "$T/stdout" ||
	fail "status after udev_restore: $(cat "$T/stdout")"

# udev's precedence: a file of the same name in /etc (empty: a mask) hides
# /lib's, and setup leaves udev alone; /usr/lib's hides /lib's, and is the
# one masked. No udevd running: no reload.
rm "$T/udevadm-ran"
rm -r "$P"/[0-9]*[0-9]
# A user's process named systemd-udevd (its program's name), on a system
# with udev's rules but no udevd: not taken for udevd.
udevd_standin "$P" 65534
: >"$ETC/50-firmware.rules"
echo 0 >"$F"
setup
status_is 0
no_file "$MASK" "a mask beside the administrator's"
no_file "$T/udevadm-ran" "udevadm with nothing to mask"
run ctl status
grep -qx "udevd:    not running" "$T/stdout" || fail "status: $(cat "$T/stdout")"
grep -qx "udev rule: $LIB/50-firmware.rules masked by $ETC/50-firmware.rules" "$T/stdout" ||
	fail "status: $(cat "$T/stdout")"
rm "$ETC/50-firmware.rules"
mkdir -p "$UROOT/usr/lib/udev/rules.d"
cp "$LIB/50-firmware.rules" "$UROOT/usr/lib/udev/rules.d/"
: >"$LIB/50-firmware.rules"
setup
status_is 0
[ "$(readlink "$MASK")" = /dev/null ] || fail "/usr/lib's rule not masked"
grep -q "udev's $UROOT/usr/lib/udev/rules.d/50-firmware.rules masked ($MASK -> /dev/null), sysfs" "$T/stdout" ||
	fail "stdout: $(cat "$T/stdout")"
no_file "$T/udevadm-ran" "udevadm with no udevd running"
