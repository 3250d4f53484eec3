# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# shellcheck disable=SC2034,SC2154 # fwloadctl's variables and settings
# fwloadctl-upload.sh - sourced by fwloadctl for "fwloadctl upload": an
# image into a firmware-upload device (CONFIG_FW_UPLOAD).
#
# The device's own directory (/sys/class/firmware/NAME: loading, data,
# status, error, remaining_size, cancel) takes an image as a request does:
# "1" to loading, the image to data, "0". fwload writes it (-U: an idle
# upload device only, under the request's lock, through its COMMAND slot:
# the decompressor, fwload-sha256), in the background: this shell keeps its
# traps, draws the bytes fwload has written (its wchar in /proc/PID/io)
# and, once the image is handed over, polls the device's status
# (100 ms, doubling to 1 s) until it is idle again, then reads its error.
# Ctrl-C or SIGTERM: SIGTERM to fwload while it writes ("-1": nothing
# handed over); after the hand-off "1" to cancel (SIGHUP: fwload's writing
# only). Exit statuses: up_error and fwloadctl(8). fwloadctl status sources
# it too, for up_status.

# up_writer: $wpid, the fwload writing an image to the firmware-upload
# device at $upath: the root fwload that holds its lock, $rundir/lock/KEY
# (lock_holder; KEY from fwload-pending -u -k), or empty.
up_writer() {
	wpid=''
	_k=$("$libexec/fwload-pending" -s "$sysfs" -u -k "$upath" 2>/dev/null) || return 0
	[ -e "$rundir/lock/$_k" ] || return 0
	lock_holder "$rundir/lock/$_k" "$fwload"
	wpid=$holder
}

# up_status: status's lines on the firmware-upload devices (what
# fwload-pending -u -k says is one), if there are any: NAME, DEVPATH, its
# status, its last error (the kernel says it only when idle), its
# remaining_size, and the fwload writing an image to it.
up_status() {
	_hdr=''
	for _u in "$sysfs"/class/firmware/*; do
		_p=$(readlink "$_u" 2>/dev/null) || continue
		upath=${_p#../..} uname=${_u##*/}
		_k=$("$libexec/fwload-pending" -s "$sysfs" -u -k "$upath" 2>/dev/null) || continue
		[ -n "$_hdr" ] || echo "firmware-upload devices (fwloadctl upload):"
		_hdr=1
		_s='' _e='' _r='' _l=''
		read -r _s 2>/dev/null <"$_u/status"
		read -r _r 2>/dev/null <"$_u/remaining_size"
		read -r _l 2>/dev/null <"$_u/loading"
		if [ "$_s" = idle ]; then  # (empty: no error; no newline to read)
			read -r _e 2>/dev/null <"$_u/error"
			_e="error ${_e:-none}"
		else
			_e="error (said when idle)"
		fi
		_w=''
		if [ "$_l" = 1 ]; then
			up_writer
			_w="; an image being written to it${wpid:+ by fwload (pid $wpid)}"
		fi
		printf '  %s  %s  status %s, %s, remaining_size %s%s\n' "$uname" "$upath" "${_s:-unknown}" "$_e" "${_r:-unknown}" "$_w"
	done
}

# up_refuse STATUS TEXT: nothing was done: TEXT on stderr, exit STATUS.
up_refuse() {
	printf 'fwloadctl: upload: %s\n' "$2" >&2
	exit "$1"
}

# up_device DEVICE: $updir, the device's sysfs directory (links resolved),
# $upath and $uname (its name); or refused: a path that leaves sysfs, or
# anything but a firmware-upload device (a pending request is the agent's).
up_device() {
	case $1 in
	*/*) updir=$1 ;;
	*) updir=$sysfs/class/firmware/$1 ;;
	esac
	_s=$(cd -P -- "$sysfs" 2>/dev/null && pwd -P) || up_refuse 111 "no sysfs at $sysfs"
	if ! updir=$(cd -P -- "$updir" 2>/dev/null && pwd -P); then
		case $1 in
		*/*) up_refuse 6 "$1: no such directory; nothing written" ;;
		*) up_refuse 6 "$1: no such device (none of that name in $sysfs/class/firmware/); nothing written" ;;
		esac
	fi
	case $updir in
	"$_s"/devices/?*) ;;
	*) up_refuse 6 "$1: $updir is not a device of $_s (a path that leaves sysfs); refused, nothing written" ;;
	esac
	upath=${updir#"$_s"} uname=${updir##*/}
	# What it is, fwload-pending says: 6 a pending request, 111 neither.
	_k=$("$libexec/fwload-pending" -s "$_s" -u -k "$upath" 2>&1)
	case $? in
	0) ;;
	6) up_refuse 6 "$1: a pending firmware request, not a firmware-upload device: the firmware agent answers it (fwloadctl rescan); nothing written" ;;
	*) up_refuse 6 "$1: not a firmware-upload device ($updir has no loading and remaining_size); nothing written" ;;
	esac
}

