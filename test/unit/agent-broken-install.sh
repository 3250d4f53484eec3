# SPDX-License-Identifier: MIT
# shellcheck disable=SC2086 # $sh is a command line ("busybox sh")
# A system fwload is not whole on still gets every request answered: with
# fwload-lib.sh missing (fwload installed in part) the request is cancelled
# and the log says why, not left to the kernel's timeout; with no grep on
# PATH (early boot) the shell reads fwload.conf itself, its settings apply
# (a manifest among them), and the log says so; with fwload.conf there but
# unreadable (a directory here) nothing is loaded until it can be read,
# since a setting in it (a manifest) might refuse the image. Under every
# shell that is installed.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
needs fwload-sha256

R=$T/root
M=$T/SHA256SUMS
fw=$R/lib/firmware
mkimage "$fw/x.bin" 5000
mkimage "$R/extra/y.bin" 5000
mkimage "$fw/bad.bin" 100
(cd "$fw" && sha256sum x.bin) >"$M"
echo "0000000000000000000000000000000000000000000000000000000000000000  bad.bin" >>"$M"
# The agent and the C helpers, without fwload-lib.sh beside them.
mkdir "$T/part"
cp "$REPO/firmware.agent" "$T/part/"
for p in "$LIBEXEC"/fwload-*; do
	case $p in *.c | *.sh) continue ;; esac
	[ ! -x "$p" ] || ln -s "$p" "$T/part/${p##*/}"
done
# fwload logging to $LOGF, where the agent cannot know LOG= (no config
# read): each -l's value replaced.
cat >"$T/fwload-to-logf" <<END
#!/bin/sh
n=\$#
prev=
while [ "\$n" -gt 0 ]; do
	a=\$1
	shift
	[ "\$prev" != -l ] || a=$LOGF
	set -- "\$@" "\$a"
	prev=\$a
	n=\$((n - 1))
done
exec "$FWBIN" "\$@"
END
chmod 755 "$T/fwload-to-logf"
# A PATH with every program but grep.
mkdir "$T/nogrep"
for d in /usr/bin /bin; do
	for p in "$d"/*; do
		n=${p##*/}
		[ "$n" = grep ] || [ -e "$T/nogrep/$n" ] || ln -s "$p" "$T/nogrep/$n"
	done
done

tried=
for sh in dash "busybox sh" mksh yash "bash --posix"; do
	command -v "${sh%% *}" >/dev/null 2>&1 || continue
	tried="$tried ${sh%% *}"

	# fwload-lib.sh missing, no cache yet.
	rm -rf "$RUN" "$LOGF"
	conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
	request x.bin
	run kernel_env FWLOAD_LIBEXEC="$T/part" FWLOAD="$T/fwload-to-logf" timeout "$GUARD" $sh "$T/part/firmware.agent" firmware
	[ "$st" = 111 ] || fail "$sh, no fwload-lib.sh: status $st, want 111; $(cat "$T/stderr")"
	file_is "$REQ/loading" -1 "loading ($sh, no fwload-lib.sh)"
	# (no run directory yet: no lock directory either, and fwload says so)
	log_matches "fwload: cancelled x\\.bin for $(ere "$E_DEVPATH"); (answered without a lock \\(.*\\); )?cannot read $(ere "$T/part/fwload-lib.sh") \\(fwload installed in part\\)"

	# fwload-lib.sh gone after the cache was made, and the cache stale:
	# the cancel is not one fwload may refuse as stale (status 7).
	rm -rf "$RUN" "$LOGF"
	cp "$REPO/fwload-lib.sh" "$T/part/"
	conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MANIFEST=$M"
	sleep 1
	request x.bin
	run kernel_env FWLOAD_LIBEXEC="$T/part" timeout "$GUARD" $sh "$T/part/firmware.agent" firmware
	[ "$st" = 0 ] || fail "$sh, the whole install: status $st, want 0; $(cat "$T/stderr")"
	[ -f "$RUN/conf.cache" ] || fail "$sh: no cache made"
	rm "$T/part/fwload-lib.sh"
	echo "UNLISTED=refuse" >>"$CONF"
	request x.bin
	run kernel_env FWLOAD_LIBEXEC="$T/part" timeout "$GUARD" $sh "$T/part/firmware.agent" firmware
	[ "$st" = 111 ] || fail "$sh, no fwload-lib.sh, a stale cache: status $st, want 111; $(cat "$T/stderr")"
	file_is "$REQ/loading" -1 "loading ($sh, no fwload-lib.sh, a stale cache)"

	# No grep: the shell reads the config; FIRMWARE_PATH and the manifest
	# apply.
	rm -rf "$RUN" "$LOGF"
	conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" FIRMWARE_PATH=/extra "MANIFEST=$M"
	for name in y.bin bad.bin x.bin; do
		request "$name"
		run kernel_env PATH="$T/nogrep" timeout "$GUARD" $sh "$REPO/firmware.agent" firmware
		case $name in
		bad.bin)
			[ "$st" = 2 ] || fail "$sh, no grep, $name: status $st, want 2; $(cat "$T/stderr")"
			file_is "$REQ/loading" 1-1 "loading ($sh, no grep, $name)"
			;;
		*)
			[ "$st" = 0 ] || fail "$sh, no grep, $name: status $st, want 0; $(cat "$T/stderr")"
			file_is "$REQ/loading" 10 "loading ($sh, no grep, $name)"
			;;
		esac
	done
	# (busybox sh runs its own grep applet, PATH or not.)
	if ! kernel_env PATH="$T/nogrep" $sh -c 'grep -q x /dev/null; [ $? -eq 1 ]' 2>/dev/null; then
		log_has "fwload: $CONF: grep did not run (status 127): read by the shell"
	fi

	# fwload.conf unreadable: nothing loads, and the log says why.
	rm -rf "$RUN" "$LOGF" "$CONF"
	mkdir "$CONF"
	request x.bin
	run kernel_env FWLOAD="$T/fwload-to-logf" timeout "$GUARD" $sh "$REPO/firmware.agent" firmware
	[ "$st" = 2 ] || fail "$sh, unreadable fwload.conf: status $st, want 2; $(cat "$T/stderr")"
	file_is "$REQ/loading" -1 "loading ($sh, unreadable fwload.conf)"
	log_has "fwload: cancelled x.bin for $E_DEVPATH; cannot read $CONF"
	rmdir "$CONF"
done
case $tried in *dash*busybox*) ;; *) fail "dash and busybox must be there: tried$tried" ;; esac
echo "shells tried:$tried"
