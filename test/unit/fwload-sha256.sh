# SPDX-License-Identifier: MIT
# fwload-sha256 HEX [COMMAND [ARG]...]: copies its input (or COMMAND's
# output) through, and exits 0 only if the SHA-256 of what went through is
# HEX and COMMAND exited 0. The FIPS 180-4 examples (and the empty message
# and a million 'a') with their published digests; random data of every
# length around the 64-byte block and its 56-byte padding limit, and 1 MiB,
# against sha256sum. Chained into fwload's COMMAND slot, a mismatch or a
# failing COMMAND ends in "-1" and says why.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
needs fwload-sha256

SHA=$LIBEXEC/fwload-sha256

# passes FILE HEX: the filter copies FILE whole and exits 0.
passes() {
	run clean "$SHA" "$2" <"$1"
	status_is 0
	cmp -s "$1" "$T/stdout" || fail "the output differs from $1"
	stderr_is ''
}

: >"$T/empty"
passes "$T/empty" e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
printf abc >"$T/abc"
passes "$T/abc" ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
passes "$T/abc" BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD
printf abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq >"$T/448"
passes "$T/448" 248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1
printf abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu >"$T/896"
passes "$T/896" cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1
head -c 1000000 /dev/zero | tr '\0' a >"$T/million"
passes "$T/million" cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0

for n in 1 55 56 57 63 64 65 119 120 127 128 129 4095 4096 4097 65535 65536 65537 1048576; do
	mkimage "$T/img" "$n"
	sum=$(sha256sum <"$T/img") || fail "sha256sum"
	passes "$T/img" "${sum%% *}"
done
# 1 MiB through a pipe, in odd pieces.
sum=$(sha256sum <"$T/img")
dd if="$T/img" bs=7777 2>/dev/null | run clean "$SHA" "${sum%% *}"
st=$?
status_is 0
cmp -s "$T/img" "$T/stdout" || fail "1 MiB through a pipe differs"

# A mismatch: status 1, both digests said; the data still went through.
run clean "$SHA" ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ac <"$T/abc"
status_is 1
file_is "$T/stdout" abc stdout
stderr_is "fwload-sha256: SHA-256 mismatch: got ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad, want ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ac"

# COMMAND: its output is hashed (a decompressor), our input is its input.
/usr/bin/xz -c "$T/img" >"$T/img.xz" || fail xz
run clean "$SHA" "${sum%% *}" /usr/bin/xz -dc <"$T/img.xz"
status_is 0
cmp -s "$T/img" "$T/stdout" || fail "xz -dc through the filter differs"
# COMMAND fails (a truncated archive): status 2 even if the digest matched
# what came out, and COMMAND's own message is there.
head -c 1000 "$T/img.xz" >"$T/half.xz"
part=$(/usr/bin/xz -dc <"$T/half.xz" 2>/dev/null | sha256sum)
run clean "$SHA" "${part%% *}" /usr/bin/xz -dc <"$T/half.xz"
status_is 2
grep -q '^fwload-sha256: /usr/bin/xz failed$' "$T/stderr" || fail "no failure line: $(cat "$T/stderr")"
grep -q 'xz: ' "$T/stderr" || fail "xz's own message is missing: $(cat "$T/stderr")"
run clean "$SHA" "${sum%% *}" /nonexistent/xz -dc <"$T/img.xz"
status_is 2
grep -q '^fwload-sha256: cannot run /nonexistent/xz: ' "$T/stderr" || fail "no 'cannot run': $(cat "$T/stderr")"

