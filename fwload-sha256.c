/* SPDX-License-Identifier: MIT */
/*
 * fwload-sha256 - a digest check for fwload's COMMAND slot.
 *
 *   fwload-sha256 HEX [COMMAND [ARG]...]
 *
 * Copies standard input (or, with COMMAND, an absolute path, the output of
 * COMMAND run on our standard input) to standard output, hashing it on the
 * way. Exits 0 only if COMMAND (if any) exited 0 and the SHA-256 of what
 * went through equals HEX (64 hex digits). fwload writes "0" only when its
 * COMMAND exits 0, so
 *
 *   fwload DEVPATH FILE /lib/fwload/fwload-sha256 HEX /usr/bin/xz -dc
 *
 * commits only an image whose digest is HEX.
 *
 * Exit status: 0 match, 1 mismatch, 2 COMMAND failed, 100 usage,
 * 111 system error. 0 means, under every argument list, that what went to
 * standard output is the verified data: --help and --version (for people)
 * print on standard output and exit 100, so in a COMMAND slot they are a
 * usage error, never an image.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#define _TIME_BITS 64
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "util.h"

static const char usage_text[] =
	"usage: fwload-sha256 HEX [COMMAND [ARG]...]\n"
	"       fwload-sha256 --help | --version\n"
	"Copies standard input (or absolute COMMAND's output) to standard output;\n"
	"exits 0 only if COMMAND exited 0 and the SHA-256 of the data is HEX.\n";

/* SHA-256 as specified in FIPS 180-4 (Secure Hash Standard), 6.2. */
struct sha256 {
	uint32_t h[8];
	uint64_t len;           /* bytes so far */
	unsigned char buf[64];  /* partial block */
};

static const uint32_t k[64] = {  /* FIPS 180-4, 4.2.2 */
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, int n)
{
	return (x >> n) | (x << (32 - n));
}

/* FIPS 180-4, 6.2.2: one 64-byte block. */
static void block(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], v[8];
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (; i < 64; i++)
		w[i] = (ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10)) + w[i - 7] +
		       (ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3)) + w[i - 16];
	memcpy(v, h, sizeof(v));
	for (i = 0; i < 64; i++) {
		uint32_t t1 = v[7] + (ror(v[4], 6) ^ ror(v[4], 11) ^ ror(v[4], 25)) +
			      ((v[4] & v[5]) ^ (~v[4] & v[6])) + k[i] + w[i];
		uint32_t t2 = (ror(v[0], 2) ^ ror(v[0], 13) ^ ror(v[0], 22)) +
			      ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));

		memmove(v + 1, v, 7 * sizeof(v[0]));
		v[4] += t1;
		v[0] = t1 + t2;
	}
	for (i = 0; i < 8; i++)
		h[i] += v[i];
}

static void update(struct sha256 *s, const unsigned char *p, size_t n)
{
	while (n > 0) {
		size_t fill = s->len % 64, take = 64 - fill < n ? 64 - fill : n;

		if (fill == 0 && n >= 64) {
			block(s->h, p);
			take = 64;
		} else {
			memcpy(s->buf + fill, p, take);
			if (fill + take == 64)
				block(s->h, s->buf);
		}
		s->len += take;
		p += take;
		n -= take;
	}
}

/* FIPS 180-4, 5.1.1 padding; the digest as 64 lowercase hex digits. */
static void final(struct sha256 *s, char hex[65])
{
	uint64_t bits = s->len * 8;
	unsigned char pad[72] = { 0x80 };
	size_t n = 64 - (s->len + 8) % 64;  /* 1..64 bytes of padding */

	for (int i = 0; i < 8; i++)
		pad[n + i] = (unsigned char)(bits >> (56 - 8 * i));
	update(s, pad, n + 8);
	for (int i = 0; i < 64; i++)
		hex[i] = "0123456789abcdef"[s->h[i / 8] >> (28 - 4 * (i % 8)) & 15];
	hex[64] = '\0';
}

#define say(...) say_as("fwload-sha256", __VA_ARGS__)

/* want = s in lower case if s is exactly 64 hex digits; else -1. */
static int digest_arg(const char *s, char want[65])
{
	for (int i = 0; i < 64; i++) {
		if (!s[i] || !strchr("0123456789abcdefABCDEF", s[i]))
			return -1;
		want[i] = (char)(s[i] | 0x20);
	}
	want[64] = '\0';
	return s[64] ? -1 : 0;
}

int main(int argc, char **argv)
{
	static unsigned char buf[64 * 1024];
	struct sha256 s = { { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
			      0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 }, 0, { 0 } };
	char want[65], got[65];
	int in = 0, ws = 0;
	pid_t pid = 0;
	ssize_t r;

	if (sanitize_fds() < 0)
		return EX_SYSTEM;
	/* For people; status 100, so that no caller can take it for an image. */
	help_version(argc, argv, usage_text, "fwload-sha256 " FWLOAD_VERSION "\n", EX_USAGE);
	if (argc < 2 || digest_arg(argv[1], want) < 0 || (argc > 2 && argv[2][0] != '/')) {
		say("want 64 hex digits, then an absolute COMMAND if any");
		(void)write_all(2, usage_text, sizeof(usage_text) - 1);
		return EX_USAGE;
	}
	signal(SIGPIPE, SIG_IGN);  /* a reader gone: EPIPE, said below */
	if (argc > 2) {
		int p[2];

		/* Default signals, an empty mask, fds 0-2 only (the pipe is
		 * >= 3: fds 0-2 were open when it was made). */
		if (pipe(p) < 0 ||
		    (pid = child_start(argv[2], argv + 2, environ, (const int[3]){ -1, p[1], -1 }, 0,
				       "fwload-sha256")) < 0) {
			say("cannot start %q%e", argv[2], errno);
			return EX_SYSTEM;
		}
		close(p[1]);
		in = p[0];
	}
	while ((r = read(in, buf, sizeof(buf))) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || write_all(1, buf, (size_t)r) < 0) {
			say(r < 0 ? "cannot read%e" : "cannot write%e", errno);
			if (pid)
				kill(pid, SIGKILL), waitpid(pid, NULL, 0);
			return EX_SYSTEM;
		}
		update(&s, buf, (size_t)r);
	}
	while (pid && waitpid(pid, &ws, 0) < 0)
		if (errno != EINTR) {
			say("cannot wait for %q%e", argv[2], errno);
			return EX_SYSTEM;
		}
	if (!WIFEXITED(ws) || WEXITSTATUS(ws)) {
		say(WIFEXITED(ws) ? "%q failed" : "%q was killed", argv[2]);
		return 2;
	}
	final(&s, got);
	if (strcmp(got, want)) {
		say("SHA-256 mismatch: got %s, want %s", got, want);
		return 1;
	}
	return 0;
}
