# SPDX-License-Identifier: MIT
# Every installed program answers --help (a usage text on stdout) and
# --version ("NAME VERSION", VERSION as in the VERSION file), with status 0;
# fwload-sha256, fwload-extract, fwload-runas and fwload-verify with status 100: they run in fwload's
# COMMAND slot, where status 0 commits what they wrote, so 0 means the image
# and nothing else.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

make -s -C "$REPO" install-progs DESTDIR="$T/i" >"$T/out" 2>&1 || fail "make install-progs failed: $(cat "$T/out")"
read -r version <"$REPO/VERSION"
for p in sbin/fwload sbin/hotplug sbin/hotplugd sbin/fwloadctl lib/fwload/firmware.agent lib/fwload/fwload-sha256 \
	lib/fwload/fwload-extract lib/fwload/fwload-runas lib/fwload/fwload-verify; do
	name=${p##*/}
	want=0
	case $name in fwload-sha256 | fwload-extract | fwload-runas | fwload-verify) want=100 ;; esac
	run "$T/i/$p" --help </dev/null
	status_is "$want"
	grep -q "^usage: $name" "$T/stdout" || fail "$name --help: no usage on stdout: $(cat "$T/stdout" "$T/stderr")"
	run "$T/i/$p" --version </dev/null
	status_is "$want"
	stdout_is "$name $version"
done
