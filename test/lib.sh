# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# Helpers for the fast tests, test/unit/*.sh: no kernel, a fake sysfs tree in
# a temporary directory. test/run-unit runs each case as
#   TEST_SH="busybox sh" REPO=/path/to/repo busybox sh test/unit/NAME.sh
# and every product script runs through $TEST_SH too. A case's exit status
# is its verdict; fail() says why.
#
# The fake request is $SYS$TF/NAME/{loading,data}, two regular files. fwload
# opens loading once and writes to it in sequence, so loading ends up holding
# the transcript of the answer: "10" committed, "1-1" aborted after the
# start, "-1" cancelled (or refused before the start).

: "${REPO:?run the unit tests through test/run-unit}"
: "${TEST_SH:=sh}"

T=$(mktemp -d "${TMPDIR:-/tmp}/fwload-unit.XXXXXX") || exit 111
trap 'rm -rf "$T"' EXIT
trap 'exit 130' HUP INT TERM

SYS=$T/sys                             # SYSFS
TF=/devices/virtual/misc/test_firmware # test_firmware's device: DEVPATH prefix
CONF=$T/fwload.conf                    # FWLOAD_CONF
LOGF=$T/log                            # LOG= in the config, -l for fwload
HOOKS=$T/hotplug.d                     # HOTPLUG_DIR
RUN=$T/run/fwload                      # FWLOAD_RUNDIR (the config cache)
UROOT=$T/uroot                         # FWLOAD_UDEV_ROOT: udev's rules directories under it
FWLOAD=${TEST_FWLOAD:-$REPO/fwload}   # FWLOAD
KPATH=/sbin:/bin:/usr/sbin:/usr/bin    # the kernel's PATH for helpers
# The helpers' directory (FWLOAD_LIBEXEC): the sources', or test/cross.sh's
# copy, where the C helpers are wrappers that run the cross-built ones.
LIBEXEC=${TEST_LIBEXEC:-$REPO}
# SBIN: where hotplug, fwloadctl and hotplugd are. TEST_INSTALL: a tree that
# "make install-progs DESTDIR=" made (run-unit's minimal build): the
# programs, the scripts and the helpers from there.
SBIN=$REPO
if [ -n "${TEST_INSTALL:-}" ]; then
	SBIN=$TEST_INSTALL/sbin LIBEXEC=$TEST_INSTALL/lib/fwload FWLOAD=$TEST_INSTALL/sbin/fwload
fi
# shellcheck disable=SC2034 # for the cases
FWBIN=$FWLOAD                          # fwload itself, when FWLOAD is a wrapper
AGENT=$LIBEXEC/firmware.agent
FWDYN=${TEST_FWDYN:-$REPO/test/fwload-dyn}
FAULT=${TEST_FAULT:-$REPO/test/fault.so}
# test/cross.sh runs the suite on other architectures: TEST_FWLOAD is then a
# wrapper that runs the cross-built fwload under qemu-user, and TEST_QEMU the
# qemu command line that runs the dynamic test build with the fault injector.
# Use "clean $PRELOAD FAULT_...=... $DYN ARG..." (unquoted): LD_PRELOAD must
# reach the emulated program, not qemu.
if [ -n "${TEST_QEMU:-}" ]; then
	PRELOAD=
	DYN="$TEST_QEMU -E LD_PRELOAD=$FAULT $FWDYN"
else
	PRELOAD="LD_PRELOAD=$FAULT"
	DYN=$FWDYN
fi
# GUARD: how long a case waits for an event before it calls it lost, in
# seconds: 20, and three times that under qemu-user, where everything is
# 5 to 20 times slower on a loaded host. A hang guard, never a measure.
GUARD=20
[ -z "${TEST_QEMU:-}" ] || GUARD=60
mkdir -p "$SYS$TF" "$HOOKS" "$T/proc/sys/kernel" "$SYS/module/firmware_class/parameters"
# The boot clock, the host's (a case that takes it away removes the link).
ln -s /proc/uptime "$T/proc/uptime"
# firmware_class.path, not set: an empty line, as sysfs has it.
echo >"$SYS/module/firmware_class/parameters/path"

