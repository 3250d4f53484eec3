# SPDX-License-Identifier: MIT
# Only executable regular files named *.hotplug run: editor backups, READMEs,
# non-executable files and directories are ignored.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkdir -p "$HOOKS/firmware" "$HOOKS/default"
for f in firmware/10-x.hotplug~ firmware/README firmware/10-x.hotplug.orig \
	firmware/.20-hidden.hotplug~ firmware/30-noexec.hotplug default/README \
	default/10-x.hotplug.dpkg-old firmware/hotplug; do
	printf '#!/bin/sh\necho "%s" >>"%s"\n' "$f" "$T/ran" >"$HOOKS/$f"
	chmod 755 "$HOOKS/$f"
done
chmod 644 "$HOOKS/firmware/30-noexec.hotplug"
mkdir "$HOOKS/firmware/40-dir.hotplug"
printf '#!/bin/sh\necho ok >>"%s"\n' "$T/ran" >"$HOOKS/firmware/50-ok.hotplug"
chmod 755 "$HOOKS/firmware/50-ok.hotplug"
# A symlink to an executable runs (that is how the agent is installed).
ln -s ../firmware/50-ok.hotplug "$HOOKS/default/60-link.hotplug"
# A dangling symlink is not a hook.
ln -s nowhere "$HOOKS/default/70-dangling.hotplug"

request x.bin
run hotplug firmware
status_is 0
stderr_is ''
printf 'ok\nok\n' | cmp -s - "$T/ran" || fail "want only 50-ok.hotplug and its link to run, got: $(cat "$T/ran")"
