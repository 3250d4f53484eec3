# SPDX-License-Identifier: MIT
# The run directory ($FWLOAD_RUNDIR: the config cache, the missing list)
# read-only, or full (a tmpfs of one page, filled): every request is still
# answered as the configuration says, no cache is trusted half-written, and
# nothing is left behind. Then the same directory writable again: the
# cache is made. Under every shell that is installed. (Mounts: root only.)
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
needs fwload-sha256

[ "$(id -u)" = 0 ] || fail "this case mounts file systems: run it as root"
RO=$T/ro FULL=$T/full
mkdir -p "$RO" "$FULL"
trap 'umount "$RO" 2>/dev/null; umount "$FULL" 2>/dev/null; rm -rf "$T"' EXIT
{ mount -t tmpfs -o size=64k,mode=700 fwload-ro "$RO" && mount -o remount,ro "$RO"; } || fail "cannot mount a read-only tmpfs"
mount -t tmpfs -o size=4k,mode=700 fwload-full "$FULL" || fail "cannot mount a tiny tmpfs"
head -c 1048576 /dev/zero >"$FULL/filler" 2>/dev/null
printf x 2>/dev/null >"$FULL/more" && [ -s "$FULL/more" ] && fail "the tiny tmpfs is not full"
rm -f "$FULL/more"

R=$T/root
M=$T/SHA256SUMS
fw=$R/lib/firmware
mkimage "$fw/x.bin" 5000
mkimage "$fw/bad.bin" 100
(cd "$fw" && sha256sum x.bin) >"$M"
echo "0000000000000000000000000000000000000000000000000000000000000000  bad.bin" >>"$M"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "MANIFEST=$M" UNLISTED=refuse "MISSING_DIR=$T/missing"
aged

tried=
for sh in dash "busybox sh" mksh yash "bash --posix"; do
	command -v "${sh%% *}" >/dev/null 2>&1 || continue
	tried="$tried ${sh%% *}"
	for RUN in "$RO/fwload" "$FULL" "$FULL/fwload"; do
		for name in x.bin bad.bin none.bin; do
			request "$name"
			# shellcheck disable=SC2086 # $sh is a command line
			run kernel_env timeout "$GUARD" $sh "$REPO/firmware.agent" firmware
			case $name in
			x.bin) want=0 load=10 ;;
			bad.bin) want=2 load=1-1 ;;
			*) want=1 load=-1 ;;
			esac
			[ "$st" = "$want" ] || fail "$sh, run dir $RUN, $name: status $st, want $want; $(cat "$T/stderr")"
			file_is "$REQ/loading" "$load" "loading ($sh, run dir $RUN, $name)"
		done
		no_file "$RUN/conf.cache" "a cache in a run directory that cannot hold one"
	done
	[ "$(find "$FULL" ! -type d ! -name filler)" = "" ] || fail "$sh: left in the full run directory: $(find "$FULL")"
done
case $tried in *dash*busybox*) ;; *) fail "dash and busybox must be there: tried$tried" ;; esac
echo "shells tried:$tried"

# Room again: the cache is made, and used.
rm "$FULL/filler"
RUN=$FULL/fwload
request x.bin
run agent firmware
status_is 0
[ "$(tail -n 1 "$RUN/conf.cache")" = fwload_cache_end=1 ] || fail "no cache once there is room"