# up_error PHASE:ERROR: $ust, the exit status for the device's error, and
# $means, what it means and what to do (one sentence).
up_error() {
	case ${1#*:} in
	hw-error) ust=10 means="the device reported a hardware fault: look for its messages in the kernel log, and power-cycle or service it as its maker says before trying again" ;;
	timeout) ust=11 means="the device did not finish within its own time limit: try again, and if it happens again look in the kernel log for what the device was doing" ;;
	user-abort) ust=12 means="the upload was cancelled (Ctrl-C, SIGTERM or fwloadctl upload --cancel) and the device stopped: upload again to program it" ;;
	device-busy) ust=13 means="the device was busy with other work: try again when it is done" ;;
	invalid-file-size) ust=14 means="the device refused the image's size: check that the image is the one made for this device" ;;
	read-write-error) ust=15 means="the device could not read or write its flash: try again, and if it happens again the device needs service" ;;
	flash-wearout) ust=16 means="the device's flash is worn out and can no longer be programmed reliably: replace the device, or its flash" ;;
	firmware-invalid) ust=17 means="the device refused the image as invalid (not for this model, a bad signature, or damaged): check that it is the right image, from the device's maker" ;;
	*) ust=18 means="an error fwloadctl does not know: see the documentation of the device's driver" ;;
	esac
}

# up_now: $el, the seconds since the upload began (the boot clock).
up_now() {
	boot_now
	el=$((${boot_now:-$t0} - t0))
}

# up_line TEXT: a plain line on stderr (no terminal, or a note), the bar's
# line ended first.
up_line() {
	[ -z "$quiet" ] || return 0
	if [ -n "$drawn" ]; then
		printf '\r\033[K' >&2
		drawn=''
	fi
	printf 'fwloadctl: upload %s: %s\n' "$uname" "$1" >&2
}

