# SPDX-License-Identifier: MIT
# SIGNED=yes on the real request path: the manifest, in a directory others
# can write, counts only with a signify signature by a key of KEYS. The
# keys, the manifests and their signatures were made on the host's
# signify-openbsd by guest-init (test/kernel/signed-fixtures.sh): a signed
# image served; a tampered manifest, a signature by a key KEYS lacks and,
# after rotation (a second key: either's signature serves), revocation (a
# key file removed) refused, ENOENT to the driver. Each refusal is fwload
# -c's "cancelled" line: "-1" alone, nothing written to data. Then the
# cost, printed for doc/performance.md: fwload-verify on this kernel, and
# a request with the verdict from the cache, verified again at the event,
# or with MANIFEST= alone.
. ../lib.sh
S=/fixtures/signed
[ -f "$S/SUMS.a.sig" ] || fail "no $S: guest-init could not make it (signify-openbsd on the host: test/deps.sh kernel)"
K=/run/fwkeys
D=/run/fwdata
M=$D/SUMS
trap 'rm -rf "$K" "$D"' EXIT
{ mkdir -m 755 "$K" && mkdir -m 777 "$D"; } || fail "cannot make $K, $D"
{ cp "$S/a.pub" "$K/" && cp "$S/fwload-test-signed.bin" "$S/fwload-test-signed2.bin" "$FW/"; } || fail "cannot copy the fixtures"
na=$(cat "$S/a.num") nx=$(cat "$S/x.num")
# manifest [KEY]: $M the signed manifest (others may write it), and KEY's
# signature (a) as $M.sig.
manifest() {
	{ cp "$S/SUMS" "$M" && chmod 666 "$M" && cp "$S/SUMS.${1:-a}.sig" "$M.sig"; } || fail "cannot write $M"
}
manifest
conf FIRMWARE_PATH=/run/fw LOG=kmsg "MANIFEST=$M" SIGNED=yes "KEYS=$K" UNLISTED=refuse
via="via /lib/fwload/fwload-sha256 for "

# refused WHY: the request fails with ENOENT, cancelled (nothing written to
# data) with fwload-verify's line WHY.
n=0
refused() {
	n=$((n + 1))
	request_fails fwload-test-signed.bin 2
	kmsg "fwload: cancelled fwload-test-signed.bin for /devices/virtual/misc/test_firmware/fwload-test-signed.bin; SIGNED=yes: the manifest is not vouched for: $1; every image refused"
}

request fwload-test-signed.bin
kmsg "fwload: loaded fwload-test-signed.bin \(100000 bytes, [0-9]+ ms\) from $FW/fwload-test-signed.bin $via"
request fwload-test-signed2.bin

# Tampered: a line added after signing.
echo "0000000000000000000000000000000000000000000000000000000000000000  fwload-test-other.bin" >>"$M"
refused "$M: bad signature \(key $na, $K/a.pub\)"
# Signed by a key KEYS lacks.
manifest x
refused "$M.sig: no key numbered $nx in $K"
# Rotation: b.pub added; b's and a's signatures serve.
cp "$S/b.pub" "$K/" || fail "cannot copy b.pub"
manifest b
request fwload-test-signed.bin
manifest a
request fwload-test-signed.bin
# Revocation: a.pub removed; a's signature finds no key, b's serves.
rm "$K/a.pub"
refused "$M.sig: no key numbered $na in $K"
manifest b
request fwload-test-signed.bin
echo "ok: rotation and revocation; $n refusals, each cancelled before a byte reached data"

# The cost. fwload-verify -c: 100 runs (20 for BIG), the SUMS of 2 lines and BIG's 3,002
# lines (254 KiB): ms a check, from the boot clock (10 ms steps) over the
# runs; beside it a program that does nothing but start (fwload-stamp of /).
{ cp "$S/a.pub" "$K/" && cp "$S/BIG" "$D/" && cp "$S/BIG.a.sig" "$D/BIG.sig"; } || fail "cannot copy BIG"
# per_run N COMMAND...: $per, the ms of one run of COMMAND (to a tenth).
per_run() {
	_n=$1
	shift
	_t0=$(uptime_ms)
	_i=0
	while [ "$_i" -lt "$_n" ]; do
		"$@" >/dev/null 2>&1 || fail "$* failed"
		_i=$((_i + 1))
	done
	_t1=$(uptime_ms)
	per=$(((_t1 - _t0) * 10 / _n))
	per=$((per / 10)).$((per % 10))
}
per_run 100 /lib/fwload/fwload-stamp /
start=$per
per_run 100 /lib/fwload/fwload-verify -k "$K" -c "$M"
small=$per
per_run 20 /lib/fwload/fwload-verify -k "$K" -c "$D/BIG"
big=$per
echo "ok: cost on this kernel: fwload-verify -c $small ms a check (2 lines), $big ms (3,002 lines, $(wc -c <"$D/BIG") bytes); a program's start $start ms"
# A request's time as the driver sees it (fwtrigger's ms), the mean of 10:
# the verdict from the cache; verified at the event (the .sig touched before
# each: no cache, the files read again); MANIFEST= alone (root's manifest).
# mean_ms NAME: $mean, of 10 requests for NAME; before each, $before runs.
mean_ms() {
	_all='' _i=0
	while [ "$_i" -lt 10 ]; do
		# shellcheck disable=SC2086 # a command line: ":" or "touch FILE"
		$before
		request "$1" >/dev/null
		_all="$_all $ms"
		_i=$((_i + 1))
	done
	mean=$(echo "$_all" | awk '{ for (i = 1; i <= NF; i++) s += $i; printf "%.1f", s / NF }')
}
before=:
request fwload-test-signed2.bin >/dev/null
sleep 1  # the inputs older than a second: the next cache is kept
request fwload-test-signed2.bin >/dev/null
mean_ms fwload-test-signed2.bin
cached=$mean
before="touch $M.sig"
mean_ms fwload-test-signed2.bin
each=$mean
{ cp "$S/SUMS" /run/SUMS.root && chmod 644 /run/SUMS.root; } || fail "cannot copy SUMS"
conf FIRMWARE_PATH=/run/fw LOG=kmsg MANIFEST=/run/SUMS.root UNLISTED=refuse
before=:
request fwload-test-signed2.bin >/dev/null
sleep 1
request fwload-test-signed2.bin >/dev/null
mean_ms fwload-test-signed2.bin
plain=$mean
rm -f /run/SUMS.root
echo "ok: a 4 KiB request: $cached ms SIGNED=yes (the cache's verdict), $each ms (verified at the event), $plain ms MANIFEST= alone"
