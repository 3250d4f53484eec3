# SPDX-License-Identifier: MIT
# MISSING_DIR=DIR (off by default): a request for firmware that is not there
# is cancelled once (by fwload) and listed as DIR/KEY, KEY the name with '!'
# for '/', holding the DEVPATH; a later load of that name removes it. A
# firmware-upload device is no request: never listed.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
L=$T/run/missing
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MISSING_DIR=$L"

request gone.bin
printf zzz >"$REQ/loading"  # fwload writes at offset 0; a second cancel would show
run agent firmware
status_is 1
file_is "$REQ/loading" -1z "loading (one cancel, by fwload)"
file_is "$L/gone.bin" "$TF/gone.bin
"
request vendor/late.bin
run agent firmware
status_is 1
file_is "$L/vendor!late.bin" "$TF/vendor!late.bin
"
mkfw "$R/lib/firmware/vendor/late.bin" "here now"
request vendor/late.bin
run agent firmware
status_is 0
file_is "$REQ/data" "here now"
no_file "$L/vendor!late.bin" "listed after it loaded"
file_is "$L/gone.bin" "$TF/gone.bin
"

request flash.bin
: >"$REQ/remaining_size"
run agent firmware
status_is 6
untouched
no_file "$L/flash.bin" "a firmware-upload device in the missing list"

# Off by default: nothing listed anywhere.
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
rm -r "$L"
request gone.bin
run agent firmware
status_is 1
no_file "$L"

# The directory is made 0700; a FIFO (or anything not a regular file) named
# like the firmware never blocks the agent: the request is cancelled first,
# and the entry becomes a regular file holding the DEVPATH.
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MISSING_DIR=$L"
rm -rf "$L"
request gone.bin
run agent firmware
status_is 1
[ "$(find "$L" -maxdepth 0 -perm 700)" = "$L" ] || fail "MISSING_DIR not made 0700: $(ls -ld "$L")"
# (Under every shell that is installed.)
tried=
for sh in dash "busybox sh" mksh yash "bash --posix"; do
	command -v "${sh%% *}" >/dev/null 2>&1 || continue
	tried="$tried ${sh%% *}"
	rm -f "$L/gone.bin" "$L/vendor!late.bin"
	mkfifo "$L/gone.bin"
	ln -s "$T/elsewhere" "$L/vendor!late.bin"
	for name in gone.bin vendor/late.bin; do
		rm -f "$R/lib/firmware/$name"
		request "$name"
		# shellcheck disable=SC2086 # $sh is a command line
		run kernel_env timeout "$GUARD" $sh "$REPO/firmware.agent" firmware
		[ "$st" = 1 ] || fail "$sh: $name with a FIFO or link in the missing list: status $st, want 1"
		file_is "$REQ/loading" -1 "loading ($sh, $name)"
	done
	if [ ! -f "$L/gone.bin" ] || [ -p "$L/gone.bin" ]; then
		fail "$sh: the FIFO is still there: $(ls -l "$L")"
	fi
	file_is "$L/gone.bin" "$TF/gone.bin
" "$L/gone.bin ($sh)"
	[ ! -L "$L/vendor!late.bin" ] || fail "$sh: the link is still there: $(ls -l "$L")"
	file_is "$L/vendor!late.bin" "$TF/vendor!late.bin
" "$L/vendor!late.bin ($sh)"
	no_file "$T/elsewhere" "written through a link ($sh)"
done
case $tried in *dash*busybox*) ;; *) fail "dash and busybox must be there: tried$tried" ;; esac
echo "shells tried:$tried"

# The kernel removes a request's directory once it is answered (here a
# wrapper of fwload does): the entry is written all the same, after the
# answer.
# shellcheck disable=SC2016 # the wrapper's own expansions
printf '#!/bin/sh\n"%s" "$@"\nst=$?\ncase " $* " in *" -c "*) rm -r "%s" ;; esac\nexit $st\n' "$FWBIN" "$SYS$TF/gone2.bin" >"$T/fwload-kernel"
chmod 755 "$T/fwload-kernel"
rm -f "$L/gone2.bin"
request gone2.bin
FWLOAD=$T/fwload-kernel
run agent firmware
FWLOAD=$FWBIN
status_is 1
[ ! -e "$REQ" ] || fail "the wrapper did not remove the request"
file_is "$L/gone2.bin" "$TF/gone2.bin
" "the entry for a request gone after its answer"

# A directory another user made (under /var/tmp, say) and could change: the
# setting is refused, one line says so, nothing is written there: a NAME
# that user re-made as a link to a file of root's leaves that file as it
# was (before: the agent removed the link it found, then wrote through the
# one made in between, truncating root's file). Root only (another owner).
if [ "$(id -u)" = 0 ]; then
	U=$T/vartmp
	mkdir -p "$U/theirs"
	chmod 1777 "$U"
	chown 65534 "$U/theirs"
	printf 'root secret\n' >"$T/root-file"
	chmod 600 "$T/root-file"
	ln -s "$T/root-file" "$U/theirs/gone.bin"
	conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MISSING_DIR=$U/theirs"
	for mode in 755 777; do
		chmod "$mode" "$U/theirs"
		: >"$LOGF"
		request gone.bin
		run agent firmware
		status_is 1
		file_is "$REQ/loading" -1
		file_is "$T/root-file" "root secret
" "root's file, through a link in a MISSING_DIR of uid 65534 (mode $mode)"
		[ -L "$U/theirs/gone.bin" ] || fail "the link in another's MISSING_DIR was touched: $(cat "$LOGF")"
		log_has "fwload: $U/theirs: not root's alone (owner 65534, mode $mode); MISSING_DIR refused: no list of missing firmware until it is"
	done
	# Root's, but writable by others: refused too.
	chown 0 "$U/theirs"
	chmod 777 "$U/theirs"
	: >"$LOGF"
	request gone.bin
	run agent firmware
	status_is 1
	file_is "$T/root-file" "root secret
" "root's file, through a link in a MISSING_DIR of mode 777"
	log_has "fwload: $U/theirs: not root's alone (owner 0, mode 777); MISSING_DIR refused: no list of missing firmware until it is"
fi
