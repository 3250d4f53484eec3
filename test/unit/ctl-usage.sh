# SPDX-License-Identifier: MIT
# fwloadctl --help prints its usage on stdout (exit 0), --version its name
# and the VERSION (exit 0); anything else is a usage error (100, usage on
# stderr). firmware.agent's old options run fwloadctl's commands, with a
# deprecation note on stderr.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
needs fwloadctl

run ctl --help
status_is 0
stderr_is ''
grep -q '^usage: fwloadctl setup \[--helper | --hotplugd \[--own\]\] \[--replace\]$' "$T/stdout" || fail "usage: $(cat "$T/stdout")"
for cmd in 'rescan \[--watch SECONDS\]' status 'explain NAME \[DEVPATH\]'; do
	grep -q "^       fwloadctl $cmd\$" "$T/stdout" || fail "usage lacks $cmd: $(cat "$T/stdout")"
done
run ctl --version
status_is 0
read -r v <"$REPO/VERSION"
stdout_is "fwloadctl $v"
for args in '' bogus '--setup' 'status x'; do
	# shellcheck disable=SC2086 # words
	run ctl $args
	status_is 100
	stdout_is ''
	grep -q '^usage: fwloadctl' "$T/stderr" || fail "'$args': stderr: $(cat "$T/stderr")"
done

# The agent's aliases of fwloadctl's commands are gone (0.2.0, as 0.1.0
# said): a usage error that names fwloadctl.
for opt in --setup --rescan --status --explain --bogus; do
	run agent "$opt"
	status_is 100
	stdout_is ''
	stderr_is "firmware.agent: unknown option $opt (setup, rescan, status, explain: fwloadctl)"
done
