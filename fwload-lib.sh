# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# shellcheck disable=SC2034,SC2154 # the settings are for the caller, which sets conf etc.
# fwload-lib.sh - sourced, never run: the parts of firmware.agent that not
# every event needs, kept out of the script every event parses.
#
# conf_build reads fwload.conf and the rules file and turns them into shell
# (validated assignments, the rules as one function). The agent sources
# this file for it only when its cache ($FWLOAD_RUNDIR/conf.cache) is absent
# or older than either file; fwloadctl, to read the same settings.
# find_sum looks the image up in the SHA-256 manifest (MANIFEST= only).
#
# The caller sets: conf (fwload.conf), fwload (for -L), procfs, sysfs, dry
# (non-empty: report on stderr only, write no cache), with_rules (non-empty:
# the rules file too; it needs the agent's check_name), and for the cache
# rundir, cache and cache_fmt. conf_build sets the settings, defines
# rules(), writes the cache when it can and reports each bad line once
# (through "fwload -L").

# q VALUE: set $q to VALUE as one single-quoted shell word.
q() {
	q=
	_r=$1
	while :; do
		case $_r in *\'*) ;; *) break ;; esac
		q=$q${_r%%\'*}\'\\\'\'
		_r=${_r#*\'}
	done
	q="'$q$_r'"
}

# bad TEXT: one warning about the line being read.
bad() {
	warned="$warned$where: $1
"
}

conf_build() {
	fw_root='' fw_path='' log=kmsg compressed=no rules_file=${conf%/*}/fwload.rules
	manifest='' unlisted=load missing_dir='' max_size='' deadline=''
	timeout='' force_fallback=yes source=auto
	warned=
	q "$conf"
	qconf=$q
	conf_state="[ ! -e $q ]"
	if [ -e "$conf" ]; then
		conf_state="[ -e $q ] && [ \"\$cache\" -nt $q ]"
		if [ -f "$conf" ] && [ -r "$conf" ]; then
			conf_read
		else
			where=$conf bad "cannot read it; using the defaults"
		fi
	fi
	rules_sh=
	q "$rules_file"
	rules_state="[ ! -e $q ]"
	if [ -n "${with_rules-}" ] && [ -n "$rules_file" ] && [ -e "$rules_file" ]; then
		rules_state="[ -e $q ] && [ \"\$cache\" -nt $q ]"
		if [ -f "$rules_file" ] && [ -r "$rules_file" ]; then
			rules_read
		else
			where=$rules_file bad "cannot read it; no rules applied"
		fi
	fi
	# The kernel release (for the search order): the cache lives in a run
	# directory, which a reboot empties.
	if [ -r "$procfs/sys/kernel/osrelease" ]; then
		IFS= read -r release <"$procfs/sys/kernel/osrelease"
	else
		release=$(uname -r)
	fi
	# The device tree, when a rule asks for it: read once here, not on
	# every event (it does not change while the system runs).
	dt_model='' dt_compatible='' dt=$sysfs/firmware/devicetree/base
	case $rules_sh in
	*"m model "* | *"m compatible "*)
		[ ! -r "$dt/model" ] || dt_model=$(tr -d '\0' <"$dt/model")
		[ ! -r "$dt/compatible" ] || dt_compatible=$(tr '\0' '\n' <"$dt/compatible")
		;;
	esac
	text=
	for v in release dt_model dt_compatible fw_root fw_path log compressed rules_file manifest unlisted missing_dir max_size deadline \
		timeout force_fallback source; do
		eval "q \"\$$v\""
		text="$text$v=$q
"
	done
	# rules(): the first rule whose conditions all hold sets name= (and
	# renamed=) or first_dir=, and rule= (FILE:LINE). The helpers it calls,
	# m KIND GLOB (a condition) and rule WHERE NAME DIR, only with rules.
	[ -z "$rules_sh" ] || text="$text$rules_helpers"
	text="${text}rules() {
${rules_sh}	return 1
}"
	eval "$text"
	q "$warned"
	c_new=$q
	# The cache: only the agent writes it (fwloadctl reads with dry set).
	# Simple commands only: a failed redirection of a compound command
	# would end the shell (no /dev/null in early boot).
	# shellcheck disable=SC2174 # -m for the run directory itself
	if [ -z "$dry" ] && { [ -d "$rundir" ] || mkdir -p -m 700 "$rundir" 2>/dev/null; } &&
		printf '%s\n' "# Made by firmware.agent from fwload.conf and the rules file: made again when older." \
			"c_warned=$c_new" \
			"[ \"\$cache_fmt\" = $cache_fmt ] && [ \"\$conf\" = $qconf ] && $conf_state && $rules_state || return 1" \
			"$text" 2>/dev/null >"$cache.$$"; then
		mv -f "$cache.$$" "$cache" 2>/dev/null || rm -f "$cache.$$"
	fi
	# Each bad line once: not again when the last cache said the same.
	[ -n "$dry" ] || [ "$warned" != "${c_warned-}" ] || return 0
	while [ -n "$warned" ]; do
		if [ -n "$dry" ]; then
			printf 'fwload: %s\n' "${warned%%
*}" >&2
		else
			"$fwload" -l "$log" -L "${warned%%
*}"
		fi
		warned=${warned#*
}
	done
}

# The helpers of rules(), as text for the cache.
# shellcheck disable=SC2016 # code for the cache
rules_helpers='m() {
	case $1 in
	firmware) v=$FIRMWARE ;;
	devpath) v=$DEVPATH ;;
	model) v=$dt_model ;;
	*) v=$dt_compatible ;;
	esac
	_ifs=$IFS
	IFS="
"
	set -f
	hit=""
	for w in $v; do
		case $w in $2) hit=1 ;; esac
	done
	set +f
	IFS=$_ifs
	[ -n "$hit" ]
}
rule() {
	rule=$1 first_dir=$3
	[ -z "$2" ] || name=$2 renamed=" (for $FIRMWARE)"
}
'

# find_unpacker: for $f, NAME$sfx, a decompressor from PATH as an absolute
# path (fwload runs COMMAND as is) in $unpack and its options in
# $unpack_args, or $why says there is none. Not "command -v": busybox sh
# names its applets there, runnable or not. (IFS is ':' here.)
find_unpacker() {
	case $sfx in
	.zst) progs=zstd=-dcq want=zstd ;;
	.xz) progs=xz=-dc:unxz=-c:xzcat= want="xz, unxz or xzcat" ;;
	*) return ;;
	esac
	for p in $progs; do
		for d in $PATH; do
			if [ -z "$unpack" ] && [ -n "$d" ] && [ -f "$d/${p%=*}" ] && [ -x "$d/${p%=*}" ]; then
				unpack=$d/${p%=*} unpack_args=${p#*=}
			fi
		done
	done
	[ -n "$unpack" ] || why="no $want to decompress it"
}

# dry_run_end: the rest of "firmware.agent --dry-run" (fwloadctl explain),
# once the image is found: where its links lead, whether that is inside a
# searched directory (fwload's -r check, the roots in "$@"), the decision.
dry_run_end() {
	real=$(readlink -f "$found")
	[ "$real" = "$found" ] || step "links:    $found resolves to $real"
	inside=''
	while [ $# -gt 0 ]; do
		r=$(readlink -f "$2") && case $real in "$r"/*) inside=$r ;; esac
		shift 2
	done
	[ -n "$inside" ] || cancel "refuse: $real is outside the searched directories" 2
	step "decision: load $found, $(wc -c <"$found" | tr -d ' ') bytes${unpack:+ before decompression}${w:+; $w}"
	case $fw_root$rule/:$kernel_dirs: in
	/*:"$found_dir":*) step "note:     the kernel's own loader reads $found_dir too: it loads this file itself (a compressed one if built with CONFIG_FW_LOADER_COMPRESS), and no helper runs" ;;
	esac
	exit 0
}

# conf_read: fwload.conf, KEY=VALUE lines (no quotes, no expansion).
conf_read() {
	each_line "$conf"
	for line in $lines; do
		IFS=$_ifs
		where=$conf:${line%%:*}
		line=${line#*:}
		line=${line#"${line%%[! 	]*}"}  # leading blanks
		line=${line%[[:cntrl:]]}        # a CR (a file from Windows)
		v=${line#*=}
		case $line in
		'' | '#'*) ;;
		FIRMWARE_ROOT=*) absolute fw_root ;;
		MISSING_DIR=*) absolute missing_dir ;;
		FIRMWARE_PATH=*) fw_path=$v ;;
		RULES=*) rules_file=$v ;;
		MANIFEST=*) manifest=$v ;;
		UNLISTED=*) one_of unlisted "load refuse" "load or refuse" ;;
		COMPRESSED=*) one_of compressed "yes no" "yes or no" ;;
		FORCE_FALLBACK=*) one_of force_fallback "yes no" "yes or no" ;;
		SOURCE=*) one_of source "auto helper hotplugd" "auto, helper or hotplugd" ;;
		LOG=*)
			case $v in
			kmsg | syslog | none | /*) log=$v ;;
			*) bad "LOG wants kmsg, syslog, none or /FILE; ignored" ;;
			esac
			;;
		TIMEOUT=*)
			case $v in
			'' | *[!0-9]*) bad "TIMEOUT wants whole seconds; ignored" ;;
			*) timeout=$v ;;
			esac
			;;
		DEADLINE=*)
			case $v in
			'' | *[!0-9]* | 0 | 00*) bad "DEADLINE wants whole seconds, more than 0; ignored" ;;
			*) deadline=$v ;;
			esac
			;;
		MAX_SIZE=*)
			case ${v%[KMG]} in
			'' | *[!0-9]*) bad "MAX_SIZE wants bytes, with K, M or G; ignored" ;;
			*) max_size=$v ;;
			esac
			;;
		MISSING_LIST=*) bad "MISSING_LIST is now MISSING_DIR=/DIR (one file per name); ignored" ;;
		*=*) bad "unknown setting ${line%%=*}; ignored" ;;
		*) bad "not KEY=VALUE; ignored" ;;
		esac
	done
	set +f
	IFS=$_ifs
}

# each_line FILE: $lines, FILE's lines as "N:LINE" (grep -n: one program,
# where the shell would read one byte per system call), IFS a newline and
# globbing off for "for line in $lines" (the body restores IFS from $_ifs).
each_line() {
	lines=$(LC_ALL=C grep -n '' "$1")
	_ifs=$IFS
	IFS='
'
	set -f
}

# absolute VAR: VAR=$v if $v is empty or an absolute path.
absolute() {
	case $v in
	'' | /*) eval "$1=\$v" ;;
	*) bad "${line%%=*} wants an absolute path; ignored" ;;
	esac
}

# one_of VAR "WORD..." TEXT: VAR=$v if $v is one of the words.
one_of() {
	for w in $2; do
		if [ "$v" = "$w" ]; then
			eval "$1=\$v"
			return
		fi
	done
	bad "${line%%=*} wants $3; ignored"
}

# rules_read: each usable rule becomes one line of rules(), which the
# agent calls with FIRMWARE and DEVPATH set: its conditions as "m KIND
# GLOB" tests, then "rule FILE:LINE NAME DIR" (both defined in the cache).
rules_read() {
	each_line "$rules_file"
	for line in $lines; do
		IFS=$_ifs
		where=$rules_file:${line%%:*}
		line=${line#*:}
		line=${line%[[:cntrl:]]}  # a CR (a file from Windows)
		# shellcheck disable=SC2086 # words, split on blanks
		set -- $line
		case ${1-#} in '#'*) continue ;; esac
		r_if='' r_name='' r_dir='' why=''
		for w in "$@"; do
			v=${w#*=}
			case $w in
			firmware=?* | devpath=?* | model=?* | compatible=?*)
				q "$v"
				r_if="${r_if}m ${w%%=*} $q && "
				;;
			name=?*)
				check_name "$v"
				[ -z "$why" ] || why="name=$v: $why"
				r_name=$v
				;;
			dir=/*) r_dir=$v ;;
			*) why="'$w' is not firmware=, devpath=, model=, compatible= GLOB or name=NAME, dir=/DIR" ;;
			esac
			[ -z "$why" ] || break
		done
		[ -n "$why$r_name$r_dir" ] || why="no name= or dir="
		if [ -n "$why" ]; then
			bad "$why; rule ignored"
			continue
		fi
		q "$where"
		r_then="rule $q"
		q "$r_name"
		r_then="$r_then $q"
		q "$r_dir"
		rules_sh="$rules_sh	$r_if$r_then $q && return
"
	done
	set +f
	IFS=$_ifs
}

# find_sum: set $sum to the SHA-256 that $manifest lists for $name, or
# $sum_why to why there is none. Lines as sha256sum writes them: "HEX  NAME"
# (text mode) or "HEX *NAME" (binary mode), NAME maybe "./NAME"; a line
# starting with '\' has "\\" for each backslash in NAME. grep picks the
# candidate lines: one program, not the shell's byte-at-a-time read of a
# list of thousands of files.
find_sum() {
	sum='' sum_why='' lines=''
	bs="\\"
	esc=$name
	case $name in *"$bs"*) esc=$(printf '%s\n' "$name" | sed 's/\\/\\\\/g') ;; esac
	if [ -f "$manifest" ] && [ -r "$manifest" ]; then
		lines=$(LC_ALL=C grep -F -e "  $name" -e " *$name" -e "  ./$name" -e " *./$name" \
			-e "  $esc" -e " *$esc" -e "  ./$esc" -e " *./$esc" -- "$manifest")
		[ $? -le 1 ] || sum_why="cannot read the manifest $manifest" lines=''
	else
		sum_why="cannot read the manifest $manifest"
	fi
	_ifs=$IFS
	IFS='
'
	set -f
	for line in $lines; do
		line=${line%[[:cntrl:]]}  # a CR (a file from Windows)
		f=${line#"$bs"}
		s=${f%% *}
		f=${f#"$s"}
		case $f in '  '?* | ' *'?*) f=${f#??} ;; *) continue ;; esac
		[ "$line" = "${line#"$bs"}" ] || f=$(printf '%s\n' "$f" | sed 's/\\\\/\\/g')
		[ "${f#./}" = "$name" ] || continue
		case $s in
		*[!0-9a-fA-F]*) sum_why="listed in $manifest without a valid SHA-256" ;;
		????????????????????????????????????????????????????????????????) sum=$s ;;
		*) sum_why="listed in $manifest without a valid SHA-256" ;;
		esac
		break
	done
	set +f
	IFS=$_ifs
}
