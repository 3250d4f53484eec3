# SPDX-License-Identifier: MIT
# The man pages: warning-free under groff -ww and man --warnings, a NAME
# line whatis can read, the version of VERSION, one page per installed
# program, and every fwload page they refer to exists.
# shellcheck source=lib.sh
. "$REPO/test/package/lib.sh"
need groff man make

cd "$REPO/man" || fail "no man/ directory"
n=0
for page in *.[58]; do
	[ -f "$page" ] || fail "no man pages in man/"
	n=$((n + 1))
	groff -ww -man -z "$page" >"$T/out" 2>&1
	[ -s "$T/out" ] && fail "groff -ww -man $page: $(cat "$T/out")"
	LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" >/dev/null 2>"$T/out"
	[ -s "$T/out" ] && fail "man --warnings $page: $(cat "$T/out")"
	if command -v lexgrog >/dev/null 2>&1; then
		lexgrog "$page" >"$T/out" 2>&1 || fail "lexgrog (whatis) cannot parse $page: $(cat "$T/out")"
	fi
	th=$(sed -n 's/^\.TH .*"fwload \([^"]*\)".*/\1/p' "$page")
	[ "$th" = "$VERSION" ] || fail "$page: .TH says version '$th', VERSION says $VERSION"
	# References to pages of ours (fwload*, firmware.agent, hotplug*).
	sed -n 's/^\.BR \(fwload[a-z.\\-]*\|firmware\.agent\|hotplug[a-z]*\) (\([58]\)).*/\1.\2/p' "$page" |
		sed 's/\\-/-/g' | while IFS= read -r ref; do
		[ -f "$ref" ] || echo "$page refers to ${ref%.?}(${ref##*.}), and there is no man/$ref"
	done >>"$T/refs"
done
[ -s "$T/refs" ] && fail "$(cat "$T/refs")"
for p in $(make -s -C "$REPO" print-SBIN_PROGS print-SBIN_SCRIPTS print-LIBEXEC_PROGS \
	print-LIBEXEC_SCRIPTS print-BIN_PROGS print-BIN_SCRIPTS); do
	[ -f "$p.8" ] || fail "$p is installed and has no man/$p.8"
done
echo "note: $n pages warning-free (groff -ww, man --warnings, lexgrog)"
