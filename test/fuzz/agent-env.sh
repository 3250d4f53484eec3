#!/bin/sh
# SPDX-License-Identifier: MIT
# agent-env.sh [COUNT] - fuzz firmware.agent with a generated corpus of
# uevent environments, under each shell in $SHELLS (dash, busybox).
#
# Each environment is glued from hostile pieces -- shell metacharacters,
# $(...) and backticks, globs, quotes, spaces, control bytes, '..', '/',
# leading dashes, over-long names -- for FIRMWARE, DEVPATH, ACTION and the
# subsystem argument, with a seeded awk generator (FUZZ_SEED). The agent runs
# against a fake sysfs tree; after each run:
#   - nothing was executed: no PWNED file appeared anywhere in the tree;
#   - the exit status is one of 0 1 2 4 111;
#   - loading holds "", "-1", "10" or "1-1" (never a bare "1": unanswered);
#   - "10" only for a valid name, with data byte-identical to its file;
#   - a valid, found name with a real request was loaded; a bad one was not;
#   - it finished within 10 s.
# Prints "fuzz-agent: N passed, N failed" and the seed.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
count=${1:-1000}
seed=${FUZZ_SEED:-$(date +%s)}
T=$(mktemp -d "${TMPDIR:-/tmp}/fwload-fuzz.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/fw/sub" "$T/cases" "$T/cwd"
printf 'one' >"$T/fw/a"
printf 'two two' >"$T/fw/b.bin"
printf 'three' >"$T/fw/sub/b.bin"
printf 'star' >"$T/fw/*"
printf 'space' >"$T/fw/x y"
printf '%s\n' "FIRMWARE_PATH=$T/fw" "LOG=$T/log" >"$T/conf"
mkdir -p "$T/proc/sys/kernel"
echo 6.12.0-fuzz >"$T/proc/sys/kernel/osrelease"

# One case per directory: raw bytes of each variable in its own file.
awk -v n="$count" -v seed="$seed" -v dir="$T/cases" '
function pick(list,   a, k) { k = split(list, a, "|"); return a[int(rand() * k) + 1] }
function glue(list, max,   s, i, m) {
	m = int(rand() * max) + 1; s = ""
	for (i = 0; i < m; i++) s = s pick(list)
	return s
}
BEGIN {
	srand(seed)
	long = sprintf("%300s", ""); gsub(/ /, "x", long)
	fw = "a|b.bin|sub/|sub/b.bin|/|..|.|$(touch PWNED)|`touch PWNED`|;touch PWNED|*|?|[a]|x y| |\n|\t|\001|\177|-|--|~|\047|\"|\\|%s|$HOME|" long "|!|&|>|<"
	dv = "/devices|/virtual|/x|/..|/.|/|!|$(touch PWNED)|`touch PWNED`| |\n|*|" long
	act = "add|add|add|remove|change||ADD|add\n|add;touch PWNED"
	sub_ = "firmware|firmware|firmware|misc||$(touch PWNED)|firmware/..|../firmware"
	for (i = 0; i < n; i++) {
		d = dir "/" i
		system("mkdir " d)
		f = rand() < 0.3 ? pick("a|b.bin|sub/b.bin|*|x y|missing.bin") : glue(fw, 5)
		if (rand() < 0.6) { p = f; gsub(/\//, "!", p); v = "/devices/virtual/misc/test_firmware/" p }
		else v = glue(dv, 4)
		printf "%s", f > (d "/FIRMWARE"); close(d "/FIRMWARE")
		printf "%s", v > (d "/DEVPATH"); close(d "/DEVPATH")
		printf "%s", pick(act) > (d "/ACTION"); close(d "/ACTION")
		printf "%s", pick(sub_) > (d "/SUBSYSTEM"); close(d "/SUBSYSTEM")
	}
}'

# What the agent must think of a name, decided independently.
valid_name() {
	case $1 in
	'' | /* | .. | ../* | */.. | */../*) return 1 ;;
	*[[:cntrl:]]*) return 1 ;;
	esac
	return 0
}

passed=0
failed=0
for sh in ${SHELLS:-dash busybox}; do
	[ "$sh" = busybox ] && sh="busybox sh"
	command -v "${sh%% *}" >/dev/null || { echo "fuzz-agent: no $sh"; failed=$((failed + 1)); continue; }
	i=0
	while [ $i -lt "$count" ]; do
		c=$T/cases/$i
		i=$((i + 1))
		fw=$(cat "$c/FIRMWARE")
		dev=$(cat "$c/DEVPATH")
		act=$(cat "$c/ACTION")
		sub=$(cat "$c/SUBSYSTEM")
		rm -rf "$T/sys" "$T/cwd"
		mkdir -p "$T/sys" "$T/cwd"
		req=
		case $dev/ in
		*/./* | */../*) ;;  # the kernel makes no such request
		/devices/virtual/misc/test_firmware/*)
			if mkdir -p "$T/sys$dev" 2>/dev/null && : >"$T/sys$dev/loading" 2>/dev/null; then
				: >"$T/sys$dev/data"
				req=$T/sys$dev
			fi
			;;
		esac
		# shellcheck disable=SC2086 # $sh may be "busybox sh"
		(cd "$T/cwd" && exec timeout 10 env -i ACTION="$act" DEVPATH="$dev" SUBSYSTEM="$sub" \
			FIRMWARE="$fw" TIMEOUT=60 ASYNC=0 SEQNUM=1 HOME=/ PATH=/sbin:/bin:/usr/sbin:/usr/bin \
			SYSFS="$T/sys" PROCFS="$T/proc" FWLOAD_CONF="$T/conf" FWLOAD="$repo/fwload" \
			FWLOAD_LIBEXEC="$repo" FWLOAD_RUNDIR="$T/run" \
			$sh "$repo/firmware.agent" "$sub") >/dev/null 2>&1
		status=$?
		why=
		if [ -n "$(find "$T" -name PWNED)" ]; then
			why="a command from the event ran"
		fi
		case $status in
		0 | 1 | 2 | 4 | 111) ;;
		124) why="hang (10 s)" ;;
		*) why="exit status $status" ;;
		esac
		got=
		[ -n "$req" ] && got=$(cat "$req/loading")
		case $got in
		'' | -1 | 10 | 1-1) ;;
		*) why="loading holds '$got'" ;;
		esac
		ours=no
		[ "$act" = add ] && [ "$sub" = firmware ] && [ -n "$req" ] && ours=yes
		if [ "$got" = 10 ]; then
			if ! valid_name "$fw"; then
				why="loaded an invalid name"
			elif ! cmp -s "$T/fw/$fw" "$req/data"; then
				why="data differs from $T/fw/$fw"
			fi
		elif [ $ours = yes ] && valid_name "$fw" && [ -f "$T/fw/$fw" ] && [ -z "$(find "$T/fw/$fw" -prune -size 0)" ]; then
			why="a valid name with a file was not loaded (loading '$got', status $status)"
		elif [ $ours = yes ] && [ "$got" != -1 ]; then
			why="request left unanswered (loading '$got', status $status)"
		fi
		if [ -n "$why" ]; then
			failed=$((failed + 1))
			printf 'FAIL %s case %s: %s\n  ACTION=%s SUBSYSTEM=%s\n  FIRMWARE=%s\n  DEVPATH=%s\n' \
				"$sh" "$((i - 1))" "$why" "$act" "$sub" "$fw" "$dev" | cut -c1-300
			find "$T" -name PWNED -exec rm -f {} +
		else
			passed=$((passed + 1))
		fi
	done
done
echo "fuzz-agent: seed $seed, $count environments per shell"
echo "fuzz-agent: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
