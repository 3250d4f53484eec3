#!/bin/sh
# SPDX-License-Identifier: MIT
# demo-case.sh WHAT MACHINE [NAME=VALUE...] - make demo's script
# (test/kernel/demo.sh) as a test case of a kernel layer: run with the
# NAME=VALUEs in its environment, it must end with every scenario as
# shown, on a machine whose "demo: machine" line starts with MACHINE, and
# its last line must be its own verdict (never a kernel's trace). Prints
# "ok: demo WHAT" or "FAIL: demo WHAT: why" and the demo's output on
# failure; exit status 0 or 1.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
what=$1 machine=$2
shift 2
out=$(mktemp "${TMPDIR:-/tmp}/fwload-demo-case.XXXXXX") || exit 1
trap 'rm -f "$out"' EXIT
env "$@" sh "$repo/test/kernel/demo.sh" >"$out" 2>&1
status=$?
why=''
if [ "$status" != 0 ]; then
	why="exit status $status"
elif ! grep -q "^demo: machine $machine" "$out"; then
	why="no 'demo: machine $machine' line"
elif [ "$(grep -v -e '^[[:space:]]*$' -e '^fwload-guest: exit status' -e 'Power' -e 'reboot:' "$out" | tail -n 1)" != "demo: every scenario ended as shown" ]; then
	why="its last words are not its verdict"
fi
if [ -n "$why" ]; then
	sed 's/^/    /' "$out"
	echo "FAIL: demo $what: $why"
	exit 1
fi
echo "ok: demo $what: $(sed -n 's/^demo: machine //p' "$out" | head -n 1)"
grep -m 1 '^demo: UML cannot run here' "$out" | sed 's/^/    /'