# own_libexec: FWLOAD_LIBEXEC becomes $T/libexec, links to every helper
# and script of $LIBEXEC, for a case that puts a wrapper in place of one;
# $HELPERS is where the real ones are.
own_libexec() {
	HELPERS=$LIBEXEC
	mkdir -p "$T/libexec" || fail "cannot make $T/libexec"
	for _p in "$HELPERS"/firmware.agent "$HELPERS"/fwloadctl-upload.sh "$HELPERS"/fwload-*; do
		case $_p in *.c) continue ;; esac
		[ -e "$T/libexec/${_p##*/}" ] || ln -s "$_p" "$T/libexec/${_p##*/}" || fail "cannot link $_p"
	done
	LIBEXEC=$T/libexec
}

# src_copy: $S, a copy of the sources in $T/src, for a test that runs make
# with its own paths: make rebuilds a program whose compile command changed
# (.NAME.cmd), and the repository's build must stay as the other layers made
# it (the real-kernel guest installs from it through a read-only root).
src_copy() {
	S=$T/src
	mkdir -p "$S"
	(cd "$REPO" && git ls-files -z 2>/dev/null | xargs -0 cp --parents -t "$S" 2>/dev/null) ||
		cp -R "$REPO/." "$S" || fail "cannot copy the sources"
	[ -f "$S/Makefile" ] || cp -R "$REPO/." "$S" || fail "cannot copy the sources"
}

fail() {
	echo "FAIL: $*"
	exit 1
}

# bg_pid PID: $bgpid, the process that runs the background command PID
# (from $!): PID itself once it runs a program other than this shell, or,
# when it stays a shell as this one is (yash runs a background command with
# redirections in a subshell: $! is the subshell's), its child. Waited for
# up to $GUARD s (a child just forked still runs the shell for a moment).
bg_pid() {
	_i=0
	while :; do
		# shellcheck disable=SC3013 # -ef: every shell we test has it
		if ! [ "/proc/$1/exe" -ef "/proc/$$/exe" ]; then
			bgpid=$1
			return 0
		fi
		for _s in /proc/[0-9]*/stat; do
			read -r _p _ _ _pp _ 2>/dev/null <"$_s" || continue
			if [ "$_pp" = "$1" ]; then
				# shellcheck disable=SC2034 # for the cases
				bgpid=$_p
				# (a program just run there may have started a child)
				# shellcheck disable=SC3013,SC2034
				[ "/proc/$1/exe" -ef "/proc/$$/exe" ] || bgpid=$1
				return 0
			fi
		done
		_i=$((_i + 1))
		[ "$_i" -le $((GUARD * 20)) ] || fail "the background command $1 runs nothing"
		sleep 0.05
	done
}

# until_true WHAT COMMAND...: wait (at most $GUARD s) for COMMAND to
# succeed: a hang guard, not a measure.
until_true() {
	_w=$1
	shift
	_i=0
	until "$@"; do
		_i=$((_i + 1))
		[ "$_i" -lt $((GUARD * 10)) ] || fail "waited $GUARD s for: $_w"
		sleep 0.1
	done
}

# send_sig NAME PID: kill -s NAME PID. SIGIO has two names on Linux, IO and
# POLL, and not every shell's kill knows both: dash and bash know only IO,
# mksh only POLL.
send_sig() {
	case $1 in
	IO) kill -s IO "$2" 2>/dev/null || kill -s POLL "$2" ;;
	*) kill -s "$1" "$2" ;;
	esac
}

# assert_eq WHAT WANT GOT
assert_eq() {
	[ "$2" = "$3" ] || fail "$1: want '$2', got '$3'"
}

# show FILE: the start of FILE, control characters visible, '$' at each end
# of line.
show() {
	if [ -e "$1" ]; then
		head -c 300 "$1" | sed -n l | tr '\n' ' '
	else
		echo "(no such file)"
	fi
}

