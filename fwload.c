/* SPDX-License-Identifier: MIT */
/*
 * fwload - answer one Linux firmware request through the sysfs fallback.
 *
 * The kernel's user-mode helper fallback creates SYSFS/DEVPATH/{loading,data}
 * and waits for user space to:
 *
 *   1. write "1" to loading       (start; discards anything written before)
 *   2. write the image to data    (at most one page per write(): loop)
 *   3. write "0" to loading       (commit: the driver gets the image)
 *      or "-1" to loading         (abort: the driver gets -ENOENT)
 *
 * fwload does exactly that, and every path after step 1 ends in exactly one
 * of "0" (complete, unchanged image) or "-1". It never holds the image in
 * memory: regular files go through sendfile(), streams through splice() or a
 * read/write loop.
 *
 * A command after FILE (a decompressor: "zstd -dcq", "xz -dc") gets FILE as
 * its standard input, and its output is the image: "0" only if it exits 0.
 * With -H, the SHA-256 of the image is computed on the way (read/write) and
 * "0" is written only if it matches.
 *
 * Exit status: 0 loaded, 1 cancelled as asked (-c), 2 image not delivered
 * (request aborted), 3 stopped by a signal (request aborted), 100 usage,
 * 111 system error (no request to answer).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>   /* rename() only: no stdio streams */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>

enum {
	EX_LOADED = 0,
	EX_CANCELLED = 1,
	EX_ABORTED = 2,
	EX_SIGNAL = 3,
	EX_USAGE = 100,
	EX_SYSTEM = 111,
};

enum log_target { TO_NONE, TO_KMSG, TO_SYSLOG, TO_FILE };

static const char usage_text[] =
	"usage: fwload [-v] [-s SYSFS] [-t SECONDS] [-n NAME] [-l kmsg|syslog|none|/FILE] [-m LIST]\n"
	"              [-r DIR]... [-H SHA256] DEVPATH FILE|- [COMMAND [ARG]...]\n"
	"       fwload [-v] [-s SYSFS] [-t SECONDS] [-n NAME] [-l kmsg|syslog|none|/FILE] [-m LIST] -c DEVPATH\n";

static volatile sig_atomic_t stop_signal;

static struct {
	const char *sysfs;
	const char *devpath;
	const char *name;
	const char *image;      /* path, or "-" for standard input */
	char *const *filter;    /* command that turns the image into the firmware */
	const char *source;     /* where the bytes come from, for messages */
	const char *missing;    /* -m: the list of missing firmware */
	int check_digest;       /* -H */
	unsigned char digest[32];
	const char *roots[64];  /* -r: the image must really lie inside one */
	int nroots;
	enum log_target log;
	const char *log_file;
	int verbose;
	long wait_s;
	struct timespec start;
} opt;

/* A message line, built without stdio. */
struct line {
	char buf[1024];
	size_t len;
};

static void add(struct line *l, const char *s)
{
	size_t n = strlen(s);

	if (n > sizeof(l->buf) - 1 - l->len)
		n = sizeof(l->buf) - 1 - l->len;
	memcpy(l->buf + l->len, s, n);
	l->len += n;
	l->buf[l->len] = '\0';
}

static void add_num(struct line *l, uint64_t v)
{
	char d[24];
	size_t i = sizeof(d) - 1;

	d[i] = '\0';
	do {
		d[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	add(l, d + i);
}

static int write_all(int fd, const char *p, size_t n);
static void send_syslog(const struct line *l, int failure);

/* One outcome line: to stderr (failures, or with -v), and to the log. */
static void say(struct line *l, int failure)
{
	if (failure || opt.verbose) {
		struct iovec v[3] = {
			{ .iov_base = (void *)"fwload: ", .iov_len = 8 },
			{ .iov_base = l->buf, .iov_len = l->len },
			{ .iov_base = (void *)"\n", .iov_len = 1 },
		};
		(void)!writev(2, v, 3);
	}
	if (opt.log == TO_KMSG || opt.log == TO_FILE) {
		/* One write() per line: /dev/kmsg takes each as one record. */
		struct line k = { .len = 0 };
		int fd = opt.log == TO_KMSG
			? open("/dev/kmsg", O_WRONLY | O_CLOEXEC | O_NOCTTY)
			: open(opt.log_file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0644);

		if (fd >= 0) {
			if (opt.log == TO_KMSG)
				add(&k, failure ? "<3>" : "<6>");
			add(&k, "fwload: ");
			add(&k, l->buf);
			add(&k, "\n");
			(void)write_all(fd, k.buf, k.len);
			close(fd);
		}
	} else if (opt.log == TO_SYSLOG) {
		send_syslog(l, failure);
	}
}

/* One datagram to /dev/log, daemon facility, without syslog(3): the
 * daemon stamps the time, and libc's syslog would pull in stdio. */
static void send_syslog(const struct line *l, int failure)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX, .sun_path = "/dev/log" };
	struct line m = { .len = 0 };
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return;
	add(&m, failure ? "<27>fwload[" : "<30>fwload[");  /* daemon.err, daemon.info */
	add_num(&m, (uint64_t)getpid());
	add(&m, "]: ");
	add(&m, l->buf);
	(void)!sendto(fd, m.buf, m.len, MSG_NOSIGNAL, (struct sockaddr *)&sa, sizeof(sa));
	close(fd);
}

