# SPDX-License-Identifier: MIT
# The configuration cache is shell the agent runs as root: it is run only
# when it is a regular file of root's that nobody else can write, in a run
# directory of root's that nobody else can write and that is no symbolic
# link. A cache another user could have changed is never run: the event is
# served from the files (and the cache made again where the run directory
# is root's alone; else none is made). Root only (files of another owner).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

[ "$(id -u)" = 0 ] || {
	echo "SKIP: not root (the case makes files of another owner)"
	exit 0
}
R=$T/root
mkfw "$R/lib/firmware/x.bin" "the image"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
aged
C=$RUN/conf.cache
P=$T/pwned

# serve: one event for x.bin; it is loaded, and no added line ran.
serve() {
	request x.bin
	run agent firmware
	status_is 0
	file_is "$REQ/data" "the image" "data ($1)"
	no_file "$P" "$1: a line added to the cache ran as root"
}
# tamper: one line added to the cache, before its end line.
tamper() {
	sed -i "\$i touch '$P'" "$C"
	grep -q pwned "$C" || fail "cannot add a line to the cache"
}

serve "the first event"
[ -f "$C" ] || fail "no cache made"

# A cache others can write, of another owner: never run; made again.
tamper
chown 65534 "$C"
chmod 666 "$C"
serve "a cache of uid 65534, mode 666"
{ [ -f "$C" ] && ! grep -q pwned "$C"; } || fail "the cache was not made again: $(cat "$C" 2>/dev/null)"
{ [ "$(stat -c %u "$C")" = 0 ] && [ -z "$(find "$C" -perm /022)" ]; } || fail "the cache made again is not root's alone: $(ls -l "$C")"

# Root's, but writable by its group or by others: never run.
for mode in 664 646; do
	tamper
	chmod "$mode" "$C"
	serve "a cache of mode $mode"
done

# A run directory others can write (the cache in it root's and 600, as if
# made before the slip): never run, and no cache made in it.
tamper
chmod 600 "$C"
chmod 777 "$RUN"
serve "a run directory of mode 777"
[ ! -f "$C" ] || grep -q pwned "$C" || fail "a cache was made in a run directory others can write"
log_matches "fwload: $(ere "$RUN"): not root's alone .*: no configuration cache, nothing held, until it is"
# Nothing held there either: a name not found is cancelled at once.
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" HOLD=30
request missing.bin
run agent firmware
status_is 1
log_matches "fwload: cancelled missing\.bin for .*\(HOLD=30, but the run directory $(ere "$RUN") is not root's alone\)"
[ ! -d "$RUN/held" ] || [ -z "$(ls -A "$RUN/held")" ] || fail "a hold record in a run directory others can write"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
aged
chmod 700 "$RUN"
rm -f "$C"
serve "the run directory root's again"
[ -f "$C" ] || fail "no cache made once the run directory is root's again"

# A run directory of another owner (mode 700): never run.
tamper
chown 65534 "$RUN"
serve "a run directory of uid 65534"
chown 0 "$RUN"

# A run directory that is a symbolic link (to a directory of root's): the
# cache through it never run.
rm -f "$C"
serve "the run directory root's"
tamper
mv "$RUN" "$T/real-run"
ln -s "$T/real-run" "$RUN"
serve "a run directory that is a symbolic link"
rm "$RUN"
mv "$T/real-run" "$RUN"
rm -f "$C"
serve "the run directory root's once more"

# A cache that is a symbolic link to a file of root's: never run.
tamper
mv "$C" "$T/cache.elsewhere"
ln -s "$T/cache.elsewhere" "$C"
serve "a cache that is a symbolic link"
