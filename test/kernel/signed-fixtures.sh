#!/bin/sh
# SPDX-License-Identifier: MIT
# signed-fixtures.sh DIR - the keys, images, manifests and signatures of
# cases/signed.sh, made in DIR by guest-init before the chroot, with the
# host's signify-openbsd (neither guest root has one; the host's is
# visible there): keys a, b and x (KEYNUM in a.num, b.num, x.num);
# fwload-test-signed.bin and fwload-test-signed2.bin; SUMS listing both,
# signed by each key (SUMS.a.sig, SUMS.b.sig, SUMS.x.sig); BIG, SUMS and
# 3000 more lines (a distribution's whole firmware), signed by a
# (BIG.a.sig), for the timing. Exit status 0, or 1 with a line on stderr.
set -eu
d=$1
mkdir -p "$d"
cd "$d"
command -v signify-openbsd >/dev/null 2>&1 || {
	echo "signed-fixtures.sh: no signify-openbsd on the host (test/deps.sh kernel installs it)" >&2
	exit 1
}
for k in a b x; do
	signify-openbsd -G -n -p "$k.pub" -s "$k.sec" >/dev/null 2>&1 </dev/null
	sed -n 2p "$k.pub" | base64 -d | od -An -tx1 -j2 -N8 | tr -d ' \n' >"$k.num"
done
head -c 100000 /dev/urandom >fwload-test-signed.bin
head -c 4096 /dev/urandom >fwload-test-signed2.bin
sha256sum fwload-test-signed.bin fwload-test-signed2.bin >SUMS
cp SUMS BIG
awk 'BEGIN { for (i = 0; i < 3000; i++) printf "%064x  vendor/file-%d.bin\n", i, i }' >>BIG
for k in a b x; do
	signify-openbsd -S -s "$k.sec" -m SUMS -x "SUMS.$k.sig" >/dev/null 2>&1 </dev/null
done
signify-openbsd -S -s a.sec -m BIG -x BIG.a.sig >/dev/null 2>&1 </dev/null
rm -f a.sec b.sec x.sec