# Usage: 100, nothing read, nothing on stdout. The digest position takes
# exactly 64 hex digits: 63 and 65 are refused, and so is anything else.
d63=ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015a
[ ${#d63} -eq 63 ] || fail "the 63-digit digest has ${#d63}"
for bad in '' abc "$d63" "${d63}dd" "${d63}d " " ${d63}d" "${d63}g" \
	ga7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad \
	--help- -h --; do
	run clean "$SHA" "$bad" <"$T/abc"
	status_is 100
	stdout_is ''
	grep -q '^fwload-sha256: want 64 hex digits' "$T/stderr" || fail "'$bad': no usage line: $(cat "$T/stderr")"
done
run clean "$SHA" </dev/null
status_is 100
run clean "$SHA" ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad xz -dc <"$T/abc"
status_is 100
# --help and --version, alone, for people: the text on stdout and status
# 100, never 0 (status 0 means verified data, whatever the arguments).
run clean "$SHA" --version </dev/null
status_is 100
stdout_is "fwload-sha256 $(cat "$REPO/VERSION")"
run clean "$SHA" --help </dev/null
status_is 100
grep -q '^usage: fwload-sha256 HEX' "$T/stdout" || fail "--help: $(cat "$T/stdout")"
for args in '--help /bin/cat' '--version /bin/cat' '--help --version'; do
	# shellcheck disable=SC2086 # two words on purpose
	run clean "$SHA" $args <"$T/abc"
	status_is 100
	stdout_is ''
done

# In fwload's COMMAND slot: the image loads when the digest matches, from a
# file, standard input, and chained with a decompressor; a mismatch ends in
# "-1" with fwload-sha256's line in fwload's.
request x.bin
run clean "$FWLOAD" -s "$SYS" -l "$LOGF" "$E_DEVPATH" "$T/img" "$SHA" "${sum%% *}"
status_is 0
file_is "$REQ/loading" 10
data_is "$T/img"
request x.bin
run clean "$FWLOAD" -s "$SYS" "$E_DEVPATH" - "$SHA" "${sum%% *}" <"$T/img"
status_is 0
data_is "$T/img"
request x.bin
run clean "$FWLOAD" -s "$SYS" "$E_DEVPATH" "$T/img.xz" "$SHA" "${sum%% *}" /usr/bin/xz -dc
status_is 0
file_is "$REQ/loading" 10
data_is "$T/img"
request x.bin
run clean "$FWLOAD" -s "$SYS" -n x.bin "$E_DEVPATH" "$T/abc" "$SHA" ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ac
status_is 2
file_is "$REQ/loading" 1-1
stderr_is "fwload: x.bin: $SHA failed (exit status 1) on $T/abc: fwload-sha256: SHA-256 mismatch: got ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad, want ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ac; request aborted"
request x.bin
run clean "$FWLOAD" -s "$SYS" -n x.bin "$E_DEVPATH" "$T/half.xz" "$SHA" "${part%% *}" /usr/bin/xz -dc
status_is 2
file_is "$REQ/loading" 1-1

# A digest of "--help" or "--version" reaching the COMMAND slot (a bad
# manifest line), alone or before a decompressor: the request is aborted,
# the usage text is never committed as the image.
for args in --help --version '--help /bin/cat' '--version /bin/cat'; do
	request x.bin
	# shellcheck disable=SC2086 # words on purpose
	run clean "$FWLOAD" -s "$SYS" "$E_DEVPATH" "$T/abc" "$SHA" $args </dev/null
	status_is 2
	file_is "$REQ/loading" 1-1
done

# COMMAND starts with default signal actions and no fd above 2, whatever
# fwload-sha256 was started with (here SIGINT and SIGHUP ignored, fds 5 and
# 7 open). It writes nothing: the empty digest matches.
empty=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
(
	trap '' INT HUP
	exec 5<"$T/abc" 7>"$T/seven"
	# shellcheck disable=SC2016 # expanded by the COMMAND's shell
	exec "$SHA" "$empty" /bin/sh -c '
		grep "^SigIgn:" "/proc/$$/status" >&2
		for fd in 5 7; do [ ! -e "/proc/$$/fd/$fd" ] || echo "fd $fd is open" >&2; done' \
		</dev/null >"$T/stdout" 2>"$T/stderr"
)
st=$?
status_is 0
# Standard signals (1-31) only: 32 and 33 belong to the C library, and
# qemu-user (the cross layer) shows its own state for them.
ign=$(sed -n 's/^SigIgn:[[:space:]]*//p' "$T/stderr")
if [ -z "$ign" ] || [ $((0x$ign & 0x7fffffff)) != 0 ]; then
	fail "COMMAND inherits ignored signals: $(cat "$T/stderr")"
fi
grep -q 'fd . is open' "$T/stderr" && fail "COMMAND inherits fds: $(cat "$T/stderr")"
:
