# SPDX-License-Identifier: MIT
# What the configuration names must be what root chose:
# - RULES=, MANIFEST= and each FIRMWARE_PATH= directory are absolute paths.
#   Under the kernel the working directory is /, but fwloadctl rescan,
#   settle and setup run the agent from wherever the administrator is: a
#   relative RULES=board.rules run a rules file a user left in that
#   directory (its run= program as root), a relative FIRMWARE_PATH loaded a
#   planted image. A relative RULES= or MANIFEST= cancels every request (a
#   rule or the manifest might refuse the image), a relative directory is
#   left out, each with one line.
# - fwload.conf, the rules file and the manifest are read only when root's
#   alone (root's, no write bit for group or others): another's, or one
#   others can write, is not read at all, and every request is cancelled
#   until it is (its line says which); fixed, the next event serves.
# Root only (files of another owner).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

[ "$(id -u)" = 0 ] || {
	echo "SKIP: not root (the case makes files of another owner)"
	exit 0
}
needs fwloadctl fwload-sha256
R=$T/root
mkfw "$R/lib/firmware/x.bin" "the image"
# A directory a user could write, with that user's rules, image and
# manifest in it; fwloadctl rescan run from there.
U=$T/userdir
mkdir -p "$U/planted"
chmod 1777 "$U"
mkfw "$U/planted/x.bin" "planted"
printf '#!/bin/sh\ntouch %s/pwned\nprintf owned\n' "$T" >"$U/evil"
chmod 755 "$U/evil"
echo "firmware=x.bin run=$U/evil" >"$U/board.rules"
: >"$U/sums"

# rescan_from DIR: fwloadctl rescan of one pending request for x.bin, run
# from DIR.
rescan_from() {
	rm -rf "$SYS/class/firmware"
	pending x.bin
	(cd "$1" && run ctl rescan)
	st=$?
}

conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" RULES=board.rules
aged
rescan_from "$U"
status_is 2
file_is "$REQ/loading" -1
no_file "$T/pwned" "a relative RULES= ran a user's run= program"
log_has "fwload: $CONF:3: RULES wants an absolute path, not 'board.rules'; every request is cancelled until it is one"
log_has "fwload: cancelled x.bin for $E_DEVPATH; RULES=board.rules is not an absolute path"

conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" MANIFEST=sums UNLISTED=load
aged
rescan_from "$U"
status_is 2
file_is "$REQ/loading" -1
log_has "fwload: cancelled x.bin for $E_DEVPATH; MANIFEST=sums is not an absolute path"

# A relative directory is left out: the image from the kernel's, never the
# planted one.
rm "$R/lib/firmware/x.bin"
mkfw "$R/abs/x.bin" "the image"
conf "LOG=$LOGF" "FIRMWARE_ROOT=/" "FIRMWARE_PATH=planted:$R/abs"
aged
rescan_from "$U"
status_is 0
file_is "$REQ/data" "the image"
log_has "fwload: $CONF:3: FIRMWARE_PATH: 'planted' is not an absolute path; left out"
mkfw "$R/lib/firmware/x.bin" "the image"

# Files another user could have changed are not read. (An fwload.conf not
# read gives the default LOG=kmsg: stand-ins for fwload and fwload-log log
# to $LOGF instead.)
own_libexec
rm "$LIBEXEC/fwload-log"
FWLOAD=$T/fwload-logf
for p in "$FWLOAD:$FWBIN" "$LIBEXEC/fwload-log:$HELPERS/fwload-log"; do
	cat >"${p%%:*}" <<END
#!/bin/sh
n=\$#
while [ \$n -gt 0 ]; do
	a=\$1
	shift
	[ "\$a" != kmsg ] || [ "\${prev-}" != -l ] || a=$LOGF
	set -- "\$@" "\$a"
	prev=\$a
	n=\$((n - 1))
done
exec "${p#*:}" "\$@"
END
	chmod 755 "${p%%:*}"
done
M=$T/SHA256SUMS
(cd "$R/lib/firmware" && sha256sum x.bin) >"$M"
echo "firmware=nothing.bin dir=/nowhere" >"$T/fwload.rules"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MANIFEST=$M" UNLISTED=refuse
aged
request x.bin
run agent firmware
status_is 0
for f in "$CONF:666" "$CONF:644:65534" "$T/fwload.rules:664" "$T/fwload.rules:644:65534" "$M:646" "$M:644:65534"; do
	file=${f%%:*} how=${f#*:}
	mode=${how%%:*} owner=0
	case $how in *:*) owner=${how#*:} ;; esac
	chmod "$mode" "$file"
	chown "$owner" "$file"
	: >"$LOGF"
	request x.bin
	run agent firmware
	status_is 2
	file_is "$REQ/loading" -1 "loading ($file, mode $mode, owner $owner)"
	log_has "fwload: $file: not root's alone (owner $owner, mode $mode); not read: every request is cancelled until it is"
	log_has "fwload: cancelled x.bin for $E_DEVPATH; $file is not root's alone (owner $owner, mode $mode): not read"
	run ctl explain x.bin
	status_is 2
	grep -q "$file is not root's alone (owner $owner, mode $mode): not read; the request would be" "$T/stdout" ||
		fail "explain ($file): $(cat "$T/stdout")"
	chmod 644 "$file"
	chown 0 "$file"
	request x.bin
	run agent firmware
	status_is 0
	file_is "$REQ/data" "the image" "data once $file is root's alone again"
done
# An untrusted fwload.conf is not read at all: its LOG= (a file others
# choose) is never written.
conf "LOG=$T/chosen-by-another" "FIRMWARE_ROOT=$R"
chmod 666 "$CONF"
request x.bin
run agent firmware
status_is 2
no_file "$T/chosen-by-another" "the LOG= of a fwload.conf others can write was used"