# file_is FILE TEXT [WHAT]: FILE holds exactly TEXT (no newline added).
file_is() {
	printf %s "$2" | cmp -s - "$1" ||
		fail "${3:-$1}: want '$2', got: $(show "$1")"
}

# no_file FILE [WHY]: FILE must not exist.
no_file() {
	{ [ ! -e "$1" ] && [ ! -L "$1" ]; } || fail "${2:-$1 should not exist}: $(show "$1")"
}

# ---------------------------------------------------------------------------
# The fake request and the kernel's environment.

# request NAME [DEVPATH]: a pending request for firmware NAME, as the kernel
# makes it: empty $SYS$DEVPATH/loading and /data, and the uevent's variables
# E_* (unset E_X to leave X out of the environment). DEVPATH defaults to
# test_firmware's, with each '/' of NAME turned into '!'. Sets REQ.
request() {
	_rest=$1
	_dev=
	while :; do
		case $_rest in */*) ;; *) break ;; esac
		_dev=$_dev${_rest%%/*}!
		_rest=${_rest#*/}
	done
	E_ACTION=add
	E_DEVPATH=${2-$TF/$_dev$_rest}
	E_SUBSYSTEM=firmware
	E_FIRMWARE=$1
	E_TIMEOUT=60
	E_ASYNC=0
	E_SEQNUM=$((${E_SEQNUM:-0} + 1))
	REQ=$SYS$E_DEVPATH
	{ mkdir -p "$REQ" && : >"$REQ/loading" && : >"$REQ/data"; } ||
		fail "cannot make the request directory $REQ"
}

# pending NAME [DEVPATH]: a request the kernel made without a uevent
# reaching us, as the rescan finds it: request NAME [DEVPATH], its uevent
# file, and its link in $SYS/class/firmware.
pending() {
	request "$@"
	{
		printf 'FIRMWARE=%s\nTIMEOUT=60\nASYNC=1\n' "$1" >"$REQ/uevent" &&
			mkdir -p "$SYS/class/firmware" &&
			ln -s "../..$E_DEVPATH" "$SYS/class/firmware/${E_DEVPATH##*/}"
	} || fail "cannot make the pending request $1"
}

# hold_rec: $REC, the hold record of the request at $E_DEVPATH:
# $RUN/held/KEY, KEY the request's identity as fwload-pending -k prints it.
hold_rec() {
	_k=$(clean "$LIBEXEC/fwload-pending" -s "$SYS" -k "$E_DEVPATH") || fail "fwload-pending -k $E_DEVPATH: no key"
	# shellcheck disable=SC2034 # for the cases
	REC=$RUN/held/$_k
}

# standin_hotplugd: $T/hotplugd, a copy of test/hotplugd-standin (a
# program of its own, as fwloadctl wants a hotplugd: /proc/PID/exe).
# Each stand-in ends by itself within 120 s.
standin_hotplugd() {
	cp "$REPO/test/hotplugd-standin" "$T/hotplugd" ||
		fail "no test/hotplugd-standin: make check-fast builds it"
}

# udevd_standin PROC [UID]: a udev daemon as fwloadctl sees one: a process
# whose program is $UROOT/lib/systemd/systemd-udevd (a copy of sleep, run
# as UID, root by default), named in PROC/PID/comm (the fake /proc the
# case gives fwloadctl as PROCFS); $standin its pid, added to $standins
# (the case ends them: they end by themselves within 300 s). With UID other
# than 0 the program is a copy of its own outside udev's directories: a
# user's fake.
udevd_standin() {
	if [ "${2:-0}" = 0 ]; then
		_u=$UROOT/lib/systemd/systemd-udevd
	else
		_u=$T/fake-udevd/systemd-udevd
	fi
	{ mkdir -p "${_u%/*}" && { [ -x "$_u" ] || cp /bin/sleep "$_u"; }; } || fail "cannot make $_u"
	chmod 755 "$T" "${_u%/*}"
	if [ "${2:-0}" = 0 ]; then
		"$_u" 300 &
	else
		/usr/bin/setpriv --reuid="$2" --regid="$2" --clear-groups "$_u" 300 &
	fi
	standin=$!
	standins="${standins-} $standin"
	{ mkdir -p "$1/$standin" && echo systemd-udevd >"$1/$standin/comm"; } || fail "cannot write $1/$standin/comm"
}

