#!/bin/sh
# SPDX-License-Identifier: MIT
# cross.sh [ARCH...] - build fwload with Debian's cross compilers and run the
# fast tests under qemu-user for each architecture (make check-cross).
#
# ARCH: armhf arm64 riscv64 (default: all). For each: the static C
# programs ($progs, make CROSS_COMPILE=...), dynamic test builds of fwload
# and fwload-extract and the fault injector are built in a scratch copy of
# the sources, then test/run-unit runs with the static programs replaced by
# "qemu-ARCH PROGRAM" (fwload: TEST_FWLOAD; the helpers: TEST_LIBEXEC, a
# directory of such wrappers beside links to the scripts; the fault cases by
# qemu-ARCH -E LD_PRELOAD=fault.so fwload-dyn or fwload-extract-dyn). Nothing is
# decided from the build host's uname. 32-bit armhf is where 64-bit time and
# offsets matter (test/unit/fwload-y2038.sh). Prints the stripped size of
# each static program, and "cross: N passed, N failed".
#
# Only the C programs differ by architecture; the scripts run on the host's
# dash here as in the unit layer (which also runs them under busybox). So
# armhf, the one 32-bit target, runs the whole suite under dash, and arm64
# and riscv64 run the cases whose subject is a C program or what the scripts
# read from one ($c_cases below: a new case with such a name is taken in).
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
progs=$(make -s -C "$repo" print-C_PROGS)
libexec_progs=$(make -s -C "$repo" print-LIBEXEC_PROGS)
libexec_libs=$(make -s -C "$repo" print-LIBEXEC_SCRIPTS print-LIBEXEC_LIBS)
[ $# -gt 0 ] || set -- armhf arm64 riscv64
c_cases='fwload-* fault-* hotplugd-* extract-* verify-* fds-closed help-version config-cache config-stale
agent-compressed agent-manifest agent-signed agent-actions agent-hold agent-fwload-status'
# Cases whose subject qemu-user cannot emulate, left to the unit layer's
# native run: hotplugd-subreaper (qemu passes PR_SET_CHILD_SUBREAPER on as
# EINVAL, so what a child leaves goes to init); verify-diff (fwload-verify's
# code built for the host, against the host's libcrypto).
native_only='hotplugd-subreaper verify-diff'
work=$(mktemp -d "${TMPDIR:-/tmp}/fwload-cross.XXXXXX")
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"  # hotplugd-usage runs the wrappers as nobody too

passed=0
failed=0
for arch in "$@"; do
	case $arch in
	armhf) triplet=arm-linux-gnueabihf qemu=qemu-arm ;;
	arm64) triplet=aarch64-linux-gnu qemu=qemu-aarch64 ;;
	riscv64) triplet=riscv64-linux-gnu qemu=qemu-riscv64 ;;
	*)
		echo "cross: unknown architecture $arch"
		failed=$((failed + 1))
		continue
		;;
	esac
	b=$work/$arch
	mkdir -p "$b/test"
	for p in $progs; do
		cp "$repo/$p.c" "$b/"
	done
	cp "$repo"/*.h "$repo/Makefile" "$repo/VERSION" "$b/"
	cp "$repo/test/fault.c" "$b/test/"
	echo "=== $arch: make CROSS_COMPILE=$triplet-"
	# shellcheck disable=SC2086 # $progs: program names
	if ! make -s -C "$b" CROSS_COMPILE="$triplet-" WERROR=-Werror $progs \
		test/fwload-dyn test/fwload-extract-dyn test/fault.so; then
		echo "cross: $arch: build failed"
		failed=$((failed + 1))
		continue
	fi
	file "$b/fwload" | sed 's/^[^:]*: /  /'
	mkdir -p "$b/qemu" "$b/libexec"  # wrappers with the programs' own names
	for p in $progs; do
		"$triplet-strip" -o "$b/$p.stripped" "$b/$p"
		echo "  $p static, stripped: $(wc -c <"$b/$p.stripped") bytes"
		printf '#!/bin/sh\nexec %s %s "$@"\n' "$qemu" "$b/$p" >"$b/qemu/$p"
		chmod +x "$b/qemu/$p"
	done
	for p in $libexec_progs; do
		ln -s "$b/qemu/$p" "$b/libexec/$p"
	done
	for p in $libexec_libs; do
		ln -s "$repo/$p" "$b/libexec/$p"
	done
	log=$work/$arch.log
	set --
	cases=$c_cases
	[ "$arch" != armhf ] || cases='*'
	set -f
	for g in $cases; do  # split: the list above
		set +f
		for t in "$repo"/test/unit/$g.sh; do
			n=${t##*/}
			case " $native_only " in *" ${n%.sh} "*) continue ;; esac
			[ ! -f "$t" ] || set -- "$@" "$n"
		done
		set -f
	done
	set +f
	if [ "$arch" != armhf ]; then
		echo "  $arch: the $# cases of the C programs (armhf runs them all but: $native_only)"
	else
		echo "  $arch: $# cases, all but: $native_only"
	fi
	TEST_FWLOAD=$b/qemu/fwload TEST_LIBEXEC=$b/libexec TEST_FWDYN=$b/test/fwload-dyn TEST_FAULT=$b/test/fault.so \
		TEST_EXTRACT_DYN=$b/test/fwload-extract-dyn \
		TEST_HOTPLUGD=$b/qemu/hotplugd \
		TEST_QEMU="$qemu -L /usr/$triplet" SHELLS=dash \
		sh "$repo/test/run-unit" "$@" >"$log" 2>&1
	grep -v '^ok ' "$log" | sed "s/^/  $arch: /"
	counts=$(sed -n 's/^unit: \([0-9]*\) passed, \([0-9]*\) failed.*/\1 \2/p' "$log" | tail -n 1)
	if [ -z "$counts" ]; then
		failed=$((failed + 1))
		continue
	fi
	passed=$((passed + ${counts% *}))
	failed=$((failed + ${counts#* }))
done
echo "cross: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
