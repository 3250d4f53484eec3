# SPDX-License-Identifier: MIT
# Misuse: status 100 and the usage text; --help and --version; the failures
# it can meet at start: one line each, status 111 (a PROGRAM it cannot run,
# not root).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=hotplugd-lib
. "$REPO/test/unit/hotplugd-lib"

usage() {
	run "$HPD" "$@"
	status_is 100
	grep -q '^usage: hotplugd' "$T/stderr" || fail "no usage message for: $*"
	stdout_is ''
}
usage -q
usage -j
usage -j 0
usage -j 1025
usage -j abc
usage -j 1K
usage -x hotplug
usage -x ''
usage -p run/hotplugd.pid
usage -s ''
usage -s a/b
usage -s ..
usage -s "$(printf '%65s' '' | tr ' ' x)"
usage -S ''
usage -S sys
usage -b 99999999999999999999
usage -j 99999999999999999999
usage -b 100
usage -b 2G
usage -b 12x
usage -b 64k
usage extra
usage -d
usage -d extra
usage -D
usage -D 2
usage -D 99
usage -D x
usage -T 0
usage -T 86401
usage -T 1m
set --
i=0
while [ $i -le 16 ]; do
	set -- "$@" -s "s$i"
	i=$((i + 1))
done
usage "$@"

run "$HPD" --help
status_is 0
grep -q '^usage: hotplugd' "$T/stdout" || fail "--help: $(cat "$T/stdout")"
grep -q -- "-x PROGRAM .*default /sbin/hotplug" "$T/stdout" || fail "--help names no default PROGRAM"
grep -q -- "-D FD " "$T/stdout" || fail "--help does not name -D"
grep -q -- "-T SECONDS " "$T/stdout" || fail "--help does not name -T"
stderr_is ''
run "$HPD" --version
status_is 0
stdout_is "hotplugd $(cat "$REPO/VERSION")"

run "$HPD" -x "$T/absent"
status_is 111
stderr_is "hotplugd: cannot run $T/absent: errno 2 (ENOENT)"
# A line longer than the kernel log takes is cut as fwload's: the record
# 976 bytes with its "<3>" and newline, ending in "...", so stderr gets 973.
long=/$(printf '%1500s' '' | tr ' ' x)
run "$HPD" -x "$long"
status_is 111
line=$(cat "$T/stderr")
{ [ "$(wc -c <"$T/stderr")" -eq 973 ] && [ "${line%...}" != "$line" ] &&
	[ "${line#hotplugd: cannot run /xxxxxxxx}" != "$line" ]; } ||
	fail "a long line: $(wc -c <"$T/stderr") bytes, want 973 ending in ...: $line"
# --help whose stdout cannot be written: 111, as every program here
if [ -w /dev/full ]; then
	"$HPD" --help >/dev/full 2>/dev/null
	st=$?
	[ "$st" = 111 ] || fail "--help >/dev/full: status $st, want 111"
fi
# util-linux's setpriv (busybox sh would take its own, which has no --reuid)
if [ -x /usr/bin/setpriv ]; then
	run /usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups "$HPD" -x /bin/true
	status_is 111
	stderr_matches '^hotplugd: not root: .*'
fi