/* "NAME: what PATH: strerror" */
static void fail(const char *what, const char *path, int err, const char *outcome)
{
	struct line l = { .len = 0 };

	add(&l, opt.name);
	add(&l, ": ");
	add(&l, what);
	if (path) {
		add(&l, " ");
		add(&l, path);
	}
	if (err) {
		add(&l, ": ");
		add(&l, strerror(err));
		add(&l, " (errno ");
		add_num(&l, (uint64_t)err);
		add(&l, ")");
	}
	if (outcome) {
		add(&l, "; ");
		add(&l, outcome);
	}
	say(&l, 1);
}

static void usage(const char *why)
{
	struct line l = { .len = 0 };

	if (why) {
		add(&l, "fwload: ");
		add(&l, why);
		add(&l, "\n");
		(void)write_all(2, l.buf, l.len);
	}
	(void)write_all(2, usage_text, sizeof(usage_text) - 1);
	exit(EX_USAGE);
}

/*
 * The one write loop: retry EINTR unless we are being stopped, carry on after
 * short writes (sysfs "data" takes one page per call), stop on error.
 */
static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR && !stop_signal)
				continue;
			return -1;
		}
		if (w == 0) {
			errno = EIO;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* The kernel starts helpers with fds 0-2 closed: fill the holes first, so no
 * file we open later becomes stdout or stderr and takes a stray message. */
static void sanitize_fds(void)
{
	int fd;

	while (fcntl(2, F_GETFD) < 0 || fcntl(1, F_GETFD) < 0 || fcntl(0, F_GETFD) < 0) {
		fd = open("/dev/null", O_RDWR);
		if (fd < 0)
			fd = open("/", O_RDONLY);  /* no /dev yet: writes to it fail */
		if (fd < 0)
			_exit(EX_SYSTEM);
		if (fd > 2) {
			close(fd);
			break;
		}
	}
}

static long elapsed_ms(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long)(now.tv_sec - opt.start.tv_sec) * 1000 +
	       (now.tv_nsec - opt.start.tv_nsec) / 1000000;
}

/* SYSFS/DEVPATH/FILE into buf; 0, or -1 if it does not fit. */
static int req_path(char *buf, size_t size, const char *file)
{
	size_t a = strlen(opt.sysfs), b = strlen(opt.devpath), c = strlen(file);

	if (a + b + 1 + c + 1 > size)
		return -1;
	memcpy(buf, opt.sysfs, a);
	memcpy(buf + a, opt.devpath, b);
	buf[a + b] = '/';
	memcpy(buf + a + b + 1, file, c + 1);
	return 0;
}

/* One step of a polling wait: sleep *step_ms, count it in *waited_ms, and
 * double the step up to 100 ms. */
static void backoff(long *waited_ms, long *step_ms)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = *step_ms * 1000000 };

	nanosleep(&ts, NULL);
	*waited_ms += *step_ms;
	if (*step_ms < 100)
		*step_ms *= 2;
}

/* Open SYSFS/DEVPATH/loading, waiting up to opt.wait_s for it to appear. */
static int open_loading(const char *path)
{
	long waited_ms = 0, step_ms = 5;

	for (;;) {
		int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);

		if (fd >= 0 || errno != ENOENT || waited_ms >= opt.wait_s * 1000 || stop_signal)
			return fd;
		backoff(&waited_ms, &step_ms);
	}
}

static int answer(int fd, const char *value)
{
	return write_all(fd, value, strlen(value));
}

/*
 * SHA-256 as specified in FIPS 180-4 (Secure Hash Standard), section 6.2.
 *
 * Endian-independent; whole blocks are hashed straight from the caller's
 * buffer. Checked against the FIPS 180-4 examples by test/unit/fwload-sha256.sh.
 */

struct sha256 {
	uint32_t h[8];		/* intermediate hash value H(i) */
	uint64_t len;		/* total message length in bytes */
	unsigned char buf[64];	/* partial block */
	size_t fill;		/* bytes used in buf, 0..63 */
};

/* FIPS 180-4, 4.2.2: first 32 bits of the fractional parts of the cube
 * roots of the first 64 primes. */
static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5,
	0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
	0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
	0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* FIPS 180-4, 3.2 and 4.1.2 */
static inline uint32_t sha256_rotr(uint32_t x, unsigned int n)
{
	return (x >> n) | (x << (32 - n));	/* n is always 1..31 */
}

static inline uint32_t sha256_ch(uint32_t x, uint32_t y, uint32_t z)
{
	return (x & y) ^ (~x & z);
}

static inline uint32_t sha256_maj(uint32_t x, uint32_t y, uint32_t z)
{
	return (x & y) ^ (x & z) ^ (y & z);
}