# up_draw PHASE DONE TOTAL: the progress line, on a terminal only: PHASE
# (while writing, the bytes written so far), a bar and the percentage when
# TOTAL is known, the time so far; one line redrawn in place (\r, \033[K),
# never as wide as the terminal. Without a terminal, a plain line each time
# PHASE changes.
up_draw() {
	if [ -z "$bar" ]; then
		[ "$1" = "$shown" ] || [ "$1" = writing ] || [ "$1" = idle ] || { up_now && up_line "$1 ($el s)"; }
		shown=$1
		return 0
	fi
	up_now
	_l=$1
	if [ "$1" = writing ]; then
		if [ "$2" -lt 10240 ]; then
			_l="writing $2 B"
		elif [ "$2" -lt 10485760 ]; then
			_l="writing $(($2 / 1024)) KiB"
		else
			_l="writing $(($2 / 1048576)) MiB"
		fi
	fi
	_t=" $((el / 60)):$((el % 60 / 10))$((el % 10))" _r=''
	if [ "$3" -gt 0 ]; then
		_a=$2 _b=$3
		while [ "$_b" -gt 1000000 ]; do _a=$((_a / 16)) _b=$((_b / 16)); done
		_p=$((_a * 100 / _b))
		[ "$_p" -le 100 ] || _p=100
		_r=" $_p%"
	fi
	# Columns kept in place where there is room (40 and more): the label,
	# the bar, the percentage, the time.
	if [ "$cols" -ge 40 ]; then
		while [ ${#_l} -lt 16 ]; do _l="$_l "; done
		while [ ${#_r} -lt 5 ]; do _r=" $_r"; done
		_w=$((cols - 4 - ${#_l} - ${#_r} - ${#_t}))
		if [ "$3" -gt 0 ] && [ "$_w" -ge 5 ]; then
			_f=$((_w * _p / 100)) _bar=''
			while [ ${#_bar} -lt "$_f" ]; do _bar="$_bar="; done
			[ "$_f" -eq "$_w" ] || _bar="$_bar>"
			while [ ${#_bar} -lt "$_w" ]; do _bar="$_bar "; done
			_l="$_l [$_bar]"
		fi
	fi
	_l=$_l$_r$_t
	[ ${#_l} -lt "$cols" ] || _l=${_l%"$_t"}
	while [ ${#_l} -ge "$cols" ]; do _l=${_l%?}; done
	printf '\r%s\033[K' "$_l" >&2
	drawn=1
}

# up_cols: $cols, the width of the terminal on stderr (stty size; else
# $COLUMNS, else 80).
up_cols() {
	set -f
	# shellcheck disable=SC2046 # rows and columns
	set -- $(stty size <&2 2>/dev/null)
	set +f
	cols=${2-}
	case $cols in '' | *[!0-9]*) cols=${COLUMNS:-80} ;; esac
	case $cols in '' | *[!0-9]* | ? | 1?) cols=80 ;; esac
}

# up_sleep SECONDS: sleep, in the background (waited for, so that a trap
# runs at once); whole seconds where sleep takes no fractions.
up_sleep() {
	[ -z "$whole" ] || set -- 1
	(exec sleep "$1" 2>/dev/null) &
	wait "$!"
	_st=$?
	if [ "$_st" -gt 128 ]; then
		kill "$!" 2>/dev/null
	elif [ "$_st" != 0 ]; then
		whole=1
	fi
}

# up_exited PID START: the process PID (started at START) has ended, or is
# a zombie: it is not running any more.
up_exited() {
	proc_stat "$1" || return 0
	case $proc_state in Z | X) return 0 ;; esac
	[ "$proc_start" != "$2" ]
}


# up_end STATUS OUTCOME [MORE]: the upload's end: the bar's line ended;
# on stdout for 0, "fwloadctl: upload NAME: OUTCOME: IMAGE, N bytes in T
# s[; MORE]" ("OUTCOME in T s" for --cancel; nothing with --quiet); else on stderr "fwloadctl: upload
# NAME: OUTCOME[: MORE]" (MORE: what it means and what to do); one line in
# fwload's log: device, outcome, image, bytes, digest, time (not for
# --cancel: the upload it stopped logs its own); exit STATUS.
up_end() {
	up_now
	[ -z "$drawn" ] || printf '\n' >&2
	drawn='' _dg='no digest'
	[ -z "$sum" ] || _dg="sha256 $sum"
	if [ "$1" = 0 ]; then
		_what=" in $el s"
		[ -z "$image" ] || _what=": $image, ${n:-0} bytes$_what"
		[ -n "$quiet" ] || printf 'fwloadctl: upload %s: %s%s%s\n' "$uname" "$2" "$_what" "${3:+; $3}"
	else
		printf 'fwloadctl: upload %s: %s%s\n' "$uname" "$2" "${3:+: $3}" >&2
	fi
	[ -n "$cancel" ] ||
		"$libexec/fwload-log" -l "$log" "upload $uname to $upath: $2 ($image, ${n:-0} bytes, $_dg$sum_note, $el s)"
	rm -f "$errf" 2>/dev/null
	exit "$1"
}

# up_cancel_device: "1" to the device's cancel; where it refuses (EBUSY: it
# is still busy, maybe writing its flash), say that it cannot stop now.
up_cancel_device() {
	if printf 1 2>/dev/null >"$updir/cancel"; then
		up_line "cancel requested ($ph)"
		return 0
	fi
	read -r ph 2>/dev/null <"$updir/status"
	[ "$ph" = idle ] || up_line "the device cannot stop now ($ph: it refused to cancel); waiting for its answer"
}

# up_wait: after the hand-off: the device's status every 100 ms, doubling
# to 1 s, until it is idle, each stop signal a cancel; then its error.
up_wait() {
	_last='' _delay=0.1
	while :; do
		ph='' rem=''
		read -r ph 2>/dev/null <"$updir/status"
		read -r rem 2>/dev/null <"$updir/remaining_size"
		[ -n "$ph" ] || up_end 111 "the device went away ($updir/status cannot be read)"
		if [ "$ph" != "$_last" ]; then
			_last=$ph _delay=0.1
		fi
		case $ph:$rem in
		idle:*) ;;
		transferring:[0-9]*) up_draw "$ph" $((n > rem ? n - rem : 0)) "$n" ;;
		programming:*) up_draw "$ph" "$n" "$n" ;;
		*) up_draw "$ph" 0 "$n" ;;
		esac
		[ "$ph" != idle ] || break
		if [ "$stop" != "$handled" ]; then
			handled=$stop
			up_cancel_device
			continue
		fi
		up_now
		[ "$limit" = 0 ] || [ $((el - handed)) -lt "$limit" ] ||
			up_end 9 "still $ph after the wait limit of $limit s (--timeout): the device goes on; fwloadctl status shows it, fwloadctl upload --cancel $uname stops it"
		up_sleep "$_delay"
		case $_delay in 0.1) _delay=0.2 ;; 0.2) _delay=0.4 ;; 0.4) _delay=0.8 ;; *) _delay=1 ;; esac
	done
	if ! read -r err 2>/dev/null <"$updir/error"; then
		[ -n "${err-}" ] || err=''
		read -r ph 2>/dev/null <"$updir/status"
		[ "$ph" = idle ] || up_end 111 "another upload began before this one's answer could be read (status $ph)"
	fi
	[ -n "$err" ] || up_end 0 programmed
	up_error "$err"
	up_end "$ust" "$err" "$means"
}

# up_cancel: upload --cancel DEVICE: a device at work is sent "1" to
# cancel (and its answer waited for, unless --no-wait); an image being
# written by fwload (the holder of the device's lock) is stopped by
# SIGTERM: "-1", nothing handed over. Exit 1 when there is nothing to stop.
# shellcheck disable=SC3013 # -ef: every shell we run under has it
up_cancel() {
	read -r ph 2>/dev/null <"$updir/status"
	if [ "$ph" = idle ]; then
		up_writer
		if [ -z "$wpid" ]; then
			_ld=''
			read -r _ld 2>/dev/null <"$updir/loading"
			[ "$_ld" != 1 ] || up_refuse 1 "$uname: an image is being written to it by a program other than fwload (loading 1): nothing fwloadctl can stop"
			up_refuse 1 "$uname: idle, no upload to cancel"
		fi
		"$libexec/fwload-log" -l "$log" "upload $uname to $upath: stopping the fwload (pid $wpid) writing an image to it (fwloadctl upload --cancel)"
		kill -TERM "$wpid" 2>/dev/null
		_i=0
		while [ "/proc/$wpid/exe" -ef "$fwload" ] && [ "$_i" -lt 100 ]; do
			up_sleep 0.1
			_i=$((_i + 1))
		done
		read -r ph 2>/dev/null <"$updir/status"
		[ "$ph" != idle ] || up_end 3 "stopped while its image was written (fwload pid $wpid; loading -1): nothing handed over"
		# handed over meanwhile: the device is told to cancel instead
	fi
	"$libexec/fwload-log" -l "$log" "upload $uname to $upath: cancel requested while $ph (fwloadctl upload --cancel)"
	up_cancel_device
	[ -z "$nowait" ] || exit 0
	n='' handed=0
	up_wait
}

# up_options [OPTION]... DEVICE [IMAGE]: upload's options ($quiet,
# $nowait, $limit, $digest, $cancel); $up_args, how many to shift.
up_options() {
	quiet='' nowait='' limit=3600 digest='' cancel='' up_args=$#
	while [ $# -gt 0 ]; do
		case $1:${2-} in
		-q:* | --quiet:*) quiet=1 ;;
		--no-wait:*) nowait=1 ;;
		--cancel:*) cancel=1 ;;
		--timeout:*[!0-9]* | --timeout: | --sha256:) bad_usage ;;
		--timeout:*)
			[ ${#2} -le 7 ] || bad_usage
			limit=$2
			shift
			;;
		--sha256:*)
			case $2 in *[!0-9a-fA-F]*) bad_usage ;; esac
			[ ${#2} = 64 ] || bad_usage
			digest=$2
			shift
			;;
		--:*)
			shift
			break
			;;
		-?*) bad_usage ;;
		*) break ;;
		esac
		shift
	done
	if [ -n "$cancel" ]; then
		if [ $# != 1 ] || [ -n "$digest" ]; then bad_usage; fi
	elif [ $# != 2 ] || [ -z "$2" ] || [ "$2" = - ]; then
		bad_usage
	fi
	up_args=$((up_args - $#))
}

# up_image IMAGE: $image (absolute), checked as a request's would be, on an
# idle device: NAME.zst and NAME.xz decompressed ($unpack), the digest
# (--sha256, else the manifest's, fail-closed: $sum, $sum_note) checked by
# fwload-sha256 in fwload's COMMAND slot; with SIGNED=yes the manifest's
# alone, and only while fwload-verify vouches for it, as for a request
# (signed_refused); $total, its size (0: not known before decompression).
up_image() {
	image=$1
	case $image in /*) ;; *) image=$PWD/$image ;; esac
	read -r ph 2>/dev/null <"$updir/status"
	[ "$ph" = idle ] ||
		up_refuse 5 "$uname: busy, its status is ${ph:-unknown} (an upload under way: fwloadctl status shows it, fwloadctl upload --cancel $uname stops it); nothing written"
	_ld=''
	read -r _ld 2>/dev/null <"$updir/loading"
	[ "$_ld" != 1 ] ||
		up_refuse 5 "$uname: busy, an image is being written to it (loading 1; fwloadctl upload --cancel $uname stops fwload); nothing written"
	if [ ! -f "$image" ] || [ ! -r "$image" ]; then
		up_refuse 2 "$image: not a readable regular file; nothing written"
	fi
	sfx='' unpack='' unpack_args='' unpack_why=''
	case $image in *.zst) sfx=.zst ;; *.xz) sfx=.xz ;; esac
	_ifs=$IFS
	IFS=:
	find_unpacker "$sfx"
	IFS=$_ifs
	[ -z "$unpack_why" ] || up_refuse 2 "$image: $unpack_why; nothing written"
	if [ "$signed" = yes ]; then
		[ -z "$digest" ] ||
			up_refuse 2 "$image: --sha256 with SIGNED=yes: the signed manifest is the one source of digests; nothing written"
		! signed_refused || up_refuse "$refuse_st" "$image: $refuse_note; nothing written"
	fi
	if [ -n "$digest" ]; then
		sum=$digest
	elif [ -n "$manifest" ]; then
		up_manifest_name
		find_sum
		[ -z "$sum_bad" ] || up_refuse 2 "$image: $name $sum_bad; refused, nothing written"
		if [ -z "$sum" ]; then
			[ "$unlisted" = load ] ||
				up_refuse 2 "$image: ${sum_why:-$name is not in $manifest}, UNLISTED=refuse; refused, nothing written"
			sum_note="; ${sum_why:-$name not in $manifest}, unchecked (UNLISTED=load)"
		fi
	elif [ "$unlisted" = refuse ]; then
		up_refuse 2 "$image: UNLISTED=refuse, but no MANIFEST= to check against (nor --sha256): refused, nothing written"
	fi
	[ -z "$sum" ] || ! sha256_missing || up_refuse "$refuse_st" "$image: $refuse_note; nothing written"
	total=0
	[ -n "$unpack" ] || total=$(wc -c <"$image")
	total=${total##* }
}

# up_written: $n, the bytes fwload ($fw) has written so far: its wchar
# (/proc/PID/io), less the "1" it wrote to loading first; kept when it
# cannot be read (fwload ended).
up_written() {
	{ command exec 8<"/proc/$fw/io"; } 2>/dev/null || return 0
	while read -r _k _v <&8; do
		[ "$_k" != wchar: ] || break
	done
	exec 8<&-
	case $_k:$_v in wchar:[1-9]*) n=$((_v - 1)) ;; esac
}

# up_write: fwload writes $image to the device, in the background (-v: its
# one line, the outcome, to $errf), its progress drawn; $wst its status,
# $why its line; a refusal (5, 6) or a failure ends the upload here.
up_write() {
	run_dir
	errf=$rundir/upload.$$.err
	: 2>/dev/null >"$errf" || up_refuse 111 "cannot write $errf (the run directory); nothing written"
	set -- -U -v -l none -k "$rundir/lock" -s "$sysfs" -n "$uname" -t 0
	[ -z "$max_size" ] || set -- "$@" -S "$max_size"
	[ -z "$deadline" ] || set -- "$@" -T "$deadline"
	set -- "$@" -- "$upath" "$image"
	[ -z "$sum" ] || set -- "$@" "$sha256" "$sum"
	# shellcheck disable=SC2086 # fixed options, no blanks inside
	[ -z "$unpack" ] || set -- "$@" "$unpack" $unpack_args
	[ -n "$bar" ] || up_line "writing $image${unpack:+ through ${unpack##*/}} to $upath"
	# (exec: $! is fwload itself, in every shell)
	(exec "$fwload" "$@" 2>"$errf") &
	fw=$!
	proc_stat "$fw"
	_start=$proc_start n=0
	[ "$stop" = 0 ] || kill -TERM "$fw" 2>/dev/null
	while :; do
		up_written
		up_draw writing "$n" "$total"
		! up_exited "$fw" "$_start" || break
		up_sleep 0.1
	done
	while :; do  # wait again when a trap interrupted it
		_seen=$sigs
		wait "$fw"
		wst=$?
		if [ "$wst" -le 128 ] || [ "$sigs" = "$_seen" ]; then break; fi
	done
	fw='' why=''
	IFS= read -r why 2>/dev/null <"$errf"
	why=${why#fwload: }
	_n=${why#"handed over $uname ("}
	_n=${_n%%" bytes, "*}
	case $wst:$_n in 0:[0-9]*) [ -n "${_n##*[!0-9]*}" ] && n=$_n ;; esac
	up_draw writing "$n" "$n"
	why=${why#"$uname: "}
	case $wst in
	0) ;;
	2) up_end 2 "not handed over: ${why:-fwload aborted}" ;;
	3) up_end 3 "stopped while its image was written (Ctrl-C, SIGTERM or fwloadctl upload --cancel; loading -1): nothing handed over" ;;
	5 | 6)
		[ -z "$drawn" ] || printf '\n' >&2
		rm -f "$errf"
		up_refuse "$wst" "$uname: ${why:-refused by fwload}"
		;;
	*) up_end 111 "fwload ended with status $wst${why:+: $why}" ;;
	esac
}