# uptime_s: $up, whole seconds of the boot clock.
uptime_s() {
	read -r up _ </proc/uptime
	up=${up%%.*}
}

# untouched: the request got no answer and no data.
untouched() {
	file_is "$REQ/loading" "" "loading (should be untouched)"
	file_is "$REQ/data" "" "data (should be untouched)"
}

# kernel_env COMMAND ARG...: run COMMAND with exactly the environment the
# kernel gives its helper (the E_* that are set, HOME, PATH), plus the
# overrides the scripts honour, pointing into the fake tree. A timeout
# guards against hangs (a FIFO opened by mistake, say).
kernel_env() {
	timeout 60 env -i \
		${E_ACTION+"ACTION=$E_ACTION"} \
		${E_DEVPATH+"DEVPATH=$E_DEVPATH"} \
		${E_SUBSYSTEM+"SUBSYSTEM=$E_SUBSYSTEM"} \
		${E_FIRMWARE+"FIRMWARE=$E_FIRMWARE"} \
		${E_TIMEOUT+"TIMEOUT=$E_TIMEOUT"} \
		${E_ASYNC+"ASYNC=$E_ASYNC"} \
		${E_SEQNUM+"SEQNUM=$E_SEQNUM"} \
		HOME=/ PATH="$KPATH" \
		SYSFS="$SYS" FWLOAD_CONF="$CONF" FWLOAD="$FWLOAD" HOTPLUG_DIR="$HOOKS" \
		PROCFS="$T/proc" FWLOAD_LIBEXEC="$LIBEXEC" FWLOAD_RUNDIR="$RUN" \
		FWLOAD_UDEV_ROOT="$UROOT" ${FWLOAD_PASSWD:+"FWLOAD_PASSWD=$FWLOAD_PASSWD"} \
		FWLOAD_HOTPLUGD="$SBIN/hotplugd" \
		"$@"
}

# runas_user: a system user of the test's own for run= user= rules, as a
# package makes one (a uid that runs nothing else: every process of a uid
# can ptrace a program run as it): RUNAS (its name) with uid and gid
# RUNAS_ID in $T/passwd, which FWLOAD_PASSWD points the agent at (the
# host's /etc/passwd is left alone). $T becomes reachable (711) for it.
RUNAS=_fwload-test
RUNAS_ID=64990
runas_user() {
	FWLOAD_PASSWD=$T/passwd
	echo "$RUNAS:x:$RUNAS_ID:$RUNAS_ID:fwload run= programs (test):/nonexistent:/usr/sbin/nologin" \
		>>"$FWLOAD_PASSWD" || fail "cannot write $FWLOAD_PASSWD"
	chmod 711 "$T"
}

