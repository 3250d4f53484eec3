# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# shellcheck disable=SC2034,SC2154 # the settings are for the caller, which sets conf etc.
# fwload-lib.sh - sourced, never run: the parts of firmware.agent that not
# every event needs, kept out of the script every event parses.
#
# conf_build reads fwload.conf and the rules file and turns them into shell
# (validated assignments, the rules as one function), and writes the
# configuration cache ($FWLOAD_RUNDIR/conf.cache) the agent sources. The
# cache's first line is fwload-stamp's stamp (the identity of each input,
# taken before it is read), its last line "fwload_cache_end=1"; c_stamp
# holds the stamp again as a value: after a hold the agent asks
# fwload-stamp -K STAMP whether what it read is still fresh before it acts
# on a decision made from the cache. fwloadctl sources this file to read
# the same settings.
# find_sum looks the image up in the SHA-256 manifest (MANIFEST= only);
# with SIGNED=yes in the bytes fwload-verify vouched for (conf_signed).
#
# The caller sets: conf (fwload.conf), fwload, procfs, sysfs, nl (a
# newline), dry (non-empty: report on stderr only, write no cache),
# with_rules (non-empty: the rules file too; it needs the agent's
# check_name), and for the cache rundir, cache and cache_fmt. conf_build
# sets the settings, defines rules(), writes the cache when it can, sets
# conf_broken when an input exists but cannot be read (then no request may
# be loaded), and reports each bad line once (through fwload-log).

