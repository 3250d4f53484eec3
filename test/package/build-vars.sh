# SPDX-License-Identifier: MIT
# The build takes CC, CFLAGS, LDFLAGS, CPPFLAGS and CROSS_COMPILE from the
# command line and from the environment, as package builders pass them;
# -Werror only with WERROR=-Werror; strip is $(CROSS_COMPILE)strip or $STRIP.
# (make -n: the commands are printed, not run.)
# shellcheck source=lib.sh
. "$REPO/test/package/lib.sh"
need make

# cmd WHAT MAKE-ARGS...: the command that would build fwload, in $cmd.
cmd() {
	what=$1
	shift
	cmd=$("$@" -n -B -s -C "$REPO" fwload 2>&1) || fail "$what: make -n failed: $cmd"
	# the compile line, not the one that records it in .fwload.cmd
	cmd=$(printf '%s\n' "$cmd" | grep -e ' -o fwload ')
}
# want WHAT WORD / nowant WHAT WORD: WORD is (is not) in $cmd.
want() {
	case " $cmd " in *"$2"*) ;; *) fail "$1: '$2' not in: $cmd" ;; esac
}
nowant() {
	case " $cmd " in *"$2"*) fail "$1: '$2' in: $cmd" ;; esac
}

cmd default env -u CC -u CFLAGS -u LDFLAGS -u CPPFLAGS -u CROSS_COMPILE -u WERROR make
want default " gcc "
want default " -static "
want default "-DFWLOAD_VERSION='\"$VERSION\"'"
nowant default "-Werror"

cmd "CC on the command line" make CC=clang
want "CC on the command line" " clang "
cmd "CC in the environment" env CC=my-cc make
want "CC in the environment" " my-cc "
cmd CROSS_COMPILE env -u CC make CROSS_COMPILE=aarch64-linux-gnu-
want CROSS_COMPILE " aarch64-linux-gnu-gcc "
cmd "flags in the environment" env CFLAGS="-O1 -DFROM_ENV" LDFLAGS=-Lfrom-env CPPFLAGS=-DCPP_ENV make
want "flags in the environment" " -O1 -DFROM_ENV "
want "flags in the environment" " -Lfrom-env "
want "flags in the environment" " -DCPP_ENV "
nowant "flags in the environment" " -Os "
cmd "flags on the command line" make CFLAGS=-O3 LDFLAGS=-Lcmd CPPFLAGS=-DCMD
want "flags on the command line" " -O3 "
want "flags on the command line" " -Lcmd "
want "flags on the command line" " -DCMD "
cmd WERROR make WERROR=-Werror
want WERROR " -Werror "
cmd "a program's own CPPFLAGS_NAME" make CPPFLAGS_fwload=-DONLY_FWLOAD
want "a program's own CPPFLAGS_NAME" " -DONLY_FWLOAD "

# A sourced shell library (LIBEXEC_LIBS): rewritten like a script, mode 644.
lib=$(make -n -s -C "$REPO" install-progs DESTDIR="$T/x" LIBEXEC_LIBS=some-lib.sh 2>&1)
case $lib in
*"some-lib.sh >$T/x/lib/fwload/some-lib.sh && chmod 644 $T/x/lib/fwload/some-lib.sh"*) ;;
*) fail "LIBEXEC_LIBS is not installed 644 into LIBEXECDIR: $lib" ;;
esac

# fwload.c, its headers and the Makefile alone (test/cross.sh and bench/run build such a
# copy): it builds, version "unknown".
mkdir "$T/alone" && cp "$REPO/fwload.c" "$REPO"/*.h "$REPO/Makefile" "$T/alone/" || exit 111
cmd=$(make -n -B -s -C "$T/alone" fwload 2>&1) || fail "fwload.c, its headers and the Makefile alone: make -n failed: $cmd"
want "fwload.c, its headers and the Makefile alone" "-DFWLOAD_VERSION='\"unknown\"'"

strip=$(make -n -s -C "$REPO" install-strip DESTDIR="$T/x" CROSS_COMPILE=riscv64-linux-gnu- 2>&1 | tail -n 1)
case $strip in riscv64-linux-gnu-strip\ *) ;; *) fail "install-strip with CROSS_COMPILE: $strip" ;; esac
strip=$(env STRIP=my-strip make -n -s -C "$REPO" install-strip DESTDIR="$T/x" 2>&1 | tail -n 1)
case $strip in my-strip\ *) ;; *) fail "install-strip with STRIP in the environment: $strip" ;; esac
exit 0
