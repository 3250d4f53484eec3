# SPDX-License-Identifier: MIT
# Every file the README names and every recipe file is in git, no tracked
# file is ignored (the old "fwload" rule hid package/fwload/), and no tracked
# name has a byte outside printable ASCII. The same check must find each of
# those defects planted in a scratch clone.
# shellcheck disable=SC2016 # backquotes and $ are literal text here
# shellcheck source=lib.sh
. "$REPO/test/package/lib.sh"
need_git

# The recipe files, and what they name.
recipes="LICENSE VERSION NEWS
contrib/kernel/fwload.config
contrib/buildroot/external.desc contrib/buildroot/Config.in contrib/buildroot/external.mk
contrib/buildroot/package/fwload/Config.in contrib/buildroot/package/fwload/fwload.mk
contrib/buildroot/package/fwload/S09fwload contrib/buildroot/package/fwload/S99fwload-settle
contrib/yocto/conf/layer.conf contrib/yocto/recipes-support/fwload/fwload_$VERSION.bb
contrib/yocto/recipes-kernel/linux/linux-yocto_%.bbappend
contrib/yocto/recipes-kernel/linux/files/fwload.cfg
contrib/alpine/APKBUILD contrib/alpine/fwload.initd contrib/alpine/fwload-settle.initd
contrib/openwrt/fwload/Makefile contrib/openwrt/fwload/files/fwload.hotplug
contrib/openwrt/fwload/files/fwload.init contrib/openwrt/fwload/files/fwload-settle.init
contrib/init/systemd/fwload.service contrib/init/systemd/fwload-settle.service
contrib/init/sysvinit/fwload contrib/init/sysvinit/fwload-settle
contrib/init/runit/core-services/01-fwload.sh contrib/init/runit/core-services/97-fwload-settle.sh
contrib/init/s6/fwload-setup/up contrib/init/s6/fwload-settle/up
debian/control debian/rules debian/changelog debian/copyright debian/source/format debian/README.Debian"

# check DIR: one line per problem in the git checkout DIR.
check() {
	(
		cd "$1" || exit 111
		# Paths the README names: `contrib/...`, `doc/...`, `man/...`,
		# `debian/...` in backquotes, and the same as link targets.
		{
			LC_ALL=C grep -o '`\(contrib\|doc\|man\|debian\)/[^`]*`' README.md | tr -d '`'
			LC_ALL=C grep -o '](\(contrib\|doc\|man\|debian\)/[^)#]*' README.md | cut -c3-
		} | sort -u | while IFS= read -r p; do
			[ -n "$(git ls-files -- "$p")" ] ||
				echo "README.md names $p, which is not in git ls-files"
		done
		for p in $recipes; do
			[ -n "$(git ls-files -- "$p")" ] || echo "recipe file $p is not in git ls-files"
		done
		# What Buildroot's Config.in sources, and the link Yocto's kernel
		# fragment is, must resolve to tracked files.
		sed -n 's|^source "\$BR2_EXTERNAL_FWLOAD_PATH/\(.*\)"$|contrib/buildroot/\1|p' \
			contrib/buildroot/Config.in 2>/dev/null | while IFS= read -r p; do
			[ -n "$(git ls-files -- "$p")" ] || echo "contrib/buildroot/Config.in sources $p, which is not in git"
		done
		git ls-files -ci --exclude-standard | sed 's/^/tracked but ignored: /'
		# Every byte of every name printable ASCII (a newline in a name
		# becomes \001 here, so it shows too).
		git ls-files -z | LC_ALL=C tr '\n\000' '\001\n' | LC_ALL=C grep '[^ -~]' |
			LC_ALL=C sed -n l | sed 's/^/name with a non-printable byte: /'
	)
}

# The real tree.
check "$REPO" >"$T/problems"
[ -s "$T/problems" ] && fail "$(cat "$T/problems")"
[ "$(cat "$REPO/contrib/yocto/recipes-kernel/linux/files/fwload.cfg")" = "$(cat "$REPO/contrib/kernel/fwload.config")" ] ||
	fail "contrib/yocto/recipes-kernel/linux/files/fwload.cfg is not contrib/kernel/fwload.config"

# A clone with one of each defect planted: the check must name all four.
git clone -q "$REPO" "$T/bad" 2>"$T/err" || fail "git clone: $(cat "$T/err")"
cd "$T/bad" || exit 111
git rm -q contrib/openwrt/fwload/Makefile || fail "git rm failed"
printf 'See `doc/not-there.md`.\n' >>README.md
echo x >stray.o
git add -f stray.o
bad=$(printf 'bad\001name')
echo x >"$bad"
git add -- "$bad"
check "$T/bad" >"$T/problems"
for want in 'README.md names doc/not-there.md' 'recipe file contrib/openwrt/fwload/Makefile is not' \
	'tracked but ignored: stray.o' 'name with a non-printable byte: bad\001name'; do
	grep -qF -- "$want" "$T/problems" || fail "planted defect not found ($want); found: $(cat "$T/problems")"
done
[ "$(wc -l <"$T/problems")" -eq 4 ] || fail "more than the four planted defects: $(cat "$T/problems")"