static inline uint32_t sha256_bsig0(uint32_t x)
{
	return sha256_rotr(x, 2) ^ sha256_rotr(x, 13) ^ sha256_rotr(x, 22);
}

static inline uint32_t sha256_bsig1(uint32_t x)
{
	return sha256_rotr(x, 6) ^ sha256_rotr(x, 11) ^ sha256_rotr(x, 25);
}

static inline uint32_t sha256_ssig0(uint32_t x)
{
	return sha256_rotr(x, 7) ^ sha256_rotr(x, 18) ^ (x >> 3);
}

static inline uint32_t sha256_ssig1(uint32_t x)
{
	return sha256_rotr(x, 17) ^ sha256_rotr(x, 19) ^ (x >> 10);
}

static inline uint32_t sha256_load_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline void sha256_store_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* FIPS 180-4, 6.2.2: process nblocks consecutive 64-byte blocks. */
static void sha256_blocks(uint32_t h[8], const unsigned char *p, size_t nblocks)
{
	uint32_t w[64];
	uint32_t a, b, c, d, e, f, g, hh, t1, t2;
	int i;

	while (nblocks--) {
		for (i = 0; i < 16; i++)
			w[i] = sha256_load_be32(p + 4 * i);
		for (i = 16; i < 64; i++)
			w[i] = sha256_ssig1(w[i - 2]) + w[i - 7] +
			       sha256_ssig0(w[i - 15]) + w[i - 16];

		a = h[0];
		b = h[1];
		c = h[2];
		d = h[3];
		e = h[4];
		f = h[5];
		g = h[6];
		hh = h[7];

		for (i = 0; i < 64; i++) {
			t1 = hh + sha256_bsig1(e) + sha256_ch(e, f, g) +
			     sha256_k[i] + w[i];
			t2 = sha256_bsig0(a) + sha256_maj(a, b, c);
			hh = g;
			g = f;
			f = e;
			e = d + t1;
			d = c;
			c = b;
			b = a;
			a = t1 + t2;
		}

		h[0] += a;
		h[1] += b;
		h[2] += c;
		h[3] += d;
		h[4] += e;
		h[5] += f;
		h[6] += g;
		h[7] += hh;
		p += 64;
	}
}

/* FIPS 180-4, 5.3.3 */
static void sha256_init(struct sha256 *s)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(s->h, iv, sizeof(iv));
	s->len = 0;
	s->fill = 0;
}

static void sha256_update(struct sha256 *s, const void *data, size_t n)
{
	const unsigned char *p = data;
	size_t k;

	if (!n)
		return;		/* also keeps memcpy() away from a NULL p */
	s->len += n;

	/* top up a partial block first */
	if (s->fill) {
		k = 64 - s->fill;
		if (k > n)
			k = n;
		memcpy(s->buf + s->fill, p, k);
		s->fill += k;
		p += k;
		n -= k;
		if (s->fill < 64)
			return;
		sha256_blocks(s->h, s->buf, 1);
		s->fill = 0;
	}

	/* bulk: hash whole blocks straight from the caller's buffer */
	if (n >= 64) {
		k = n / 64;
		sha256_blocks(s->h, p, k);
		p += k * 64;
		n -= k * 64;
	}

	if (n) {
		memcpy(s->buf, p, n);
		s->fill = n;
	}
}

/* FIPS 180-4, 5.1.1 padding, then 6.2.2 output. Wipes *s afterwards. */
static void sha256_final(struct sha256 *s, unsigned char out[32])
{
	uint64_t bits = s->len << 3;
	int i;

	s->buf[s->fill++] = 0x80;
	if (s->fill > 56) {
		memset(s->buf + s->fill, 0, 64 - s->fill);
		sha256_blocks(s->h, s->buf, 1);
		s->fill = 0;
	}
	memset(s->buf + s->fill, 0, 56 - s->fill);
	sha256_store_be32(s->buf + 56, (uint32_t)(bits >> 32));
	sha256_store_be32(s->buf + 60, (uint32_t)bits);
	sha256_blocks(s->h, s->buf, 1);

	for (i = 0; i < 8; i++)
		sha256_store_be32(out + 4 * i, s->h[i]);

	memset(s, 0, sizeof(*s));
}

static struct sha256 hash;  /* of the image, with -H */

/* How long a stream may stay silent, or a filter take to exit after its
 * output: -t, and 60 s for -t 0 (which only means "do not wait for loading";
 * a request that waits for ever must not hang on a stuck decompressor). */
static long stream_wait_s(void)
{
	return opt.wait_s > 0 ? opt.wait_s : 60;
}

/* A stream (a pipe from a decompressor, standard input) that stays silent
 * for the wait time is given up: 0, or -1 with errno ETIMEDOUT or EINTR. */
