# SPDX-License-Identifier: MIT
# A program built for other paths or another compiler is never installed:
# "make && make install PREFIX=/usr" rebuilds hotplugd, which compiles in
# $(SBINDIR)/hotplug (a tree where /usr is not merged would otherwise get a
# hotplugd that runs /sbin/hotplug); a second install with the same paths
# rebuilds nothing; another CC rebuilds every program (a host build left in
# a tree that is then cross-built, as Buildroot's rsync of a local source
# does).
# shellcheck source=lib.sh
. "$REPO/test/package/lib.sh"
need make gcc strings

S=$T/src
copy_tree "$S"
make -s -C "$S" >"$T/out" 2>&1 || fail "make: $(cat "$T/out")"
strings -a "$S/hotplugd" | grep -qx /sbin/hotplug || fail "make: hotplugd does not name /sbin/hotplug"
make -s -C "$S" install PREFIX=/usr DESTDIR="$T/a" >"$T/out" 2>&1 || fail "make install PREFIX=/usr: $(cat "$T/out")"
strings -a "$T/a/usr/sbin/hotplugd" | grep -x '/[a-z/]*/hotplug' >"$T/named"
file_named=$(cat "$T/named")
[ "$file_named" = /usr/sbin/hotplug ] ||
	fail "make && make install PREFIX=/usr: the installed hotplugd runs '$file_named', not /usr/sbin/hotplug"

# The same paths again: nothing is rebuilt (the same files, the same times).
ls -l --time-style=+%s.%N "$S/fwload" "$S/hotplugd" "$S/fwload-sha256" >"$T/before"
sleep 1
make -s -C "$S" install PREFIX=/usr DESTDIR="$T/b" >"$T/out" 2>&1 || fail "second make install: $(cat "$T/out")"
ls -l --time-style=+%s.%N "$S/fwload" "$S/hotplugd" "$S/fwload-sha256" >"$T/after"
cmp -s "$T/before" "$T/after" || fail "a second install with the same paths rebuilt: $(diff "$T/before" "$T/after")"

# Another compiler (the same gcc, named differently): every program rebuilt.
make -s -C "$S" CC="gcc -g0" >"$T/out" 2>&1 || fail "make CC='gcc -g0': $(cat "$T/out")"
ls -l --time-style=+%s.%N "$S/fwload" "$S/hotplugd" "$S/fwload-sha256" >"$T/cc"
while read -r _ _ _ _ _ t1 f; do
	t2=$(sed -n "s|.* \([0-9.]*\) $f\$|\1|p" "$T/cc")
	[ "$t1" != "$t2" ] || fail "make CC='gcc -g0' did not rebuild $f"
done <"$T/after"
# make clean removes the records too.
make -s -C "$S" clean >/dev/null 2>&1
for f in "$S"/.*.cmd; do
	[ ! -e "$f" ] || fail "make clean left $f"
done
echo "note: make && make install PREFIX=/usr installs a hotplugd that runs /usr/sbin/hotplug; same paths: nothing rebuilt; another CC: all rebuilt"
