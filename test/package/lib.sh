# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# Helpers for the packaging cases, test/package/*.sh. test/package/run runs
# each as "sh test/package/NAME.sh" with REPO set. A case's exit status is
# its verdict: 0 passed, 77 skipped (the last line says why), anything else
# failed (fail() says why). Lines starting with "note: " are shown by run
# even when the case passes.

: "${REPO:?run the packaging tests through test/package/run}"

T=$(mktemp -d "${TMPDIR:-/tmp}/fwload-package.XXXXXX") || exit 111
trap 'rm -rf "$T"' EXIT
trap 'exit 130' HUP INT TERM
# shellcheck disable=SC2034 # for the cases
VERSION=$(cat "$REPO/VERSION") || exit 111

fail() {
	echo "FAIL: $*"
	exit 1
}

skip() {
	echo "SKIP: $*"
	exit 77
}

# need PROGRAM...: skip the case when one is missing.
need() {
	for _p; do
		command -v "$_p" >/dev/null 2>&1 ||
			skip "$_p is not installed (test/deps.sh package installs it)"
	done
}

# in_git: REPO is the top of a git work tree (not a directory inside some
# other checkout, such as a release tarball unpacked there).
in_git() {
	command -v git >/dev/null 2>&1 &&
		[ "$(git -C "$REPO" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$REPO" && pwd -P)" ]
}

need_git() {
	command -v git >/dev/null 2>&1 || skip "git is not installed"
	in_git || skip "$REPO is not a git checkout (a release tarball?): there is no git ls-files to check"
}

# copy_tree DIR: the project's files into DIR, without build products: what
# git tracks plus new files it does not ignore, or, outside git, everything
# followed by "make clean".
copy_tree() {
	mkdir -p "$1" || exit 111
	if in_git; then
		(cd "$REPO" && git ls-files -z -co --exclude-standard | tar --null --no-recursion \
			--ignore-failed-read -cf - -T -) 2>/dev/null | tar -xf - -C "$1" ||
			fail "cannot copy the tree"
	else
		cp -a "$REPO/." "$1" || fail "cannot copy the tree"
		make -s -C "$1" clean >/dev/null 2>&1 || fail "make clean in the copy failed"
	fi
}

# tree ROOT: every path under ROOT, sorted, one per line: "PATH" for a file,
# "PATH/" for a directory, "PATH -> TARGET" for a symbolic link.
tree() {
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort | while IFS= read -r _f; do
		if [ -L "$_f" ]; then
			echo "${_f#.} -> $(readlink "$_f")"
		elif [ -d "$_f" ]; then
			echo "${_f#.}/"
		else
			echo "${_f#.}"
		fi
	done)
}

# has LISTFILE LINE [WHY]: LISTFILE holds the line LINE.
has() {
	grep -qxF -- "$2" "$1" || fail "${3:-$1} lacks '$2'"
}