static int wait_input(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	for (;;) {
		int r = poll(&p, 1, (int)stream_wait_s() * 1000);

		if (stop_signal) {
			errno = EINTR;
			return -1;
		}
		if (r > 0)
			return 0;
		if (r == 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		if (errno != EINTR)
			return 0;  /* let read() report it */
	}
}

/* Is this an error that says "this copy primitive does not apply here"? */
static int unsupported(int err)
{
	return err == EINVAL || err == ENOSYS || err == EOPNOTSUPP || err == EBADF || err == ESPIPE;
}

/*
 * Copy from img to data. For a regular file copy exactly size bytes (size
 * > 0) from offset 0; for a stream (size < 0) copy until end of file.
 * Returns bytes copied, or -1 with errno set; *src_err tells whether the
 * failing side was the image (1) or data (0). With a digest to check, the
 * bytes pass through user space (read/write) and through the hash.
 */
static int64_t copy(int img, int data, int64_t size, int *src_err)
{
	int64_t done = 0;
	static char buf[256 * 1024];
	long page = sysconf(_SC_PAGESIZE);
	size_t bufsize = page > 0 && (size_t)page * 16 <= sizeof(buf) ? (size_t)page * 16 : sizeof(buf);
	int use_sendfile = size > 0 && !opt.check_digest, use_splice = size < 0 && !opt.check_digest;

	*src_err = 0;
	/* sendfile() from a regular file: the fastest path (on 6.12 one call
	 * moves the whole image; elsewhere it may come back short: loop). */
	while (use_sendfile) {
		off_t off = (off_t)done;
		size_t want = (size_t)(size - done) > 0x7ffff000 ? 0x7ffff000 : (size_t)(size - done);
		ssize_t r;

		if (stop_signal)
			goto interrupted;
		if (want == 0)
			return done;
		r = sendfile(data, img, &off, want);
		if (r > 0) {
			done += r;
			continue;
		}
		if (r == 0) {
			*src_err = 1;
			errno = ENODATA;  /* the file ended early: it shrank */
			return -1;
		}
		if (errno == EINTR)
			continue;
		if (done == 0 && unsupported(errno))
			break;  /* fall back to read/write */
		/* sendfile does not say which side failed: ask the image. */
		{
			int err = errno;
			char c;

			if (pread(img, &c, 1, (off_t)done) < 0) {
				*src_err = 1;
				return -1;
			}
			errno = err;
		}
		return -1;
	}
	/* splice() from a pipe (a decompressor, say): no copy through user space. */
	while (use_splice) {
		ssize_t r;

		if (wait_input(img) < 0) {
			*src_err = 1;
			return -1;
		}
		r = splice(img, NULL, data, NULL, bufsize, SPLICE_F_MOVE);
		if (r > 0) {
			done += r;
			continue;
		}
		if (r == 0)
			return done;
		if (errno == EINTR)
			continue;
		if (done == 0 && unsupported(errno))
			break;
		return -1;  /* ambiguous side; the caller reports data */
	}

	for (;;) {
		ssize_t r;

		if (stop_signal)
			goto interrupted;
		if (size < 0 && wait_input(img) < 0) {
			*src_err = 1;
			return -1;
		}
		r = size > 0 ? pread(img, buf, bufsize, (off_t)done) : read(img, buf, bufsize);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			*src_err = 1;
			return -1;
		}
		if (r == 0)
			break;
		if (size > 0 && done + r > size)
			r = (ssize_t)(size - done);  /* grew: stop at size, caught below */
		if (opt.check_digest)
			sha256_update(&hash, buf, (size_t)r);
		if (write_all(data, buf, (size_t)r) < 0) {
			if (stop_signal)
				goto interrupted;
			return -1;
		}
		done += r;
		if (size > 0 && done == size)
			break;
	}
	if (size > 0 && done < size) {
		*src_err = 1;
		errno = ENODATA;
		return -1;
	}
	return done;

interrupted:
	errno = EINTR;
	return -1;
}

/*
 * -r policy: symbolic links are followed (linux-firmware and update-
 * alternatives rely on them), but the file they end at must lie inside one
 * of the roots, so a link cannot hand a driver /etc/shadow. The resolved
 * path must still name the file that was opened.
 */
static int inside_roots(const struct stat *st)
{
	static char real[PATH_MAX], root[PATH_MAX];
	struct stat rst;

	if (!realpath(opt.image, real) || stat(real, &rst) < 0 ||
	    rst.st_dev != st->st_dev || rst.st_ino != st->st_ino) {
		fail("cannot resolve", opt.image, errno, NULL);
		return 0;
	}
	for (int i = 0; i < opt.nroots; i++) {
		size_t n;

		if (!realpath(opt.roots[i], root))
			continue;
		n = strlen(root);
		if (strcmp(root, "/") == 0 || (strncmp(real, root, n) == 0 && real[n] == '/'))
			return 1;
	}
	{
		struct line l = { .len = 0 };

		add(&l, opt.name);
		add(&l, ": ");
		add(&l, opt.image);
		add(&l, " resolves to ");
		add(&l, real);
		add(&l, ", outside the firmware directories; request aborted");
		say(&l, 1);
	}
	return 0;
}