# held_by_sleepers FROM TO FORMAT: hold records $RUN/held/1-FROM to
# 1-(TO-1) of agents that run (a sleep each: its pid and start time), each
# ending 100 s after $up (uptime_s), the DEVPATH FORMAT with the index
# (printf); their pids added to $pids, ended with the case.
held_by_sleepers() {
	_i=$1 _to=$2 _fmt=$3
	while [ "$_i" -lt "$_to" ]; do
		sleep 120 &
		read -r _stat <"/proc/$!/stat"
		# shellcheck disable=SC2086 # the fields after "(comm) "
		set -- ${_stat##*) }
		# shellcheck disable=SC2059 # FORMAT is the caller's
		printf "%s %s %s $_fmt\n" "$((up + 100))" "$!" "${20}" "$_i" >"$RUN/held/1-$_i"
		pids="${pids-} $!"
		_i=$((_i + 1))
	done
	# shellcheck disable=SC2086 # pids
	trap 'kill $pids 2>/dev/null; rm -rf "$T"' EXIT
}

# agent_bg: the agent in the background for the request made last: its
# output in $T/bg.out, its exit status in $T/bg.st once it ends; $bg its $!.
agent_bg() {
	rm -f "$T/bg.st"
	(
		agent firmware >"$T/bg.out" 2>&1
		echo $? >"$T/bg.st"
	) &
	# shellcheck disable=SC2034 # for the cases
	bg=$!
}
# bg_status_is STATUS: the agent agent_bg started ended with STATUS.
bg_status_is() {
	wait "$bg"
	bg=
	read -r _s <"$T/bg.st" || fail "no status from the background agent"
	[ "$_s" = "$1" ] || fail "the held agent ended with $_s, want $1: $(cat "$T/bg.out") log: $(cat "$LOGF")"
}

# agent ARG...: firmware.agent under the shell being tested.
agent() {
	# shellcheck disable=SC2086 # TEST_SH is a command line ("busybox sh")
	kernel_env $TEST_SH "$AGENT" "$@"
}

# ctl ARG...: fwloadctl under the shell being tested.
ctl() {
	# shellcheck disable=SC2086 # TEST_SH is a command line ("busybox sh")
	kernel_env $TEST_SH "$SBIN/fwloadctl" "$@"
}

# hotplug ARG...: the multiplexer under the shell being tested.
hotplug() {
	# shellcheck disable=SC2086 # TEST_SH is a command line ("busybox sh")
	kernel_env $TEST_SH "$SBIN/hotplug" "$@"
}

# needs PROGRAM...: the case needs each (fwloadctl, hotplugd, a helper):
# it ends here, status 77, when one is not installed (a build without its
# part). Never skipped by name: by the file's absence.
needs() {
	for _n; do
		[ -e "$SBIN/$_n" ] || [ -e "$LIBEXEC/$_n" ] || {
			echo "$_n is not installed"
			exit 77
		}
	done
}

# clean [VAR=VALUE...] COMMAND ARG...: run COMMAND with only HOME, PATH and
# the given variables (fwload reads SYSFS, FIRMWARE and TIMEOUT), under a
# timeout.
clean() {
	timeout 60 env -i HOME=/ PATH="$KPATH" "$@"
}

# run COMMAND ARG...: run it with stdout to $T/stdout and stderr to
# $T/stderr; sets st to its exit status, and returns it (at the end of a
# pipeline, which runs in a subshell: `... | run CMD; st=$?`).
run() {
	"$@" >"$T/stdout" 2>"$T/stderr"
	st=$?
	return "$st"
}

# status_is WANT: the last run's exit status, with its output on failure.
status_is() {
	[ "$st" = "$1" ] ||
		fail "exit status $st, want $1; stdout: $(cat "$T/stdout"); stderr: $(cat "$T/stderr")"
}

# stderr_is TEXT / stdout_is TEXT: the last run printed exactly TEXT
# (a trailing newline is implied when TEXT is not empty).
stderr_is() {
	_want=$1${1:+
}
	file_is "$T/stderr" "$_want" stderr
}
stdout_is() {
	_want=$1${1:+
}
	file_is "$T/stdout" "$_want" stdout
}

# stderr_matches ERE: the last run's stderr is one line, matching ERE.
stderr_matches() {
	{ [ "$(wc -l <"$T/stderr")" -eq 1 ] && grep -Eqx -- "$1" "$T/stderr"; } ||
		fail "stderr should be one line matching '$1', got: $(cat "$T/stderr")"
}

# ---------------------------------------------------------------------------
# Configuration, firmware files, logs.

# aged: wait until the configuration written so far is more than a second
# old. The agent caches only files older than the second it makes the
# cache in (a change later in that second could pass unseen); a case that
# relies on the cache waits.
aged() {
	sleep 1
}

# conf LINE...: write the agent's configuration file.
conf() {
	printf '%s\n' "$@" >"$CONF"
}

# mkfw FILE CONTENT: a firmware file holding CONTENT (directories made).
mkfw() {
	{ mkdir -p "$(dirname "$1")" && printf %s "$2" >"$1"; } || fail "cannot make $1"
}

# mkimage FILE SIZE: SIZE random bytes in FILE.
mkimage() {
	{ mkdir -p "$(dirname "$1")" && head -c "$2" /dev/urandom >"$1" &&
		[ "$(wc -c <"$1")" -eq "$2" ]; } || fail "cannot make $1 ($2 bytes)"
}

# data_is FILE: the request's data is byte for byte FILE.
data_is() {
	cmp -s "$1" "$REQ/data" ||
		fail "data differs from $1: $(wc -c <"$REQ/data") bytes, want $(wc -c <"$1")"
}

# log_has LINE: the log file has LINE, exactly, as a whole line.
log_has() {
	{ [ -f "$LOGF" ] && grep -Fqx -- "$1" "$LOGF"; } ||
		fail "no log line '$1'; log: $(cat "$LOGF" 2>/dev/null)"
}

# log_matches ERE: the log file has a whole line matching ERE.
log_matches() {
	{ [ -f "$LOGF" ] && grep -Eqx -- "$1" "$LOGF"; } ||
		fail "no log line matching '$1'; log: $(cat "$LOGF" 2>/dev/null)"
}

# loaded_line NAME FILE [DEVPATH]: the ERE of fwload's success line.
loaded_line() {
	_n=$(wc -c <"$2")
	echo "fwload: loaded $(ere "$1") \\($_n bytes, [0-9]+ ms\\) from $(ere "$2") for $(ere "${3-$E_DEVPATH}")"
}

# ere TEXT: TEXT with the ERE special characters escaped.
ere() {
	printf '%s\n' "$1" | sed 's/[][\.*^$+?(){}|]/\\&/g'
}

# fault_run [VAR=VALUE...] -- FWLOAD-ARG...: test/fwload-dyn with the fault
# injector and the given FAULT_* settings, under `run`. The injector's call
# counts go to $T/stats (see stat_is).
fault_run() {
	_i=$#
	while [ "$_i" -gt 0 ]; do
		_a=$1
		shift
		if [ "$_a" = -- ]; then
			for _w in $DYN; do
				set -- "$@" "$_w"
			done
		else
			set -- "$@" "$_a"
		fi
		_i=$((_i - 1))
	done
	rm -f "$T/stats"
	# shellcheck disable=SC2086 # empty, or one VAR=VALUE word
	run clean $PRELOAD FAULT_STATS="$T/stats" "$@"
}

# stat_is PRIMITIVE N / stat_ge PRIMITIVE N: the fault injector saw
# exactly / at least N calls of PRIMITIVE (sendfile, splice, write) on data.
stat_is() {
	_got=$(sed -n "s/^$1 //p" "$T/stats" 2>/dev/null)
	[ "$_got" = "$2" ] || fail "$1 calls on data: '$_got', want $2"
}
stat_ge() {
	_got=$(sed -n "s/^$1 //p" "$T/stats" 2>/dev/null)
	{ [ -n "$_got" ] && [ "$_got" -ge "$2" ]; } || fail "$1 calls on data: '$_got', want >= $2"
}

# loads IMAGE HOW FAULT...: the image loads whole under the faults. HOW is
# file (FWLOAD_ARG IMAGE), stdin (a redirect) or pipe.
loads() {
	img=$1
	how=$2
	shift 2
	request x.bin
	case $how in
	file) fault_run "$@" -- -s "$SYS" "$E_DEVPATH" "$img" ;;
	stdin) fault_run "$@" -- -s "$SYS" "$E_DEVPATH" - <"$img" ;;
	pipe)
		head -c 2000000 "$img" | fault_run "$@" -- -s "$SYS" "$E_DEVPATH" -
		st=$?
		;;
	esac
	status_is 0
	stderr_is ''
	file_is "$REQ/loading" 10 "loading ($how, $*)"
	data_is "$img"
}