# q VALUE: set $q to VALUE as shell text on one line: single-quoted, each
# newline written as '"$nl"' (the reader defines nl). A cache cut at a line
# boundary then never holds half a value.
q() {
	q=
	_r=$1
	while :; do
		case $_r in *\'*) ;; *) break ;; esac
		q=$q${_r%%\'*}\'\\\'\'
		_r=${_r#*\'}
	done
	q=$q$_r
	_r=$q q=
	while :; do
		case $_r in *"$nl"*) ;; *) break ;; esac
		q=$q${_r%%"$nl"*}\'\"\$nl\"\'
		_r=${_r#*"$nl"}
	done
	q="'$q$_r'"
}

# bad TEXT: one warning about the line being read.
bad() {
	warned="$warned$where: $1$nl"
}

conf_build() {
	fw_root='' fw_path='' log=kmsg compressed=no rules_file=${conf%/*}/fwload.rules
	manifest='' unlisted=load unlisted_set='' missing_dir='' max_size='' deadline=''
	signed=no keys=${conf%/*}/fwload/keys
	timeout='' force_fallback=yes source=auto hold=0
	warned='' conf_broken='' keep=1 stamp='' tmp='' unsafe=''
	rules_default=$rules_file
	dt=$sysfs/firmware/devicetree/base
	# The cache is for the agent only (fwloadctl reads with dry set). Its
	# temporary file first: its time is "now" for the check below. Simple
	# commands only: a failed redirection of a compound command would end
	# the shell (no /dev/null in early boot).
	# shellcheck disable=SC2174 # -m for the run directory itself
	if [ -z "$dry" ] && [ -n "${with_rules-}" ] && rundir_ours &&
		{ [ -d "$rundir" ] || mkdir -p -m 700 "$rundir" 2>/dev/null; } && tmp_new "$cache.$$"; then
		tmp=$cache.$$
	fi
	conf_files
	conf_signed
	conf_system
	conf_define
	conf_warn
}

# conf_files: fwload.conf, then RULES= elsewhere, the manifest, MISSING_DIR
# and the rules file, each read only when root's alone (inputs, refused):
# each input's identity before it is read, so that an edit from now on shows
# as a change when the cache is next used ("/" too: a cache made before a
# switch_root is never used after it).
conf_files() {
	inputs "$conf" "$rules_file" /
	if refused "$conf" "not read: every request is cancelled until it is"; then
		conf_broken="$conf is $refused_why: not read"
	elif [ -e "$conf" ]; then
		if [ -f "$conf" ] && conf_read; then
			:
		else
			where=$conf bad "cannot read it; every request is cancelled until it can be read"
			conf_broken="cannot read $conf"
		fi
	fi
	# RULES= elsewhere, the manifest and MISSING_DIR (read or written on
	# every event: their identity in the stamp, a change to one a change of
	# the configuration).
	# (A signed manifest: conf_signed.)
	set --
	[ -z "${with_rules-}" ] || [ "$rules_file" = "$rules_default" ] || set -- "$rules_file"
	[ -z "$manifest" ] || [ "$signed" = yes ] || set -- "$@" "$manifest"
	[ -z "$missing_dir" ] || set -- "$@" "$missing_dir"
	[ $# = 0 ] || inputs "$@"
	if [ -n "$manifest" ] && [ "$signed" != yes ] && refused "$manifest" "not read: every request is cancelled until it is"; then
		conf_broken="$manifest is $refused_why: not read"
	fi
	if [ -n "$missing_dir" ] && refused "$missing_dir" "MISSING_DIR refused: no list of missing firmware until it is"; then
		missing_dir=''
	fi
	rules_sh=
	if [ -n "${with_rules-}" ] && [ -n "$rules_file" ]; then
		if [ ! -e "$rules_file" ]; then
			:
		elif refused "$rules_file" "not read: every request is cancelled until it is"; then
			conf_broken="$rules_file is $refused_why: not read"
		elif [ -f "$rules_file" ] && rules_read; then
			:
		else
			where=$rules_file bad "cannot read it; every request is cancelled until it can be read"
			conf_broken="cannot read $rules_file"
		fi
	fi
}

# conf_signed: SIGNED=yes: the manifest counts only as fwload-verify finds
# it, signed by a key of KEYS. Their identities go into the stamp first,
# the key directory's before its keys are listed, with fwload-stamp -N:
# others may write the manifest and its .sig (the signature vouches for
# them: that is the point), and fwload-verify judges the keys. One run
# (-c -v) gives the key ($signed_key, "KEYNUM PATH") and the very bytes
# it verified ($signed_text), or why not ($signed_why, fwload-verify's
# line: no cache on a system error). The manifest file is never read again
# for a decision: find_sum reads $signed_text in this process, and an
# event from the cache the copy cache_write made of those bytes
# ($signed_copy: root's, in the run directory of root's alone where the
# cache is, so that what was verified is what is read, whoever writes the
# manifest's partition meanwhile). Without a cache every event verifies
# again.
conf_signed() {
	unset signed_text
	signed_copy='' signed_key='' signed_why=''
	# What the owner did not sign does not load: an image the manifest does
	# not list is refused, whatever UNLISTED says.
	if [ "$signed" = yes ] && [ "$unlisted" = load ]; then
		unlisted=refuse
		[ -z "$unlisted_set" ] ||
			where=$conf bad "UNLISTED=load ignored: with SIGNED=yes an image the signed manifest does not list is refused"
	fi
	{ [ "$signed" = yes ] && [ -n "$manifest" ] && [ -x "$libexec/fwload-verify" ]; } || return 0
	inputs -N "$manifest" "$manifest.sig" "$keys"
	set -- "$keys"/*.pub
	{ [ ! -e "$1" ] && [ ! -L "$1" ]; } || inputs -N "$@"
	_v=$("$libexec/fwload-verify" -v -k "$keys" -c "$manifest" 2>&1)
	case $? in
	0)
		signed_key=${_v%%"$nl"*} signed_text=''
		case $_v in *"$nl"*) signed_text=${_v#*"$nl"} ;; esac
		[ -z "$tmp" ] || signed_copy=$rundir/signed.$$
		;;
	1 | 2 | 3 | 4) signed_why="SIGNED=yes: the manifest is not vouched for: ${_v#fwload-verify: }; every image refused" ;;
	*)
		signed_why="SIGNED=yes: the manifest could not be checked: ${_v#fwload-verify: }; every image refused"
		keep=''
		;;
	esac
}

# conf_system: the kernel release (for the search order: a run directory
# is emptied at boot) and, when a rule asks for it, the device tree of the
# sysfs the agent found.
conf_system() {
	if [ -r "$procfs/sys/kernel/osrelease" ]; then
		IFS= read -r release <"$procfs/sys/kernel/osrelease"
	else
		release=$(uname -r)
	fi
	# The device tree's directory's identity is in the stamp (absent: "-",
	# so its appearing is a change); one there but still empty is never
	# cached.
	dt_model='' dt_compatible=''
	case $rules_sh in
	*"m model "* | *"m compatible "*)
		inputs "$dt"
		[ ! -r "$dt/model" ] || dt_model=$(tr -d '\0' <"$dt/model")
		[ ! -r "$dt/compatible" ] || dt_compatible=$(tr '\0' '\n' <"$dt/compatible")
		[ ! -d "$dt" ] || [ -n "$dt_model$dt_compatible" ] || keep=''
		;;
	esac
}

# conf_define: the settings and rules() defined here, as the cache's text
# (cache_write writes it).
conf_define() {
	conf_file=$conf cache_sysfs=$sysfs text=
	for v in conf_file cache_sysfs release dt_model dt_compatible fw_root fw_path log compressed rules_file manifest unlisted missing_dir max_size deadline \
		timeout force_fallback source hold conf_broken signed keys signed_copy signed_key signed_why; do
		eval "q \"\$$v\""
		text="$text$v=$q$nl"
	done
	# rules(): the first rule whose conditions all hold sets name= (and
	# renamed=) or first_dir=, and rule= (FILE:LINE). The helpers it calls,
	# m KIND GLOB (a condition) and rule WHERE NAME DIR, only with rules.
	# Every definition on one line.
	[ -z "$rules_sh" ] || text="$text$rules_helpers"
	[ -z "$missing_dir" ] || text="$text$missing_helpers"
	text="${text}rules() { ${rules_sh}return 1; }"
	eval "$text"
	cache_write
}

# conf_warn: each bad line once, through fwload-log (--dry-run: on
# stderr); not again when the last cache said the same.
conf_warn() {
	[ -n "$dry" ] || [ "$warned" != "${c_warned-}" ] || return 0
	while [ -n "$warned" ]; do
		if [ -n "$dry" ]; then
			printf 'fwload: %s\n' "${warned%%"$nl"*}" >&2
		else
			"$libexec/fwload-log" -l "$log" "${warned%%"$nl"*}"
		fi
		warned=${warned#*"$nl"}
	done
}

# refused PATH WHAT: PATH is an input that inputs found not root's alone:
# its warning, WHAT what comes of it, and $refused_why for a log line.
refused() {
	case $nl$unsafe in *"): $1$nl"*) ;; *) return 1 ;; esac
	refused_why=$nl$unsafe
	refused_why=${refused_why%%"): $1$nl"*}
	refused_why=${refused_why##*"$nl"fwload-stamp: }")"
	where=$1 bad "$refused_why; $2"
}

# rundir_ours: the run directory may hold what the agent writes (the
# cache, hold records): fwload-stamp -K's verdict on the cache's directory,
# asked once an event ($cache_st; 4: a symbolic link, another user's, or
# others can write it: then nothing is written there, and a warning says
# so).
rundir_ours() {
	[ -n "${cache_st-}" ] || {
		"$libexec/fwload-stamp" -K "$cache"
		cache_st=$?
	}
	[ "$cache_st" = 4 ] || return 0
	where=$rundir bad "not root's alone (a symbolic link, another user's, or others can write it): no configuration cache, nothing held, until it is"
	return 1
}

# tmp_new FILE: FILE made empty, and only if it did not exist (noclobber:
# never through a link planted there).
tmp_new() {
	set -C
	printf '' 2>/dev/null >"$1"
	_st=$?
	set +C
	return "$_st"
}

# inputs PATH...: the configuration's inputs, before they are read. Each
# regular file or directory among them is believed only when root's alone:
# fwload-stamp says which is not (4, one line each, kept in $unsafe, for
# refused). When a cache is being made, their identities go into $stamp. The reference (-R) is $tmp, the temporary file made before any
# input is read: fwload-stamp exits 7 when a file changed too recently to be
# trusted unchanged (no cache then: $keep empty, and the next event reads
# the files again). With nanosecond times a file changed before $tmp was
# made is cached: an initramfs's files, unpacked a moment before the first
# events, are cached from the first event on. No cache either when fwload-stamp
# cannot say.
inputs() {
	if [ -n "$tmp" ] && [ -n "$keep" ]; then
		_s=$("$libexec/fwload-stamp" -R "$tmp" "$@" 2>&1)
	else
		_s=$("$libexec/fwload-stamp" "$@" 2>&1)
	fi
	case $? in
	0) ;;
	4)
		# "fwload-stamp: not root's alone (owner U, mode M): PATH" lines, then the stamp
		unsafe=$unsafe${_s%"$nl"*}$nl
		_s=${_s##*"$nl"}
		;;
	*) keep='' ;;
	esac
	[ -z "$tmp" ] || [ -z "$keep" ] || stamp=${stamp:-"# fwload-cache 1"}${_s#"# fwload-cache 1"}
}

# cache_write: the cache, from $stamp and $text, when every input was
# read whole and none is too new; renamed into place complete, after the
# copy of a signed manifest it names (then the copies of older caches go).
# Otherwise the old cache goes too (it cannot be fresh): the next event
# reads the files.
cache_write() {
	[ -n "$tmp" ] || return 0
	q "$stamp"
	_qs=$q
	q "$warned"
	if [ -n "$keep" ] && [ -n "$stamp" ] && [ -z "$conf_broken" ] && signed_save &&
		printf '%s\n' "$stamp" \
			"# Made by firmware.agent from fwload.conf and the rules file; fwload-stamp checks the line above." \
			"c_fmt=$cache_fmt" "c_stamp=$_qs" "c_warned=$q" "$text" "fwload_cache_end=1" 2>/dev/null >"$tmp" &&
		mv -f "$tmp" "$cache" 2>/dev/null; then
		for _f in "$rundir"/signed.*; do
			[ "$_f" = "$signed_copy" ] || rm -f "$_f" 2>/dev/null
		done
		return 0
	fi
	rm -f "$tmp" "$cache" ${signed_copy:+"$signed_copy"} 2>/dev/null
}

# signed_save: the copy of the verified manifest, $signed_copy, when there
# is one to make: a new file (noclobber), the bytes of $signed_text.
signed_save() {
	[ -z "$signed_copy" ] || { tmp_new "$signed_copy" && printf '%s\n' "$signed_text" 2>/dev/null >"$signed_copy"; }
}

# signed_refused: with SIGNED=yes, true when no image may be checked
# against the manifest: $refuse_note says why (the request's one line),
# $refuse_st the status (2 refused, 111 a part not installed). False when
# the manifest is vouched for ($signed_key).
signed_refused() {
	refuse_st=2
	if [ -z "$manifest" ]; then
		refuse_note="SIGNED=yes, but no MANIFEST= to vouch for: every image refused"
	elif [ ! -x "$libexec/fwload-verify" ]; then
		refuse_note="SIGNED=yes needs $libexec/fwload-verify, not installed (the VERIFY part of fwload): every image refused"
		refuse_st=111
	elif [ -n "$signed_why" ]; then
		refuse_note=$signed_why
	else
		return 1
	fi
}

# sha256_missing: true when a digest is to be checked and fwload-sha256
# (the MANIFEST part) is not installed: $refuse_note the words of every such
# refusal (a request's, an upload's), $refuse_st 111. Nothing is then
# loaded or written unchecked.
sha256_missing() {
	[ ! -x "$sha256" ] || return 1
	refuse_note="a digest to check needs $sha256, not installed (the MANIFEST part of fwload)"
	refuse_st=111
}

# The helpers of rules(), as text for the cache, one line each.
# shellcheck disable=SC2016 # code for the cache
rules_helpers='m() { case $1 in firmware) v=$FIRMWARE ;; devpath) v=$DEVPATH ;; model) v=$dt_model ;; *) v=$dt_compatible ;; esac; _ifs=$IFS; IFS=$nl; set -f; hit=; for _w in $v; do case $_w in $2) hit=1 ;; esac; done; set +f; IFS=$_ifs; [ -n "$hit" ]; }
rule() { rule=$1 first_dir=$3 act=${4-} act_user=${5-} rule_hold=${6-}; [ -z "$2" ] || name=$2 renamed=" (for $FIRMWARE)"; }
'

# missing_key NAME: $miss_key, NAME's file in MISSING_DIR: each '/' written
# as '!' (one file per name, no subdirectories). The agent needs it after a
# load too, where it reads no fwload-lib.sh: so it is text for the cache,
# as the rules' helpers are, defined by conf_build when MISSING_DIR is set.
# missing_name KEY is the way back, for people (fwloadctl status).
# shellcheck disable=SC2016 # code for the cache
missing_helpers='missing_key() { miss_key=$1; while :; do case $miss_key in */*) miss_key=${miss_key%%/*}!${miss_key#*/} ;; *) return 0 ;; esac; done; }
'
missing_name() {
	miss_name=$1
	while :; do
		case $miss_name in
		*!*) miss_name=${miss_name%%!*}/${miss_name#*!} ;;
		*) return 0 ;;
		esac
	done
}