/* Open the image: a regular, non-empty file (opening a FIFO or a device
 * must not block or have side effects), or standard input. */
static int open_image(struct stat *st)
{
	struct stat pre;
	int fd;

	if (strcmp(opt.image, "-") == 0) {
		if (fstat(0, st) < 0) {
			fail("cannot use standard input", NULL, errno, NULL);
			return -1;
		}
		st->st_size = -1;  /* a stream: copy to end of file */
		return 0;
	}
	if (stat(opt.image, &pre) < 0) {
		fail("cannot find", opt.image, errno, NULL);
		return -1;
	}
	if (!S_ISREG(pre.st_mode)) {
		fail("not a regular file:", opt.image, 0, NULL);
		return -1;
	}
	fd = open(opt.image, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		fail("cannot open", opt.image, errno, NULL);
		return -1;
	}
	if (fstat(fd, st) < 0 || st->st_dev != pre.st_dev || st->st_ino != pre.st_ino ||
	    !S_ISREG(st->st_mode)) {
		fail("file replaced while being opened:", opt.image, 0, NULL);
		close(fd);
		return -1;
	}
	if (st->st_size == 0) {
		fail("empty file", opt.image, 0, NULL);
		close(fd);
		return -1;
	}
	if (opt.nroots && !inside_roots(st)) {
		close(fd);
		return -1;
	}
	return fd;
}

