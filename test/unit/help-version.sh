# SPDX-License-Identifier: MIT
# Every installed program answers --help (a usage text on stdout, status 0)
# and --version ("NAME VERSION", VERSION as in the VERSION file).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

make -s -C "$REPO" install-progs DESTDIR="$T/i" >"$T/out" 2>&1 || fail "make install-progs failed: $(cat "$T/out")"
read -r version <"$REPO/VERSION"
for p in sbin/fwload sbin/hotplug sbin/hotplugd sbin/fwloadctl lib/fwload/firmware.agent lib/fwload/fwload-sha256; do
	name=${p##*/}
	run "$T/i/$p" --help
	status_is 0
	grep -q "^usage: $name" "$T/stdout" || fail "$name --help: no usage on stdout: $(cat "$T/stdout" "$T/stderr")"
	run "$T/i/$p" --version
	status_is 0
	stdout_is "$name $version"
done