# no_unpacker: COMPRESSED=yes, and a line for each suffix that has no
# decompressor in PATH here (its files are skipped, each with a note).
no_unpacker() {
	_o=$IFS
	IFS=:
	for _sfx in .zst .xz; do
		unpack=''
		find_unpacker "$_sfx"
		[ -z "$unpack_why" ] || bad "COMPRESSED=yes, but no $want in PATH ($PATH): NAME$_sfx files are skipped"
	done
	IFS=$_o unpack=''
}

# find_unpacker SUFFIX: for a file NAME.SUFFIX (.zst, .xz), a decompressor
# from PATH as an absolute path (fwload runs COMMAND as is) in $unpack and
# its options in $unpack_args, or $unpack_why says there is none. Not
# "command -v": busybox sh names its applets there, runnable or not. (IFS
# is ':' here.)
find_unpacker() {
	unpack_why=''
	case $1 in
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
	[ -n "$unpack" ] || unpack_why="no $want to decompress it"
}

# dry_steps: the reporters of "firmware.agent --dry-run" (fwloadctl
# explain), which the agent's steps call as they decide (without --dry-run
# the agent's own, empty):
#   step LABEL TEXT   one line: "LABEL:" in a column of ten, then TEXT
#   step_absent FILE  the search's line for a FILE that is no regular file:
#                     what is there instead (a directory, a dangling link;
#                     added to $skipped), or "absent"
#   step_no_rule      that no rule applies, when there is a rules file
# explain may run where there is no sysfs: no kernel path to read then
# (find_image reads para_file, else the request's sysfs's).
# shellcheck disable=SC2317 # the reporters are called by the agent
dry_steps() {
	step() {
		printf '%-9s %s\n' "$1:" "$2"
	}
	step_absent() {
		why=''
		if [ -e "$1" ]; then
			why="not a regular file"
			[ ! -d "$1" ] || why="a directory"
		elif [ -L "$1" ]; then
			why="dangling symlink"
		fi
		[ -z "$why" ] || skipped="$skipped; skipped $1 ($why)"
		step search "$1: ${why:-absent}${why:+, skipped}"
	}
	step_no_rule() {
		[ ! -e "$rules_file" ] || step rule "none of $rules_file applies"
	}
	[ -e "$sysfs/module/firmware_class/parameters/path" ] || para_file=/dev/null
}

# dry_run_end -r ROOT...: the rest of "firmware.agent --dry-run" (fwloadctl
# explain), once the image is found: where it leads and whether fwload
# would open it, asked of fwload itself (-O FILE, with the -r roots and
# MAX_SIZE the load would get: inside the roots, a regular file, not empty,
# within the size), then the decision. In: the agent's $act, $found,
# $found_dir, $unpack, $note, $para, $kernel_dirs, $renamed. Exits.
dry_run_end() {
	if [ -n "$act" ]; then
		step decision "load the program's output, committed only if it exits 0${note:+; $note}"
		exit 0
	fi
	if ! real=$("$fwload" ${max_size:+-S "$max_size"} "$@" -O "$found" 2>&1); then
		real=${real#fwload: }
		cancel "refuse: ${real#"$found: "}" 2
		exit 2
	fi
	[ "$real" = "$found" ] || step links "$found resolves to $real"
	step decision "load $found, $(wc -c <"$found" | tr -d ' ') bytes${unpack:+ before decompression}${note:+; $note}"
	# The kernel's own loader looks in its own list (firmware_class.path
	# and the four under /lib/firmware, never under FIRMWARE_ROOT) for the
	# name the driver asked for (never a rule's rename).
	[ -n "$fw_root$renamed" ] || case :$para:$kernel_dirs: in
	*:"$found_dir":*) step note "the kernel's own loader reads $found_dir too: it loads this file itself (a compressed one if built with CONFIG_FW_LOADER_COMPRESS), and no helper runs" ;;
	esac
	exit 0
}