static int same_file_state(const struct stat *a, const struct stat *b)
{
	return a->st_size == b->st_size && a->st_ino == b->st_ino &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/*
 * Run opt.filter with in as its standard input and a pipe as its standard
 * output; returns the pipe's read end, or -1 (said why). A failed exec comes
 * back through a close-on-exec pipe: "cannot run" is told apart from "ran
 * and failed".
 */
static int start_filter(int in, pid_t *pid)
{
	int out[2] = { -1, -1 }, err[2] = { -1, -1 }, e = 0;
	ssize_t r;

	if (pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0) {
		fail("cannot make a pipe for", opt.filter[0], errno, NULL);
		goto fail;
	}
	*pid = fork();
	if (*pid < 0) {
		*pid = 0;  /* never a pid to signal: kill(-1) would hit everything */
		fail("cannot start", opt.filter[0], errno, NULL);
		goto fail;
	}
	if (*pid == 0) {
		struct sigaction dfl = { .sa_handler = SIG_DFL };

		sigaction(SIGPIPE, &dfl, NULL);
		if (dup2(in, 0) == 0 && dup2(out[1], 1) == 1)
			execvp(opt.filter[0], opt.filter);
		e = errno;
		(void)!write(err[1], &e, sizeof(e));
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	do
		r = read(err[0], &e, sizeof(e));
	while (r < 0 && errno == EINTR);
	close(err[0]);
	if (r == (ssize_t)sizeof(e)) {
		close(out[0]);
		while (waitpid(*pid, NULL, 0) < 0 && errno == EINTR)
			;
		*pid = 0;  /* reaped */
		fail("cannot run", opt.filter[0], e, NULL);
		return -1;
	}
	return out[0];

fail:
	for (int i = 0; i < 2; i++) {
		if (out[i] >= 0)
			close(out[i]);
		if (err[i] >= 0)
			close(err[i]);
	}
	return -1;
}

/*
 * Reap the filter: 0 if it exited 0, else -1, said why unless kill_it (we
 * are aborting anyway: kill it first). A filter that closed its output but
 * does not exit is given the wait time (-t), then killed.
 */
static int end_filter(pid_t pid, int kill_it)
{
	struct line l = { .len = 0 };
	long waited_ms = 0, step_ms = 1;
	int ws, hung = 0;

	if (pid <= 0)
		return -1;
	if (kill_it)
		kill(pid, SIGKILL);
	for (;;) {
		pid_t r = waitpid(pid, &ws, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -1;
		if (!kill_it && (stop_signal || waited_ms >= stream_wait_s() * 1000)) {
			kill(pid, SIGKILL);
			kill_it = 1;
			hung = !stop_signal;
		}
		if (r == 0)
			backoff(&waited_ms, &step_ms);
	}
	if (hung) {
		fail("no exit in the wait time from", opt.filter[0], 0, "killed; request aborted");
		return -1;
	}
	if (kill_it)
		return -1;
	if (WIFEXITED(ws) && WEXITSTATUS(ws) == 0)
		return 0;
	add(&l, opt.name);
	add(&l, ": ");
	add(&l, opt.filter[0]);
	add(&l, WIFEXITED(ws) ? " failed (exit status " : " killed by signal ");
	add_num(&l, (uint64_t)(WIFEXITED(ws) ? WEXITSTATUS(ws) : WTERMSIG(ws)));
	add(&l, WIFEXITED(ws) ? ") on " : " on ");
	add(&l, opt.image);
	add(&l, "; request aborted");
	say(&l, 1);
	return -1;
}

static void hex(struct line *l, const unsigned char *p, size_t n)
{
	char d[3] = "";

	for (size_t i = 0; i < n; i++) {
		d[0] = "0123456789abcdef"[p[i] >> 4];
		d[1] = "0123456789abcdef"[p[i] & 15];
		add(l, d);
	}
}

/* Is s one line's worth of printable text (no control bytes)? */
static int printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < ' ' || *s == 0x7f)
			return 0;
	return 1;
}

/*
 * -m LIST: the firmware that could not be found, one "NAME<TAB>DEVPATH"
 * line each. A cancel (-c) adds the request, a load removes every line for
 * its name. Rewritten whole (a new file renamed over the old, so a reader
 * never sees half of it) under a lock on LIST.lock (root's, mode 0600), so
 * concurrent requests do not lose each other's lines; a lock held for 2 s
 * makes us give up. The list stays under 64 KiB. Failures are said, but
 * the request has been answered by then: they do not change the exit
 * status.
 */
static void update_missing(int add_it)
{
	static char old[64 * 1024], new[128 * 1024];
	char dir[PATH_MAX], tmp[PATH_MAX], lock[PATH_MAX];
	size_t name_len = strlen(opt.name), dev_len = strlen(opt.devpath), len = 0, n = 0;
	size_t path_len = strlen(opt.missing), dir_len;
	const char *slash = strrchr(opt.missing, '/');
	int dfd = -1, fd = -1, changed = 0, ok;
	long waited_ms = 0, step_ms = 10;
	struct stat st;

	if (!printable(opt.name) || !printable(opt.devpath) || name_len + dev_len + 2 > sizeof(new) - sizeof(old))
		return;  /* not one line: cannot be listed */
	dir_len = slash == opt.missing ? 1 : (size_t)(slash - opt.missing);
	if (path_len + 6 > sizeof(tmp)) {
		fail("missing list: path too long:", opt.missing, 0, NULL);
		return;
	}
	memcpy(dir, opt.missing, dir_len);
	dir[dir_len] = '\0';
	memcpy(tmp, opt.missing, path_len);
	memcpy(tmp + path_len, ".new", 5);
	memcpy(lock, opt.missing, path_len);
	memcpy(lock + path_len, ".lock", 6);

	if (stat(dir, &st) < 0 && errno == ENOENT && !add_it)
		return;  /* no list: nothing to remove */
	dfd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0600);
	if (dfd < 0) {
		fail("missing list: cannot open", lock, errno, "list not updated");
		return;
	}
	while (flock(dfd, LOCK_EX | LOCK_NB) < 0) {
		if ((errno != EWOULDBLOCK && errno != EINTR) || waited_ms >= 2000) {
			fail("missing list: cannot lock", lock, errno, "list not updated");
			goto out;
		}
		backoff(&waited_ms, &step_ms);
	}
	fd = open(opt.missing, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW);
	if (fd >= 0) {
		ssize_t r;

		if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
			fail("missing list: not a regular file:", opt.missing, 0, "list not updated");
			goto out;
		}

		while ((r = read(fd, old + len, sizeof(old) - len)) > 0 || (r < 0 && errno == EINTR))
			len += r > 0 ? (size_t)r : 0;
		close(fd);
		fd = -1;
		if (r < 0 || len == sizeof(old)) {
			fail("missing list: cannot read (or over 64 KiB)", opt.missing, r < 0 ? errno : 0, NULL);
			goto out;
		}
	} else if (errno != ENOENT) {
		fail("missing list: cannot open", opt.missing, errno, NULL);
		goto out;
	}
	/* Copy the lines to keep (at most len bytes plus the newline a last
	 * line may lack); note whether this request is listed. */
	for (size_t i = 0; i < len;) {
		const char *line = old + i, *end = memchr(line, '\n', len - i);
		size_t ll = end ? (size_t)(end - line) : len - i;
		int same_name = ll > name_len && line[name_len] == '\t' &&
				memcmp(line, opt.name, name_len) == 0;

		i += ll + 1;
		if (same_name && add_it && ll == name_len + 1 + dev_len &&
		    memcmp(line + name_len + 1, opt.devpath, dev_len) == 0)
			goto out;  /* listed already */
		if (same_name && !add_it) {
			changed = 1;
			continue;
		}
		memcpy(new + n, line, ll);
		n += ll;
		new[n++] = '\n';
	}
	if (add_it && n + name_len + dev_len + 2 >= sizeof(old)) {
		fail("missing list: full (64 KiB):", opt.missing, 0, "request not listed");
		goto out;
	}
	if (add_it) {
		memcpy(new + n, opt.name, name_len);
		n += name_len;
		new[n++] = '\t';
		memcpy(new + n, opt.devpath, dev_len);
		n += dev_len;
		new[n++] = '\n';
		changed = 1;
	}
	if (!changed)
		goto out;
	/* Never through a link someone left at LIST.new. */
	if (unlink(tmp) < 0 && errno != ENOENT) {
		fail("missing list: cannot remove", tmp, errno, "list not updated");
		goto out;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0644);
	ok = fd >= 0 && write_all(fd, new, n) == 0;
	if (fd >= 0 && close(fd) < 0)
		ok = 0;
	fd = -1;
	if (!ok || rename(tmp, opt.missing) < 0) {
		fail("missing list: cannot write", tmp, errno, "list not updated");
		unlink(tmp);
	}
