# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# runit stage 1 (Void: /etc/runit/core-services/97-fwload-settle.sh):
# "fwloadctl settle" after 03-filesystems.sh has mounted the local file
# systems (remote ones come in stage 2, from their services): the end of
# holding (HOLD= in /etc/fwload.conf). Sourced: no exit.
if command -v fwloadctl >/dev/null; then
	fwloadctl settle >/dev/null
fi