# conf_read: fwload.conf, KEY=VALUE lines (no quotes, no expansion).
# Blanks at the ends of a value and a comment after a blank are not part of
# it; quotes around a value and blanks around '=' are taken off, with a
# warning. Fails only when the file cannot be read.
conf_read() {
	each_line "$conf" || return 1
	for line in $lines; do
		IFS=$_ifs
		where=$conf:${line%%:*}
		line=${line#*:}
		line=${line#"${line%%[! 	]*}"}  # leading blanks
		line=${line%[[:cntrl:]]}        # a CR (a file from Windows)
		case $line in
		'' | '#'*) continue ;;
		*=*) ;;
		*)
			bad "not KEY=VALUE; ignored"
			continue
			;;
		esac
		k=${line%%=*} v=${line#*=} how=''
		case $k in
		*[' 	'])
			k=${k%"${k##*[! 	]}"}
			v=${v#"${v%%[! 	]*}"}
			how="blanks around '='"
			;;
		esac
		case $v in *[' 	']'#'*) v=${v%%[' 	']#*} ;; esac  # a comment
		v=${v%"${v##*[! 	]}"}                          # trailing blanks
		case $v in
		\"*\" | \'*\')
			[ ${#v} -lt 2 ] || {
				v=${v#?} v=${v%?}
				how="quotes${how:+ and $how}"
			}
			;;
		esac
		[ -z "$how" ] || bad "read as $k=$v ($how taken off: not part of this file's syntax)"
		conf_set
	done
	set +f
	IFS=$_ifs
}

# conf_set: the setting $k=$v, validated (bad says why a value is not
# taken).
conf_set() {
	case $k in
	FIRMWARE_ROOT) absolute fw_root ;;
	MISSING_DIR) absolute missing_dir ;;
	FIRMWARE_PATH) absolute_dirs ;;
	RULES | MANIFEST | KEYS)
		# never relative: the working directory is whatever the
		# caller's (fwloadctl run from any directory)
		case $k:$v in
		RULES:/*) rules_file=$v ;;
		MANIFEST:/*) manifest=$v ;;
		KEYS:/*) keys=$v ;;
		*)
			bad "$k wants an absolute path, not '$v'; every request is cancelled until it is one"
			conf_broken="$k=$v is not an absolute path"
			;;
		esac
		;;
	UNLISTED)
		unlisted_set=1
		one_of unlisted "load refuse" ||
			{ unlisted=refuse && bad "UNLISTED wants load or refuse, not '$v'; refuse used"; }
		;;
	SIGNED)
		one_of signed "yes no" ||
			{ signed=yes && bad "SIGNED wants yes or no, not '$v'; yes used"; }
		;;
	COMPRESSED)
		one_of compressed "yes no" || bad "COMPRESSED wants yes or no; ignored"
		[ "$compressed" = no ] || no_unpacker
		;;
	FORCE_FALLBACK) one_of force_fallback "yes no" || bad "FORCE_FALLBACK wants yes or no; ignored" ;;
	SOURCE) one_of source "auto helper hotplugd" || bad "SOURCE wants auto, helper or hotplugd; ignored" ;;
	LOG)
		case $v in
		kmsg | syslog | none | /*) log=$v ;;
		*) bad "LOG wants kmsg, syslog, none or /FILE; ignored" ;;
		esac
		;;
	TIMEOUT)
		case $v in
		'' | *[!0-9]*) bad "TIMEOUT wants whole seconds; ignored" ;;
		*) timeout=$v ;;
		esac
		;;
	HOLD)
		if hold_seconds "$v"; then
			hold=$secs
		else
			bad "HOLD wants whole seconds, 0 to 86400, not '$v'; 0 used (a name not found is cancelled at once)"
		fi
		;;
	DEADLINE)
		if fwload_takes -T "$v"; then
			deadline=$v
		else
			bad "DEADLINE wants whole seconds, 1 to 86400, not '$v'; the default (300) used"
		fi
		;;
	MAX_SIZE)
		if fwload_takes -S "$v"; then
			max_size=$v
		else
			bad "MAX_SIZE wants bytes, 1 to 2047M (K, M or G after the number), not '$v'; the default (256M) used"
		fi
		;;
	MISSING_LIST) bad "MISSING_LIST is now MISSING_DIR=/DIR (one file per name); ignored" ;;
	*) bad "unknown setting $k; ignored" ;;
	esac
}

# fwload_takes OPTION VALUE: fwload accepts VALUE for OPTION (-S, -T: its
# ranges, decided there alone, so that fwload is never given a value it
# refuses): anything but 100 (usage) from "fwload OPTION VALUE -O /", which
# only asks whether / would be opened as an image (2: no). Asked only for a
# setting that is there, when the files are read: never at an event served
# from the cache. (No /dev/null: early boot may lack it.)
fwload_takes() {
	_out=$("$fwload" "$1" "$2" -O / 2>&1)
	[ $? != 100 ]
}

# hold_seconds VALUE: $secs, VALUE as whole seconds from 0 to 86400 (a hold
# lasts no longer than a day; 0 only as "0"), leading zeros taken off;
# fails otherwise.
# HOLD= and a rule's hold=.
hold_seconds() {
	case $1 in '' | *[!0-9]*) return 1 ;; esac
	secs=$1
	while :; do
		case $secs in 0?*) secs=${secs#0} ;; *) break ;; esac
	done
	[ ${#secs} -le 5 ] && [ "$secs" -le 86400 ] && { [ "$secs" != 0 ] || [ "$1" = 0 ]; }
}

# each_line FILE: $lines, FILE's lines as "N:LINE" (grep -n: one program,
# where the shell would read one byte per system call), IFS a newline and
# globbing off for "for line in $lines" (the body restores IFS from $_ifs).
# Without a grep that works (early boot), the shell reads it, and says so.
# Fails when FILE cannot be read.
each_line() {
	lines=$(LC_ALL=C grep -n '' "$1" 2>/dev/null)
	_st=$?
	if [ "$_st" -gt 1 ]; then
		where=$1 bad "grep did not run (status $_st): read by the shell"
		lines='' _n=0
		while IFS= read -r _l || [ -n "$_l" ]; do
			_n=$((_n + 1))
			lines="$lines$_n:$_l$nl"
		done <"$1" || return 1
	fi
	_ifs=$IFS
	IFS=$nl
	set -f
}

# absolute VAR: VAR=$v if $v is empty or an absolute path.
absolute() {
	case $v in
	'' | /*) eval "$1=\$v" ;;
	*) bad "$k wants an absolute path; ignored" ;;
	esac
}

# absolute_dirs: fw_path, $v (directories, ':' between) less each one
# that is not an absolute path, left out with a warning (conf_read's loop:
# globbing off, IFS back to $_ifs after).
absolute_dirs() {
	fw_path=$v
	IFS=:
	for _d in $v; do
		case $_d in
		'' | /*) ;;
		*)
			bad "FIRMWARE_PATH: '$_d' is not an absolute path; left out"
			fw_path=:$fw_path:
			while :; do
				case $fw_path in *":$_d:"*) fw_path=${fw_path%%":$_d:"*}:${fw_path#*":$_d:"} ;; *) break ;; esac
			done
			fw_path=${fw_path#:} fw_path=${fw_path%:}
			;;
		esac
	done
	IFS=$_ifs
}

# one_of VAR "WORD...": VAR=$v if $v is one of the words; else fails.
one_of() {
	for _w in $2; do
		if [ "$v" = "$_w" ]; then
			eval "$1=\$v"
			return 0
		fi
	done
	return 1
}

# rules_read: each usable rule becomes a part of rules(), which the agent
# calls with FIRMWARE and DEVPATH set: its conditions as "m KIND GLOB"
# tests, then "rule FILE:LINE NAME DIR ACT USER" (both defined in the
# cache). ACT is the rule's action as shell text, its words quoted by q():
# "extract SOURCE OFFSET SIZE [--OPTION [VALUE]]..." (fwload-extract's
# arguments; an option word of the rule, NAME or NAME=VALUE, becomes
# --NAME [VALUE], in the rule's order) or "run /PROGRAM"; USER is run='s
# user= name; HOLD (a sixth word, after empty ACT and USER when there are
# none) is hold='s seconds: the agent holds a name of this rule not found
# for that long instead of HOLD= (0: not at all).
rules_read() {
	each_line "$rules_file" || return 1
	for line in $lines; do
		IFS=$_ifs
		where=$rules_file:${line%%:*}
		line=${line#*:}
		line=${line%[[:cntrl:]]}  # a CR (a file from Windows)
		# shellcheck disable=SC2086 # words, split on blanks
		set -- $line
		case ${1-#} in '#'*) continue ;; esac
		r_if='' r_name='' r_dir='' r_act='' r_kind='' r_user='' r_hold='' why=''
		for w in "$@"; do
			rule_word "$w"
			[ -z "$why" ] || break
		done
		[ -n "$why" ] || [ -z "$r_user" ] || [ "$r_kind" = run ] || why="user= goes with run="
		[ -n "$why$r_name$r_dir$r_kind$r_hold" ] || why="no name=, dir=, hold=, extract= or run="
		[ -n "$why" ] || [ -z "$r_kind" ] || [ -z "$r_name$r_dir$r_hold" ] || why="$r_kind= goes with no name=, dir= or hold="
		if [ -n "$why" ]; then
			bad "$why; rule ignored"
			continue
		fi
		rule_emit
	done
	set +f
	IFS=$_ifs
}

# rule_word WORD: one word of a rule line into r_if, r_name, r_dir,
# r_act, r_kind, r_user, r_hold; $why when it cannot be.
rule_word() {
	w=$1
	v=${w#*=}
	case $w in
	firmware=?* | devpath=?* | model=?* | compatible=?*)
		q "$v"
		r_if="${r_if}m ${w%%=*} $q && "
		;;
	name=?*)
		check_name "$v"
		[ -z "$name_why" ] || why="name=$v: $name_why"
		r_name=$v
		;;
	dir=/*) r_dir=$v ;;
	extract=?*,?*,?*)
		[ -z "$r_kind" ] || why="one extract= or run= a rule"
		r_kind=extract r_act=extract
		_src=${v%,*,*} _r=${v#*,}
		[ "$_src,$_r" = "$v" ] || _r=${v#"$_src",}
		for _a in "$_src" "${_r%,*}" "${_r#*,}"; do
			q "$_a"
			r_act="$r_act $q"
		done
		;;
	mac=?* | mac-binary=?* | mac-text=?* | mac-ascii=?* | macaddr-add=?* | patch-mac=?* | \
		ath9k-patch-mac-crc=?* | valid=?* | macaddr-setbit-la | ath9k-patch-mac | ath10k-patch-mac)
		[ "$r_kind" = extract ] || why="${w%%=*} goes after extract="
		r_act="$r_act --${w%%=*}"
		case $w in *=*) q "$v" && r_act="$r_act $q" ;; esac
		;;
	run=/*)
		[ -z "$r_kind" ] || why="one extract= or run= a rule"
		q "$v"
		r_kind=run r_act="run $q"
		;;
	user=?*)
		case $v in
		*[!A-Za-z0-9._-]* | -* | [0-9]*) why="user=$v: not a user name" ;;
		*) r_user=$v ;;
		esac
		;;
	hold=?*)
		if hold_seconds "$v"; then
			r_hold=$secs
		else
			why="hold=$v: whole seconds, 0 to 86400"
		fi
		;;
	*) why="'$w' is not firmware=, devpath=, model=, compatible= GLOB or name=NAME, dir=/DIR, hold=SECONDS, extract=SOURCE,OFFSET,SIZE [OPTION]..., run=/PROGRAM [user=NAME]" ;;
	esac
}

# rule_emit: the rule read (r_*, $where) as a part of rules().
rule_emit() {
	q "$where"
	r_then="rule $q"
	q "$r_name"
	r_then="$r_then $q"
	q "$r_dir"
	r_then="$r_then $q"
	if [ -n "$r_kind$r_hold" ]; then
		q "$r_act"
		r_then="$r_then $q"
		q "$r_user"
		r_then="$r_then $q"
	fi
	[ -z "$r_hold" ] || r_then="$r_then $r_hold"
	rules_sh="$rules_sh$r_if$r_then && return; "
}

# act_prepare: a rule's extract= or run= as fwload's COMMAND: $act_argv
# (shell text, quoted words), $act_note (run=: what runs, for fwload's
# line) and $found "-" (fwload's standard input,
# which the agent points at /dev/null: the program's output is the
# image). run= runs the program under fwload-keep (all it starts ends with
# the load); with user=NAME through fwload-runas too, with NAME's uid and
# gid from /etc/passwd (root's file: read here, no NSS), each digits only
# (the words are eval'ed); a NAME it lacks, or whose fields are not
# numbers, refuses the request (aborted, one line), never runs the program
# as root. fwload-runas refuses root's ids and the overflow ids. Returns
# 0, or the agent's status for a refused request.
act_prepare() {
	found=- found_dir='' skipped='' unpack='' unpack_args='' act_note=''
	eval "set -- $act"
	! part_missing "$@" || return "$part_st"
	case $1 in
	extract)
		shift
		q "$libexec/fwload-extract"
		act_argv=$q
		for _a; do
			q "$_a"
			act_argv="$act_argv $q"
		done
		step action "extract: the image is $libexec/fwload-extract $*"
		;;
	run)
		q "$2"
		act_argv=$q
		if [ -n "$act_user" ]; then
			_pw=${FWLOAD_PASSWD:-/etc/passwd} _ug='' _why="no such user in $_pw"
			[ ! -r "$_pw" ] || while IFS=: read -r _n _ _u _g _; do
				[ "$_n" != "$act_user" ] || { _ug=$_u:$_g && break; }
			done <"$_pw"
			case $_ug in
			'') ;;
			:* | *: | *[!0-9:]* | *:*:*) _why="its uid and gid in $_pw are not numbers" ;;
			*) _why='' ;;
			esac
			if [ -n "$_why" ]; then
				step action "run $2 as user $act_user: $_why"
				cancel "user=$act_user: $_why; rule $rule refused" 2
				return
			fi
			q "$libexec/fwload-runas"
			act_argv="$q $_ug $act_argv"
			step action "run: the image is the output of $2 as user $act_user ($_ug, no supplementary groups)"
		else
			step action "run: the image is the output of $2 (as root)"
		fi
		q "$libexec/fwload-keep"
		act_argv="$q $act_argv"
		act_note="run= $2${act_user:+ as user $act_user} (rule $rule)"
		;;
	esac
	return 0
}

# part_missing extract|run PROGRAM [ARG...]: true when a program this
# action needs is not installed (a build without its part: extract=
# fwload-extract; run= fwload-keep, and user= fwload-runas too): the
# request cancelled ($part_st: cancel's status), the part named; the
# action never runs without it.
part_missing() {
	case $1 in
	extract) set -- extract=:fwload-extract:EXTRACT ;;
	run) set -- run=:fwload-keep:RUN ${act_user:+user=:fwload-runas:RUN} ;;
	esac
	for _p; do
		_w=${_p%%:*} _part=${_p##*:} _p=${_p#*:}
		_p=$libexec/${_p%:*}
		[ ! -x "$_p" ] || continue
		step action "$_w needs $_p, which is not installed"
		cancel "$_w needs $_p, not installed (the $_part part of fwload); rule $rule refused" 111
		part_st=$?
		return 0
	done
	return 1
}

# find_sum: set $sum to the SHA-256 that $manifest lists for $name, or
# $sum_why to why there is none; $sum_bad when the manifest lists the name
# but no usable digest for it (malformed, or two different ones): that
# image is refused whatever UNLISTED says. Lines as sha256sum writes them:
# "HEX  NAME" (text mode) or "HEX *NAME" (binary mode), NAME maybe
# "./NAME"; a line starting with '\' has "\\" for each backslash in NAME.
# grep picks the candidate lines: one program, not the shell's
# byte-at-a-time read of a list of thousands of files. With SIGNED=yes the
# lines are those fwload-verify vouched for (conf_signed): $signed_text
# when this process verified them, else the copy $signed_copy; its
# absence (removed by a newer cache's maker) sets $sum_gone: the decision
# is made again from the files.
find_sum() {
	sum='' sum_why='' sum_bad='' sum_gone='' lines=''
	bs="\\"
	esc=$name
	case $name in *"$bs"*) esc=$(printf '%s\n' "$name" | sed 's/\\/\\\\/g') ;; esac
	_src=$manifest
	[ "$signed" != yes ] || _src=$signed_copy
	if [ "$signed" = yes ] && [ -n "${signed_text+1}" ]; then
		lines=$(printf '%s\n' "$signed_text" | sum_lines -)
		[ $? -le 1 ] || lines=$signed_text
	elif [ -f "$_src" ] && [ -r "$_src" ]; then
		lines=$(sum_lines "$_src")
		_st=$?
		if [ "$_st" -gt 1 ]; then
			# No grep that works (early boot): every line, read by the shell.
			lines=''
			while IFS= read -r _l || [ -n "$_l" ]; do
				lines="$lines$_l$nl"
			done <"$_src" || sum_why="cannot read the manifest $_src"
		fi
	else
		sum_why="cannot read the manifest $_src"
		[ "$signed" != yes ] || sum_gone=1
	fi
	_ifs=$IFS
	IFS=$nl
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
		*[!0-9a-fA-F]*) sum_bad="listed in $manifest without a valid SHA-256" ;;
		????????????????????????????????????????????????????????????????)
			[ -z "$sum" ] || [ "$sum" = "$s" ] || sum_bad="listed in $manifest twice, with different SHA-256s"
			sum=$s
			;;
		*) sum_bad="listed in $manifest without a valid SHA-256" ;;
		esac
	done
	set +f
	IFS=$_ifs
	[ -z "$sum_bad" ] || sum=''
}

# sum_lines FILE: the lines of FILE ("-": standard input) that may list
# $name ($esc): grep's status.
sum_lines() {
	LC_ALL=C grep -F -e "  $name" -e " *$name" -e "  ./$name" -e " *./$name" \
		-e "  $esc" -e " *$esc" -e "  ./$esc" -e " *./$esc" -- "$1" 2>/dev/null
}

# hold_key: $hold_file, the hold record of the request at $DEVPATH:
# $rundir/held/KEY, KEY its identity as fwload-pending -k prints it (the
# device and inode of its kernfs directory, the name of its lock file), so
# that two requests never share a record whatever their names. Returns 1,
# $hold_file empty, when there is no pending request there (gone, or a
# firmware-upload device).
hold_key() {
	hold_file=''
	_k=$("$libexec/fwload-pending" -s "$sysfs" -k "$DEVPATH" 2>/dev/null) || return 1
	case $_k in *[!0-9-]* | -* | *- | *-*-*) ;; *-*) hold_file=$rundir/held/$_k ;; esac
}

# boot_now: $boot_now, whole seconds since boot ($procfs/uptime: the boot
# clock, CLOCK_BOOTTIME, which runs on across switch_root and does not
# move when the wall clock is set), or empty when it cannot be read.
boot_now() {
	boot_now=''
	read -r boot_now _ 2>/dev/null <"$procfs/uptime"
	boot_now=${boot_now%%.*}
	case $boot_now in '' | *[!0-9]*) boot_now='' ;; esac
}

# proc_stat PID: process PID's state ($proc_state), parent ($proc_ppid)
# and start ($proc_start: field 22 of /proc/PID/stat, clock ticks since
# boot; with the pid, the process's identity, as a pid alone can be
# reused). Returns 1, all empty, when there is no such process. The
# scripts' one /proc/PID/stat parse (util.h's proc_stat() is C's). (The
# real /proc: PROCFS moves only the kernel's settings and clock.)
proc_stat() {
	proc_state='' proc_ppid='' proc_start=''
	case $1 in '' | *[!0-9]*) return 1 ;; esac
	read -r _st 2>/dev/null </proc/"$1"/stat || return 1
	set -f
	# shellcheck disable=SC2086 # the fields after "(comm) "
	set -- ${_st##*) }
	set +f
	[ $# -ge 20 ] || return 1
	proc_state=$1 proc_ppid=$2 proc_start=${20}
}

# hold_alive UNTIL PID START: the record's agent runs (PID started at START).
hold_alive() {
	case $1:$2:$3 in *[!0-9:]* | :* | *::* | *:) return 1 ;; esac
	proc_stat "$2" && [ "$proc_start" = "$3" ]
}

# hold_count: $holds, the requests held now: the records in $rundir/held
# whose agent runs, and $holds_dev, those of this request's device (the
# DEVPATHs under ${DEVPATH%/*}). A record whose agent is gone (killed, or
# ended without its hold_done) and whose request is gone too (its DEVPATH
# leads to no request of its key) is nobody's: removed. One whose request
# is still there is kept: the next agent of that request takes its end
# over.
hold_count() {
	holds=0 holds_dev=0
	for _f in "$rundir/held"/*; do
		_u='' _p='' _s='' _dp=''
		read -r _u _p _s _dp 2>/dev/null <"$_f" || continue
		if hold_alive "$_u" "$_p" "$_s"; then
			holds=$((holds + 1))
			[ "${_dp%/*}" != "${DEVPATH%/*}" ] || holds_dev=$((holds_dev + 1))
		elif [ "$("$libexec/fwload-pending" -s "$sysfs" -k "${_dp:-/}" 2>/dev/null)" != "${_f##*/}" ]; then
			rm -f "$_f" 2>/dev/null
		fi
	done
}