out:
	if (fd >= 0)
		close(fd);
	close(dfd);  /* and the lock with it */
}

static int run(int cancel)
{
	char loading_path[4096], data_path[4096];
	struct stat st, after;
	int loading = -1, data = -1, img = -1, in = -1, src_err = 0;
	int status = EX_SYSTEM;
	pid_t filter = 0;
	int64_t n, size;

	if (req_path(loading_path, sizeof(loading_path), "loading") < 0 ||
	    req_path(data_path, sizeof(data_path), "data") < 0) {
		fail("request path too long:", opt.devpath, 0, NULL);
		return EX_USAGE;
	}

	loading = open_loading(loading_path);
	if (loading < 0) {
		fail("no request: cannot open", loading_path, errno, NULL);
		return stop_signal ? EX_SIGNAL : EX_SYSTEM;
	}
	if (cancel) {
		if (answer(loading, "-1") < 0) {
			fail("cannot cancel: write -1 to", loading_path, errno, NULL);
			goto out;
		}
		if (opt.missing)
			update_missing(1);
		status = EX_CANCELLED;
		goto out;
	}

	status = EX_ABORTED;
	img = open_image(&st);
	if (img < 0)
		goto abort;
	in = img;
	size = st.st_size;
	if (opt.filter) {
		in = start_filter(img, &filter);
		if (in < 0)
			goto abort_quiet;
		size = -1;
	}
	data = open(data_path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (data < 0) {
		fail("cannot open", data_path, errno, "request aborted");
		goto abort_quiet;
	}
	if (answer(loading, "1") < 0) {
		fail("cannot start: write 1 to", loading_path, errno, "request aborted");
		goto abort_quiet;
	}

	sha256_init(&hash);
	n = copy(in, data, size, &src_err);
	if (n < 0) {
		if (stop_signal)
			goto abort;
		if (errno == ENODATA)
			fail("file shrank while being copied:", opt.image, 0, "request aborted");
		else if (src_err && errno == ETIMEDOUT)
			fail("nothing more came in the wait time from", opt.source, 0, "request aborted");
		else if (src_err)
			fail("cannot read", opt.source, errno, "request aborted");
		else if (errno == ENODEV || errno == ENOENT)
			fail("request gone (timed out?) while writing", data_path, errno, NULL);
		else
			fail("cannot write", data_path, errno, "request aborted");
		goto abort_quiet;
	}
	if (filter) {
		pid_t pid = filter;

		close(in);
		in = -1;
		filter = 0;  /* reaped (or killed) by end_filter */
		if (end_filter(pid, 0) < 0)
			goto abort;
	}
	if (size < 0 && n == 0) {
		fail("empty image from", opt.source, 0, "request aborted");
		goto abort_quiet;
	}
	if (st.st_size >= 0) {
		char c;
		ssize_t r = opt.filter ? 0 : pread(img, &c, 1, (off_t)n);

		if (r != 0 || fstat(img, &after) < 0 || !same_file_state(&st, &after)) {
			fail("file changed while being copied:", opt.image, 0, "request aborted");
			goto abort_quiet;
		}
	}
	if (opt.check_digest) {
		unsigned char got[32];

		sha256_final(&hash, got);
		if (memcmp(got, opt.digest, sizeof(got)) != 0) {
			struct line l = { .len = 0 };

			add(&l, opt.name);
			add(&l, ": SHA-256 mismatch: ");
			add(&l, opt.source);
			add(&l, " gives ");
			hex(&l, got, sizeof(got));
			add(&l, ", the manifest wants ");
			hex(&l, opt.digest, sizeof(opt.digest));
			add(&l, "; request aborted");
			say(&l, 1);
			goto abort_quiet;
		}
	}
	if (stop_signal)
		goto abort;
	if (answer(loading, "0") < 0) {
		fail("cannot commit: write 0 to", loading_path, errno, "the driver did not get the image");
		goto out;
	}
	{
		struct line l = { .len = 0 };

		add(&l, "loaded ");
		add(&l, opt.name);
		add(&l, " (");
		add_num(&l, (uint64_t)n);
		add(&l, " bytes, ");
		add_num(&l, (uint64_t)elapsed_ms());
		add(&l, " ms");
		if (opt.check_digest)
			add(&l, ", SHA-256 verified");
		add(&l, ") from ");
		add(&l, opt.source);
		add(&l, " for ");
		add(&l, opt.devpath);
		say(&l, 0);
	}
	if (opt.missing)
		update_missing(0);
	status = EX_LOADED;
	goto out;

abort:
	if (stop_signal) {
		fail("stopped by signal", NULL, 0, "request aborted");
		status = EX_SIGNAL;
	}
abort_quiet:
	if (answer(loading, "-1") < 0 && errno != ENODEV && errno != ENOENT)
		fail("cannot abort: write -1 to", loading_path, errno, NULL);
out:
	if (in >= 0 && in != img)
		close(in);
	if (filter)
		end_filter(filter, 1);
	if (img > 2)  /* not standard input */
		close(img);
	if (data >= 0)
		close(data);
	close(loading);
	return status;
}

static int has_dotdot(const char *p)
{
	for (const char *s = p; *s; s++)
		if (s[0] == '.' && s[1] == '.' && (s == p || s[-1] == '/') && (s[2] == '\0' || s[2] == '/'))
			return 1;
	return 0;
}

/* Whole seconds, 0 to 86400, or -1. */
static long parse_seconds(const char *s)
{
	long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 86400)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return v <= 86400 ? v : -1;
}