# upload [OPTION]... DEVICE IMAGE, upload --cancel [OPTION]... DEVICE
upload() {
	bar='' drawn='' shown='' whole='' stop=0 handled=0 sigs=0 image='' n='' sum='' sum_note='' errf=''
	up_options "$@"
	shift "$up_args"
	up_device "$1"
	boot_now
	t0=$boot_now
	[ -n "$t0" ] || up_refuse 111 "no boot clock ($procfs/uptime cannot be read) to time the upload"
	if [ -z "$quiet" ] && [ -t 2 ]; then
		bar=1
		up_cols
	fi
	# Ctrl-C, SIGTERM: stop (fwload, else the device: up_wait). SIGHUP (the
	# terminal went away): fwload stops, the device's work never (its
	# outcome is still logged).
	trap 'sigs=$((sigs + 1)) stop=$((stop + 1)); [ -z "${fw-}" ] || kill -TERM "$fw" 2>/dev/null' INT TERM
	trap 'sigs=$((sigs + 1)); [ -z "${fw-}" ] || kill -TERM "$fw" 2>/dev/null' HUP
	[ -z "$cancel" ] || up_cancel
	up_image "$2"
	up_write
	up_now
	handed=$el
	[ -n "$bar" ] || up_line "handed over $n bytes ($el s)"
	[ -z "$nowait" ] || up_end 0 "handed over" "not waited for (--no-wait): fwloadctl status shows the device's progress"
	# A stop signal that fwload saw only after "0" (handled is 0): a cancel.
	up_wait
}

# up_manifest_name: $name, the image's name in the manifest: its path in
# the firmware directory that holds it, as a driver would ask for it (the
# directories the agent searches, in its order: firmware.agent --dirs),
# else its file name; without .xz or .zst.
up_manifest_name() {
	name=${image##*/}
	_real=$(readlink -f -- "$image")
	_dirs=$("$agent" --dirs) || _dirs=''
	_ifs=$IFS
	IFS=$nl
	set -f
	for _dir in $_dirs; do
		_r=$(readlink -f -- "$_dir" 2>/dev/null) || continue
		case $_real in "$_r"/?*) name=${_real#"$_r"/} && break ;; esac
	done
	set +f
	IFS=$_ifs
	name=${name%"$sfx"}
}