# hold_rank: $ahead, the requests held by agents that started before this
# one (their records: start time, then pid), and $ahead_dev, those of them
# of this request's device. hold_count before a hold cannot see the agents
# counting at the same moment: each also counts, once its record is
# written, those ahead of it (and again after 1 s and 4 s, for a record
# written late), and the later agents of a burst past $hold_max (or
# $hold_dev_max) cancel, whatever the order they wrote in.
hold_rank() {
	ahead=0 ahead_dev=0
	# shellcheck disable=SC2086 # "PID START"
	set -- $hold_me
	case ${2-} in '' | *[!0-9]*) return 0 ;; esac
	for _f in "$rundir/held"/*; do
		[ "$_f" != "$hold_file" ] || continue
		_u='' _p='' _s='' _dp=''
		read -r _u _p _s _dp 2>/dev/null <"$_f" || continue
		hold_alive "$_u" "$_p" "$_s" || continue
		if [ "$_s" -lt "$2" ] || { [ "$_s" = "$2" ] && [ "$_p" -lt "$1" ]; }; then
			ahead=$((ahead + 1))
			[ "${_dp%/*}" != "${DEVPATH%/*}" ] || ahead_dev=$((ahead_dev + 1))
		fi
	done
}

# hold_full WHAT: the most requests held at once, $hold_max on the system
# (a device asking for name after name, or one built to, holds at most
# that many agents, each a shell and a sleep) and $hold_dev_max of one
# device (one cannot starve the others), are held already: $hold_why
# says so, WHAT how it begins.
hold_max=64 hold_dev_max=8
hold_full() {
	if [ "$1" -ge "$hold_max" ]; then
		hold_why="$3 $1 requests are held already (at most $hold_max)"
	elif [ "$2" -ge "$hold_dev_max" ]; then
		hold_why="$3 $2 requests of ${DEVPATH%/*} are held already (at most $hold_dev_max a device)"
	else
		return 1
	fi
}

# hold_wait REQUEST FOUND STAMP WHERE: the agent found no image for the
# pending request at REQUEST (its sysfs directory) and HOLD= is set, or it
# holds the request already and FOUND is what its last search found (a
# path, or empty). STAMP is the configuration stamp the decision came from
# (c_stamp; empty when read from the files), WHERE the directories
# searched (for the log line). A held request holds no lock: it is only
# this shell, searching again every quarter second (one sleep process at a
# time), until one of
#   - the image is there, no process has it open for writing, and it is
#     unchanged since the search before (a copy still being written is not
#     loaded half): returns 1, the agent loads it;
#   - HOLD's end (or the kernel's timeout for this request, less 2 s, if
#     that comes first; in whole seconds of the boot clock, so between HOLD
#     and HOLD + 1 s, whatever the wall clock does), settle has run (before
#     the hold began), the boot clock cannot be read, $hold_max requests
#     are held already, or procd is the event source (it answers the
#     request itself once its hooks are done): returns 1 with $hold_why,
#     the agent cancels;
#   - the request is gone (answered by another, a rescan after switch_root),
#     settle has run (its rescan answers it), or another agent took the
#     hold over (its record names another process): returns 5, quietly;
#   - the agent runs for a rescan or for hotplugd (FWLOAD_HOLD_DETACH set):
#     the hold goes on in an agent of its own in the background: returns 8
#     (a held request never keeps a job slot, or a rescan, waiting);
#   - the configuration the decision came from is no longer what is on
#     disk (fwload-stamp -K STAMP; before the hold, then once a second): returns
#     7, the agent reads the files again and
#     decides again (a hold it makes again keeps its end: the record is
#     still its own);
# else returns 0: search again. The record $rundir/held/KEY (hold_key)
# holds "UNTIL PID START DEVPATH": UNTIL in seconds of the boot clock, PID
# and START the agent (proc_stat), DEVPATH for people. fwloadctl status
# shows it, and an agent that takes the hold over keeps its end (a record
# made in an initramfs too: the boot clock runs on across switch_root). A
# record that cannot be written (a full run directory) leaves no file: the
# hold goes on without it, and status finds the agent by the request's
# loading file, which a holder keeps open on fd 9.
hold_wait() {
	if [ -z "${hold_on-}" ]; then
		hold_start "$1" "$3" "$4" || return
	elif [ -n "$2" ]; then
		# Found while held: loaded once no process has it open for
		# writing (fwload-stamp -W: 5 while one has) and it is the same file,
		# of the same size and times, two searches running.
		_id=$("$libexec/fwload-stamp" -W "$2" 2>/dev/null)
		[ $? != 5 ] || _id=''
		if [ -n "$_id" ] && [ "$_id" = "$hold_id" ]; then
			hold_done
			return 1
		fi
		hold_id=$_id
	fi
	hold_next "$1" "$3"
}

# hold_start REQUEST STAMP WHERE: whether a hold may begin (settle, procd,
# a pending request, a fresh configuration, $hold_max, a detached agent,
# the boot clock), and then its record (hold_record), its rank, fd 9 and
# the log line. Returns 0 held, else hold_wait's status.
hold_start() {
	hold_why=
	if [ -e "$rundir/settled" ]; then
		hold_why="HOLD=$hold, but fwloadctl settle has run"
		return 1
	fi
	if [ "${FWLOAD_SOURCE-}" = procd ]; then
		hold_why="HOLD=$hold, but procd answers every request itself once its hooks are done: no hold under procd"
		return 1
	fi
	hold_key || return 1
	if [ "${cache_st-}" = 4 ]; then
		hold_why="HOLD=$hold, but the run directory $rundir is not root's alone"
		return 1
	fi
	# A hold is a decision that lasts: never one made from a cache
	# that is no longer fresh (7: the agent reads the files again).
	[ -z "$2" ] || "$libexec/fwload-stamp" -K "$2" 2>/dev/null || return 7
	hold_count
	! hold_full "$holds" "$holds_dev" "HOLD=$hold, but" || return 1
	if [ -n "${FWLOAD_HOLD_DETACH-}" ]; then
		FWLOAD_HOLD_DETACH='' "$libexec/firmware.agent" firmware </dev/null >/dev/null 2>&1 &
		return 8
	fi
	boot_now
	if [ -z "$boot_now" ]; then
		hold_why="HOLD=$hold, but no boot clock to time it ($procfs/uptime cannot be read)"
		return 1
	fi
	hold_record
	if [ "$hold_until" -le "$hold_now" ]; then
		[ -n "$hold_why" ] || hold_why="HOLD=$hold, but the kernel's timeout for it, ${TIMEOUT-} s, leaves no time to hold"
		hold_done
		return 1
	fi
	hold_rank
	if hold_full "$ahead" "$ahead_dev" "HOLD=$hold, but"; then
		hold_done
		return 1
	fi
	hold_on=1 held=1 hold_id='' hold_sig='' hold_n=0 hold_why=''
	trap 'hold_sig=1' TERM INT HUP
	# The request's loading file, open on fd 9 while the hold lasts
	# (never moved by a redirection): what shows this agent as its
	# holder when there is no record (its children have it too).
	command exec 9<"$1/loading"
	"$libexec/fwload-log" -l "$log" "$FIRMWARE held for $DEVPATH: not found in $3; waiting up to $((hold_until - hold_now)) s for it (HOLD=$hold)"
	return 0
}

# hold_record: the hold's end, $hold_until on the boot clock ($hold_now:
# now), at most the kernel's TIMEOUT less 3 s, kept from the record of a
# hold taken over ($hold_why says so); the record $hold_file (hold_key)
# written whole, or not at all (a full run directory: no empty or partial
# record left behind), naming this agent ($hold_me: PID START).
hold_record() {
	hold_now=$boot_now
	hold_until=$((hold_now + hold))
	# (six digits: more than any hold, which lasts a day at most)
	case ${TIMEOUT-} in
	0 | '' | *[!0-9]* | ??????*) ;;
	*)
		if [ $((hold_now + TIMEOUT - 3)) -lt "$hold_until" ]; then
			hold_until=$((hold_now + TIMEOUT - 3))
		fi
		;;
	esac
	proc_stat "$$"
	hold_me="$$ ${proc_start:--}"
	# shellcheck disable=SC2174 # -m for the directory itself
	if [ -n "$hold_file" ] && { [ -d "$rundir/held" ] || mkdir -p -m 700 "$rundir/held" 2>/dev/null; }; then
		# A hold taken over keeps its end: a record under this
		# request's key, and of its DEVPATH too. Within a boot a key
		# never repeats (doc/kernel-facts.md); across boots it does,
		# and a run directory that outlived one (not a tmpfs) may hold
		# a record of another request under it.
		_u='' _dp=''
		[ ! -f "$hold_file" ] || read -r _u _ _ _dp 2>/dev/null <"$hold_file"
		[ "$_dp" = "$DEVPATH" ] || _u=''
		case $_u in '' | *[!0-9]*) ;; *) [ "$_u" -ge "$hold_until" ] || hold_until=$_u hold_why="HOLD=$hold, taken over from an earlier hold that ended" ;; esac
		# Written whole, or not at all (a full run directory: no
		# empty or partial record left behind).
		if printf '%s %s %s\n' "$hold_until" "$hold_me" "$DEVPATH" 2>/dev/null >"$hold_file.$$"; then
			mv -f "$hold_file.$$" "$hold_file" 2>/dev/null || rm -f "$hold_file.$$" 2>/dev/null
		else
			rm -f "$hold_file.$$" 2>/dev/null
		fi
	fi
}

# hold_next REQUEST STAMP: a quarter second's sleep, then whether the hold
# goes on: returns 0 (search again), or hold_wait's status.
hold_next() {
	# (No sleep that runs, as in an initramfs emptied by switch_root under
	# an agent that held a request there: no spinning; see below.)
	_slept=1
	sleep 0.25 2>/dev/null || sleep 1 2>/dev/null || _slept=''
	if [ -n "$hold_sig" ]; then
		hold_why="stopped by a signal while held"
		hold_done
		return 1
	fi
	_u='' _p='' _s=''
	[ -z "$hold_file" ] || read -r _u _p _s _ 2>/dev/null <"$hold_file"
	if [ ! -e "$1/loading" ] || [ -e "$rundir/settled" ] || { [ -n "$_p" ] && [ "$_p $_s" != "$hold_me" ]; }; then
		hold_left || hold_done
		return 5
	fi
	# The configuration changed (checked once a second): the agent reads
	# it again and decides again; the hold keeps its end (its record).
	hold_n=$((hold_n + 1))
	case $hold_n in
	4 | 16)
		hold_rank
		if hold_full "$ahead" "$ahead_dev" "held, but before this one"; then
			hold_done
			return 1
		fi
		;;
	esac
	if [ -n "$2" ] && [ $((hold_n % 4)) = 0 ] && ! "$libexec/fwload-stamp" -K "$2" 2>/dev/null; then
		hold_on=''
		exec 9<&-
		return 7
	fi
	if [ -z "$_slept" ]; then
		hold_why="held, but sleep does not run here"
		hold_done
		return 1
	fi
	boot_now
	if [ -z "$boot_now" ]; then
		! hold_left || return 5
		hold_why="held, but the boot clock ($procfs/uptime) can no longer be read"
		hold_done
		return 1
	fi
	if [ "$boot_now" -gt "$hold_until" ]; then  # (whole seconds: HOLD passed)
		hold_why="held until HOLD's end, HOLD=$hold"
		hold_done
		return 1
	fi
	return 0
}

# hold_left: true when sysfs or procfs is no longer where this agent looks:
# an initramfs's /init moving them into the real root for switch_root, one
# after the other, while this agent holds a request there. Its request is
# not gone, nor its clock: only this agent's part is over. fd 9 closed,
# the request not answered, its record left for the agent that serves it
# next (the real root's rescan), which keeps the hold's end; were the
# record removed while /run is still in sight, the hold would start again.
hold_left() {
	[ ! -d "$sysfs/devices" ] || [ ! -d "$procfs/sys" ] || return 1
	hold_on=''
	exec 9<&-
}

# hold_done: the hold is over: the record goes (if it is still this
# agent's), and the request's loading file is closed.
hold_done() {
	hold_on=''
	exec 9<&-
	[ -n "$hold_file" ] && [ -f "$hold_file" ] || return 0
	_u='' _p='' _s=''
	read -r _u _p _s _ 2>/dev/null <"$hold_file"
	[ "$_p $_s" != "$hold_me" ] || rm -f "$hold_file" 2>/dev/null
}