static void set_option(char o, const char *val)
{
	switch (o) {
	case 's':
		opt.sysfs = val;
		break;
	case 't':
		opt.wait_s = parse_seconds(val);
		if (opt.wait_s < 0)
			usage("-t wants whole seconds, 0 to 86400");
		break;
	case 'n':
		opt.name = val;
		break;
	case 'm':
		if (val[0] != '/')
			usage("-m wants an absolute path");
		opt.missing = val;
		break;
	case 'H':
		for (int i = 0; i < 64; i++) {
			int c = val[i], v = c >= '0' && c <= '9' ? c - '0'
				: c >= 'a' && c <= 'f' ? c - 'a' + 10
				: c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

			if (v < 0)
				usage("-H wants a SHA-256 digest: 64 hex digits");
			opt.digest[i / 2] = (unsigned char)(opt.digest[i / 2] << 4 | v);
		}
		if (val[64])
			usage("-H wants a SHA-256 digest: 64 hex digits");
		opt.check_digest = 1;
		break;
	case 'r':
		if (opt.nroots == (int)(sizeof(opt.roots) / sizeof(opt.roots[0])))
			usage("too many -r");
		opt.roots[opt.nroots++] = val;
		break;
	case 'l':
		if (strcmp(val, "kmsg") == 0)
			opt.log = TO_KMSG;
		else if (strcmp(val, "syslog") == 0)
			opt.log = TO_SYSLOG;
		else if (strcmp(val, "none") == 0)
			opt.log = TO_NONE;
		else if (val[0] == '/') {
			opt.log = TO_FILE;
			opt.log_file = val;
		} else
			usage("-l wants kmsg, syslog, none or /FILE");
		break;
	}
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	const char *env;
	int i, cancel = 0;

	sanitize_fds();
	clock_gettime(CLOCK_MONOTONIC, &opt.start);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;  /* no SA_RESTART: interrupt the copy */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);

	env = getenv("SYSFS");
	opt.sysfs = env && *env ? env : "/sys";
	opt.name = getenv("FIRMWARE");
	opt.wait_s = 60;
	env = getenv("TIMEOUT");
	if (env) {
		long t = parse_seconds(env);

		if (t > 0)
			opt.wait_s = t;  /* TIMEOUT=0 (wait for ever) or garbage: 60 */
	}

	/* Options first, getopt style (-v -c, -sDIR or -s DIR, --), without
	 * getopt(3), whose messages would pull stdio into a static binary. */
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *a = argv[i] + 1, *val;

		if (strcmp(a, "-") == 0) {
			i++;
			break;
		}
		for (; *a; a++) {
			if (*a == 'c' || *a == 'v') {
				*(*a == 'c' ? &cancel : &opt.verbose) = 1;
				continue;
			}
			if (!strchr("stnlrmH", *a))
				usage("unknown option");
			val = a[1] ? a + 1 : (i + 1 < argc ? argv[++i] : NULL);
			if (!val)
				usage("option wants a value");
			set_option(*a, val);
			break;
		}
	}
	argc -= i;
	argv += i;
	if (cancel ? argc != 1 : argc < 2)
		usage(cancel ? "-c takes DEVPATH only" : "want DEVPATH and FILE (or -)");
	opt.devpath = argv[0];
	opt.image = cancel ? NULL : argv[1];
	opt.filter = argc > 2 ? argv + 2 : NULL;
	if (opt.filter && !opt.filter[0][0])
		usage("empty COMMAND");
	opt.source = opt.image && strcmp(opt.image, "-") ? opt.image : "standard input";
	if (opt.filter) {
		static struct line via;

		add(&via, opt.source);
		add(&via, " via ");
		add(&via, opt.filter[0]);
		opt.source = via.buf;
	}
	if (opt.devpath[0] != '/')
		usage("DEVPATH must start with /");
	if (has_dotdot(opt.devpath))
		usage("DEVPATH must not contain a .. component");
	if (!opt.name || !*opt.name) {
		const char *slash = strrchr(opt.devpath, '/');

		opt.name = slash[1] ? slash + 1 : opt.devpath;
	}
	return run(cancel);
}
