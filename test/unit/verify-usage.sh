# SPDX-License-Identifier: MIT
# fwload-verify's command line: FILE, or -l, with -k KEYDIR and (with FILE)
# -c, and -v with -c; anything else is a usage error (100, one line on stderr, nothing on
# stdout, no key read). --help and --version print on stdout and exit 100
# too: with -c it is a filter for fwload's COMMAND slot, where 0 commits
# what was written.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=verify-lib
. "$REPO/test/unit/verify-lib"

for args in '' 'a b' '-l a' '-l -c' '-c' '-x a' '-k' '-k  a' '-lc' '-k a -l b' '-v a' '-l -v' '-cv'; do
	# shellcheck disable=SC2086 # the words of the command line
	run clean "$VERIFY" $args
	status_is 100
	stdout_is ''
	stderr_is 'fwload-verify: usage: fwload-verify [-k KEYDIR] [-c [-v]] FILE | -l [-k KEYDIR] (--help says more)'
done
run clean "$VERIFY" -k '' a
status_is 100
run clean "$VERIFY" --help
status_is 100
grep -q '^usage: fwload-verify \[-k KEYDIR\] \[-c \[-v\]\] FILE$' "$T/stdout" || fail "--help: $(cat "$T/stdout")"
stderr_is ''
run clean "$VERIFY" --version
status_is 100
stdout_is "fwload-verify $(cat "$REPO/VERSION")"
