# SPDX-License-Identifier: MIT
# make install with parts switched off (WITH_HOTPLUGD, WITH_FWLOADCTL,
# WITH_UPLOAD, WITH_EXTRACT, WITH_RUN, WITH_MANIFEST, WITH_VERIFY=no): a part off
# installs nothing of itself (programs and man pages), the others exactly
# what the full install has; every part off leaves the chain alone, and
# what it installs is the same chain as the full one, byte for byte. A
# value other than yes or no, upload without fwloadctl and the systemd
# units without fwloadctl are refused.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

# inst NAME [VAR=VALUE...]: make install into $T/NAME; its files, one a
# line, in $T/NAME.list.
inst() {
	_d=$T/$1
	shift
	make -s -C "$REPO" install DESTDIR="$_d" "$@" >"$T/make.out" 2>&1 ||
		fail "make install $*: $(cat "$T/make.out")"
	(cd "$_d" && find . ! -type d | LC_ALL=C sort) >"$_d.list"
}
inst full
# off PART FILE...: with WITH_PART=no, exactly FILEs are missing.
off() {
	_p=$1
	shift
	case $_p in FWLOADCTL) inst "off-$_p" WITH_FWLOADCTL=no WITH_UPLOAD=no ;; *) inst "off-$_p" "WITH_$_p=no" ;; esac
	printf '%s\n' "$@" | LC_ALL=C sort >"$T/want"
	LC_ALL=C comm -23 "$T/full.list" "$T/off-$_p.list" >"$T/gone"
	cmp -s "$T/want" "$T/gone" || fail "WITH_$_p=no: missing $(tr '\n' ' ' <"$T/gone"), want $(tr '\n' ' ' <"$T/want")"
	[ -z "$(LC_ALL=C comm -13 "$T/full.list" "$T/off-$_p.list")" ] || fail "WITH_$_p=no: files the full install lacks"
}
man=./usr/share/man/man8
off HOTPLUGD ./sbin/hotplugd $man/hotplugd.8
off FWLOADCTL ./sbin/fwloadctl $man/fwloadctl.8 ./lib/fwload/fwloadctl-upload.sh
off UPLOAD ./lib/fwload/fwloadctl-upload.sh
off EXTRACT ./lib/fwload/fwload-extract $man/fwload-extract.8
off RUN ./lib/fwload/fwload-keep ./lib/fwload/fwload-runas $man/fwload-keep.8 $man/fwload-runas.8
off MANIFEST ./lib/fwload/fwload-sha256 $man/fwload-sha256.8
off VERIFY ./lib/fwload/fwload-verify $man/fwload-verify.8

# Every part off: the chain and the agent's helpers, nothing else of the
# programs; the same files as the full install's.
# shellcheck disable=SC2046 # one WITH_PART=no word a part
inst minimal $(printf 'WITH_%s=no ' $(make -s -C "$REPO" print-PARTS))
grep -v -e '^\./usr/share/' "$T/minimal.list" >"$T/got"
LC_ALL=C sort >"$T/want" <<LIST
./etc/fwload.conf
./etc/hotplug.d/firmware/50-firmware.hotplug
./lib/fwload/firmware.agent
./lib/fwload/fwload-lib.sh
./lib/fwload/fwload-log
./lib/fwload/fwload-pending
./lib/fwload/fwload-stamp
./sbin/fwload
./sbin/hotplug
LIST
cmp -s "$T/want" "$T/got" || fail "minimal: $(diff "$T/want" "$T/got")"
while read -r f; do
	if [ -L "$T/full/$f" ]; then
		[ "$(readlink "$T/full/$f")" = "$(readlink "$T/minimal/$f")" ]
	else
		cmp -s "$T/full/$f" "$T/minimal/$f"
	fi || fail "minimal: $f differs from the full install's"
done <"$T/got"

# Refused: another value, upload without fwloadctl, units without it.
for bad in WITH_RUN=maybe "WITH_FWLOADCTL=no"; do
	! make -s -C "$REPO" install DESTDIR="$T/bad" "$bad" >"$T/make.out" 2>&1 ||
		fail "make install $bad: installed"
done
grep -q "WITH_UPLOAD=yes needs WITH_FWLOADCTL=yes" "$T/make.out" || fail "no reason: $(cat "$T/make.out")"
! make -s -C "$REPO" install-systemd DESTDIR="$T/bad" WITH_FWLOADCTL=no WITH_UPLOAD=no >"$T/make.out" 2>&1 ||
	fail "install-systemd without fwloadctl: installed"
grep -qx "make install-systemd: the units run fwloadctl, and WITH_FWLOADCTL=no" "$T/make.out" || fail "no reason: $(cat "$T/make.out")"
no_file "$T/bad"

# make uninstall with a part switched off still removes that part's files:
# all that is left of the full install is fwload.conf.
make -s -C "$REPO" uninstall DESTDIR="$T/full" WITH_RUN=no WITH_HOTPLUGD=no >"$T/make.out" 2>&1 ||
	fail "make uninstall: $(cat "$T/make.out")"
left=$(cd "$T/full" && find . ! -type d)
[ "$left" = ./etc/fwload.conf ] || fail "make uninstall WITH_RUN=no WITH_HOTPLUGD=no left: $left"
