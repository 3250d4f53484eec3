# SPDX-License-Identifier: MIT
# Any number of search directories: with 100 in FIRMWARE_PATH, an image in
# the last one loads, also through a link that needs every directory as
# one of fwload's -r roots (a link from the last directory into the first);
# a name in none is cancelled.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
path=
i=1
while [ $i -le 100 ]; do
	path=$path${path:+:}/d$i
	mkdir -p "$R/d$i"
	i=$((i + 1))
done
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=$path"
mkimage "$R/d100/plain.bin" 5000
mkimage "$R/d1/real.bin" 6000
ln -s ../d1/real.bin "$R/d100/linked.bin"

request plain.bin
run agent firmware
status_is 0
data_is "$R/d100/plain.bin"
request linked.bin
run agent firmware
status_is 0
data_is "$R/d1/real.bin"
request none.bin
run agent firmware
status_is 1
file_is "$REQ/loading" -1
log_matches "fwload: cancelled none\\.bin for .*; not found in $(ere "$R") .*:/d99:/d100"
