/* SPDX-License-Identifier: MIT */
/*
 * hotplugd - run the hotplug multiplexer for the kernel's uevents, read from
 * netlink, on kernels without a uevent helper (or where it must stay off).
 *
 * The kernel broadcasts every uevent on NETLINK_KOBJECT_UEVENT, group 1, as
 *
 *   ACTION@DEVPATH \0 ACTION=... \0 DEVPATH=... \0 SUBSYSTEM=... \0 KEY=VALUE \0 ...
 *
 * hotplugd listens there and, for each event of a subsystem it handles
 * (default: firmware, ACTION=add only), runs PROGRAM SUBSYSTEM (default
 * /sbin/hotplug) the way the kernel runs its helper: the event's variables
 * plus HOME=/ and the kernel's PATH as the environment, fds 0-2 on /dev/null.
 *
 *   1. Events of other subsystems never reach user space: a classic BPF
 *      socket filter finds SUBSYSTEM= and drops them in the kernel (see
 *      build_filter). What it cannot decide it lets through; user space
 *      checks every event again.
 *   2. Only the kernel is believed: any local process may send a message
 *      straight to our port id, so a message whose sender is not port 0
 *      with credentials uid 0 is dropped (udev's CVE-2009-1185).
 *   3. Children run concurrently, at most MAXJOBS at once; the rest wait in
 *      a queue, and when the queue is full the socket is left unread (the
 *      kernel buffers). Children are reaped as they end.
 *   4. Nothing is lost: at start, and when the socket says events were
 *      dropped (ENOBUFS), every request pending in SYSFS/class/firmware/ is
 *      served as an ACTION=add event (firmware-upload devices excepted).
 *
 * Exit status: 0 stopped by SIGTERM or SIGINT, 100 usage, 111 system error.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#define _TIME_BITS 64
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#ifndef FWLOAD_VERSION
#define FWLOAD_VERSION "unknown"
#endif
#ifndef HOTPLUGD_PROGRAM
#define HOTPLUGD_PROGRAM "/sbin/hotplug"
#endif
#ifndef NETLINK_KOBJECT_UEVENT
#define NETLINK_KOBJECT_UEVENT 15
#endif

enum { EX_USAGE = 100, EX_SYSTEM = 111 };

/* The kernel's ABI (linux/netlink.h, linux/filter.h), spelt out here so
 * that a libc without kernel headers (musl) builds it too. */
struct nl_addr {
	sa_family_t family;
	unsigned short pad;
	uint32_t pid;
	uint32_t groups;
};
struct bpf_op {
	uint16_t code;
	uint8_t jt, jf;
	uint32_t k;
};
struct bpf_prog_c {
	unsigned short len;
	struct bpf_op *ops;
};

#define MAX_SUBSYSTEMS 16
#define MAX_NAME 64       /* longest -s SUBSYSTEM */
#define MAX_JOBS 1024
#define MSG_MAX 8192      /* the kernel's uevents are at most about 4 KiB */
#define QUEUE_LEN 64      /* events waiting for a free job slot */
#define MAX_VARS 128

static const char usage_text[] =
	"usage: hotplugd [-d] [-p PIDFILE] [-s SUBSYSTEM]... [-j MAXJOBS] [-x PROGRAM] [-S SYSFS]\n"
	"                [-b BYTES] [-v]\n"
	"       hotplugd --help | --version\n";

static const char help_text[] =
	"\n"
	"Runs PROGRAM SUBSYSTEM for the kernel's uevents of the chosen subsystems,\n"
	"read from netlink, with the environment the kernel gives its uevent helper.\n"
	"\n"
	"  -d            detach (after the socket is ready) and write PIDFILE\n"
	"  -p PIDFILE    pid file, locked while running (default with -d: /run/hotplugd.pid)\n"
	"  -s SUBSYSTEM  handle this subsystem (repeatable; default firmware; 'all':\n"
	"                every event); firmware events are handled for ACTION=add only\n"
	"  -j MAXJOBS    children running at once, 1 to 1024 (default 16)\n"
	"  -x PROGRAM    absolute path of the program to run (default " HOTPLUGD_PROGRAM ")\n"
	"  -S SYSFS      where sysfs is mounted, for the rescan (default /sys)\n"
	"  -b BYTES      socket receive buffer (default 8M; K and M suffixes)\n"
	"  -v            say what is run and what is dropped, on stderr\n"
	"\n"
	"Exit status: 0 stopped by SIGTERM or SIGINT, 100 usage, 111 system error.\n";

static struct {
	const char *program;
	const char *sysfs;
	const char *pidfile;
	const char *subsystems[MAX_SUBSYSTEMS];
	int nsubsystems;
	int all;         /* -s all */
	int firmware;    /* firmware is handled: rescan */
	int maxjobs;
	int rcvbuf;
	int detach;
	int verbose;
} opt;

static volatile sig_atomic_t stop_signal, got_child;
static int null_fd = -1, to_kmsg;

/* ---------------------------------------------------------------------- */
/* Messages: one line each, built without stdio. */

struct line {
	char buf[512];
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

static void add_num(struct line *l, long long v)
{
	char d[24];
	size_t i = sizeof(d) - 1;
	unsigned long long u = v < 0 ? -(unsigned long long)v : (unsigned long long)v;

	d[i] = '\0';
	do {
		d[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		d[--i] = '-';
	add(l, d + i);
}

/* Text from outside (an event) with control bytes and backslashes as \xNN. */
static void add_safe(struct line *l, const char *s)
{
	char d[5] = "\\x";

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c >= ' ' && c != 0x7f && c != '\\') {
			d[0] = (char)c;
			d[1] = '\0';
			add(l, d);
		} else {
			d[0] = '\\';
			d[1] = 'x';
			d[2] = "0123456789abcdef"[c >> 4];
			d[3] = "0123456789abcdef"[c & 15];
			d[4] = '\0';
			add(l, d);
		}
	}
}

/* "errno N (NAME)": no strerror table in a static binary. */
static void add_errno(struct line *l, int err)
{
	static const struct { int e; const char *n; } names[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { EACCES, "EACCES" },
		{ ENOMEM, "ENOMEM" }, { EINVAL, "EINVAL" }, { EMFILE, "EMFILE" },
		{ ENFILE, "ENFILE" }, { ENOBUFS, "ENOBUFS" }, { EAGAIN, "EAGAIN" },
		{ EROFS, "EROFS" }, { ENOTDIR, "ENOTDIR" }, { ELOOP, "ELOOP" },
		{ EEXIST, "EEXIST" }, { ENOEXEC, "ENOEXEC" }, { EADDRINUSE, "EADDRINUSE" },
		{ EAFNOSUPPORT, "EAFNOSUPPORT" }, { EPROTONOSUPPORT, "EPROTONOSUPPORT" },
		{ ENOSPC, "ENOSPC" }, { EIO, "EIO" },
	};

	add(l, "errno ");
	add_num(l, err);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == err) {
			add(l, " (");
			add(l, names[i].n);
			add(l, ")");
		}
}

static void write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

/* One line to stderr, and to the kernel log when detached (stderr is
 * /dev/null then). kmsg is opened non-blocking: a message never holds us. */
static void say(struct line *l, int failure)
{
	struct iovec v[3] = {
		{ .iov_base = (void *)"hotplugd: ", .iov_len = 10 },
		{ .iov_base = l->buf, .iov_len = l->len },
		{ .iov_base = (void *)"\n", .iov_len = 1 },
	};

	(void)!writev(2, v, 3);
	if (to_kmsg) {
		struct line k = { .len = 0 };
		int fd = open("/dev/kmsg", O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);

		if (fd >= 0) {
			add(&k, failure ? "<3>hotplugd: " : "<6>hotplugd: ");
			add(&k, l->buf);
			add(&k, "\n");
			write_all(fd, k.buf, k.len);
			close(fd);
		}
	}
}

/* "WHAT [PATH]: errno N (NAME)" */
static void fail(const char *what, const char *path, int err)
{
	struct line l = { .len = 0 };

	add(&l, what);
	if (path) {
		add(&l, " ");
		add_safe(&l, path);
	}
	if (err) {
		add(&l, ": ");
		add_errno(&l, err);
	}
	say(&l, 1);
}

static void usage(const char *why)
{
	struct line l = { .len = 0 };

	if (why) {
		add(&l, "hotplugd: ");
		add(&l, why);
		add(&l, "\n");
		write_all(2, l.buf, l.len);
	}
	write_all(2, usage_text, sizeof(usage_text) - 1);
	exit(EX_USAGE);
}

/* ---------------------------------------------------------------------- */
/* The socket filter. */

#define OP(c, t, f, v) ((struct bpf_op){ .code = (c), .jt = (t), .jf = (f), .k = (v) })
/* classic BPF opcodes (linux/bpf_common.h) */
enum {
	LD_W_ABS = 0x20, LD_H_ABS = 0x28, LD_B_ABS = 0x30,
	LD_W_IND = 0x40, LD_H_IND = 0x48, LD_B_IND = 0x50,
	LD_LEN = 0x80, LD_MEM = 0x60, LDX_IMM = 0x01, LDX_MEM = 0x61, ST = 0x02,
	ADD_K = 0x04, ADD_X = 0x0c, AND_K = 0x54, OR_K = 0x44, OR_X = 0x4c,
	JA = 0x05, JEQ_K = 0x15, JGE_X = 0x3d,
	RET_K = 0x06, TAX = 0x07, TXA = 0x87,
};
#define PASS 0xffffffffu
#define DROP 0u
#define MAX_OPS 4096      /* BPF_MAXINSNS */

/* Bytes s[0..n) as a big-endian number (what ld/ldh/ldb see). */
static uint32_t be(const char *s, int n)
{
	uint32_t v = 0;

	for (int i = 0; i < n; i++)
		v = v << 8 | (unsigned char)s[i];
	return v;
}

/*
 * The kernel builds every uevent the same way: "ACTION@DEVPATH\0", then
 * "ACTION=ACTION\0DEVPATH=DEVPATH\0SUBSYSTEM=..." (kobject_uevent_env()
 * adds these three first). If the header's NUL is at offset h, the header
 * is h bytes and ACTION and DEVPATH together h - 1, so "SUBSYSTEM=" starts
 * at 2h + 17. Classic BPF cannot loop: the search for h is unrolled, one
 * 4-byte word at a time, over the first 4 * words bytes (a word has a zero
 * byte exactly when ((w & 0x7f7f7f7f) + 0x7f7f7f7f | w | 0x7f7f7f7f) is not
 * all ones). Anything the program cannot decide -- header too long, no
 * "SUBSYSTEM=" where it should be -- passes; user space looks again.
 * Returns the number of instructions.
 */
static int build_filter(struct bpf_op *p, int words)
{
	int n = 0, found, calc, h[3], to_calc[4];

	/* the scan; "found" is patched in below (ja takes 32 bits) */
	for (int w = 0; w < words; w++) {
		p[n++] = OP(LD_W_ABS, 0, 0, (uint32_t)(4 * w));
		p[n++] = OP(TAX, 0, 0, 0);
		p[n++] = OP(AND_K, 0, 0, 0x7f7f7f7f);
		p[n++] = OP(ADD_K, 0, 0, 0x7f7f7f7f);
		p[n++] = OP(OR_X, 0, 0, 0);
		p[n++] = OP(OR_K, 0, 0, 0x7f7f7f7f);
		p[n++] = OP(JEQ_K, 2, 0, 0xffffffff);
		p[n++] = OP(LDX_IMM, 0, 0, (uint32_t)(4 * w));
		p[n++] = OP(JA, 0, 0, 0);  /* to found */
	}
	p[n++] = OP(RET_K, 0, 0, PASS);  /* no NUL in reach: undecided */
	found = n;
	for (int w = 0; w < words; w++)
		p[9 * w + 8].k = (uint32_t)(found - (9 * w + 8) - 1);
	/* which byte of the word at X is the first NUL: A = X + byte */
	for (int b = 0; b < 3; b++) {
		p[n++] = OP(LD_B_IND, 0, 0, (uint32_t)b);
		h[b] = n;
		p[n++] = OP(JEQ_K, 0, 0, 0);  /* jt patched below */
	}
	for (int b = 3; b >= 0; b--) {
		if (b < 3)
			p[h[b]].jt = (uint8_t)(n - h[b] - 1);
		p[n++] = OP(TXA, 0, 0, 0);
		p[n++] = OP(ADD_K, 0, 0, (uint32_t)b);
		to_calc[b] = n;
		p[n++] = OP(JA, 0, 0, 0);
	}
	calc = n;
	for (int b = 0; b < 4; b++)
		p[to_calc[b]].k = (uint32_t)(calc - to_calc[b] - 1);
	/* calc: A = h; M[0] = 2h + 17, where "SUBSYSTEM=" must start */
	p[n++] = OP(TAX, 0, 0, 0);
	p[n++] = OP(ADD_X, 0, 0, 0);
	p[n++] = OP(ADD_K, 0, 0, 17);
	p[n++] = OP(ST, 0, 0, 0);
	/* room for "SUBSYSTEM=" and one byte? */
	p[n++] = OP(ADD_K, 0, 0, 11);
	p[n++] = OP(TAX, 0, 0, 0);
	p[n++] = OP(LD_LEN, 0, 0, 0);
	p[n++] = OP(JGE_X, 1, 0, 0);
	p[n++] = OP(RET_K, 0, 0, PASS);
	p[n++] = OP(LDX_MEM, 0, 0, 0);
	p[n++] = OP(LD_W_IND, 0, 0, 0);
	p[n++] = OP(JEQ_K, 1, 0, be("SUBS", 4));
	p[n++] = OP(RET_K, 0, 0, PASS);
	p[n++] = OP(LD_W_IND, 0, 0, 4);
	p[n++] = OP(JEQ_K, 1, 0, be("YSTE", 4));
	p[n++] = OP(RET_K, 0, 0, PASS);
	p[n++] = OP(LD_H_IND, 0, 0, 8);
	p[n++] = OP(JEQ_K, 1, 0, be("M=", 2));
	p[n++] = OP(RET_K, 0, 0, PASS);
	/* one block per subsystem: its value and the NUL after it */
	for (int s = 0; s < opt.nsubsystems; s++) {
		const char *name = opt.subsystems[s];
		int len = (int)strlen(name) + 1, fix[MAX_NAME / 2 + 8], nfix = 0;

		p[n++] = OP(LD_MEM, 0, 0, 0);
		p[n++] = OP(ADD_K, 0, 0, (uint32_t)(10 + len));
		p[n++] = OP(TAX, 0, 0, 0);
		p[n++] = OP(LD_LEN, 0, 0, 0);
		fix[nfix++] = n;
		p[n++] = OP(JGE_X, 0, 0, 0);  /* too short: next block */
		p[n++] = OP(LDX_MEM, 0, 0, 0);
		for (int o = 0; o < len;) {
			int sz = len - o >= 4 ? 4 : len - o >= 2 ? 2 : 1;

			p[n++] = OP(sz == 4 ? LD_W_IND : sz == 2 ? LD_H_IND : LD_B_IND, 0, 0,
				    (uint32_t)(10 + o));
			fix[nfix++] = n;
			p[n++] = OP(JEQ_K, 0, 0, be(name + o, sz));
			o += sz;
		}
		if (strcmp(name, "firmware") == 0) {
			/* firmware: "add" only; the remove events are no use */
			p[n++] = OP(LD_W_ABS, 0, 0, 0);
			p[n++] = OP(JEQ_K, 1, 0, be("add@", 4));
			p[n++] = OP(RET_K, 0, 0, DROP);
		}
		p[n++] = OP(RET_K, 0, 0, PASS);
		for (int i = 0; i < nfix; i++)
			p[fix[i]].jf = (uint8_t)(n - fix[i] - 1);
	}
	p[n++] = OP(RET_K, 0, 0, DROP);  /* a subsystem we do not handle */
	return n;
}

/*
 * Attach the filter, with as long a scan as the kernel takes: the program
 * is charged against net.core.optmem_max (20 KiB on 6.1, where each
 * classic load becomes about a dozen eBPF instructions). Returns the bytes
 * scanned, or 0 with no filter (everything is checked in user space).
 */
static int attach_filter(int fd)
{
	static struct bpf_op prog[MAX_OPS];
	int err = 0;

	if (opt.all)
		return 0;
	for (int words = 256; words >= 8; words -= words / 4) {
		struct bpf_prog_c fp = { .ops = prog };

		fp.len = (unsigned short)build_filter(prog, words);
		if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &fp, sizeof(fp)) == 0)
			return 4 * words;
		err = errno;
		if (err != ENOMEM && err != EINVAL && err != ENOBUFS)
			break;
	}
	fail("cannot attach the socket filter (every uevent is checked in user space)", NULL, err);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Events. */

struct event {
	size_t len;
	char msg[MSG_MAX + 1];  /* NUL-terminated strings, as received */
};

static struct event queue[QUEUE_LEN];
static int q_head, q_count;
static struct { pid_t pid; char what[96]; } jobs[MAX_JOBS];
static int running;
static long rescan_pos = -1;  /* where a full queue cut the last rescan short, or -1 */

/* Value of KEY in the event's variables (after the header), or NULL. */
static const char *event_get(const struct event *e, const char *key)
{
	size_t klen = strlen(key);

	for (size_t i = strlen(e->msg) + 1; i < e->len; i += strlen(e->msg + i) + 1)
		if (strncmp(e->msg + i, key, klen) == 0 && e->msg[i + klen] == '=')
			return e->msg + i + klen + 1;
	return NULL;
}

/* Is it an event we handle? NULL if so, else why not (for -v). */
static const char *not_ours(const struct event *e)
{
	const char *action = event_get(e, "ACTION"), *sub = event_get(e, "SUBSYSTEM");
	int found = opt.all;

	if (!strchr(e->msg, '@') || !action || !sub || !event_get(e, "DEVPATH"))
		return "not a uevent";
	for (int i = 0; i < opt.nsubsystems && !found; i++)
		found = strcmp(sub, opt.subsystems[i]) == 0;
	if (!found)
		return "subsystem not handled";
	if (strcmp(sub, "firmware") == 0 && strcmp(action, "add") != 0)
		return "firmware event other than add";
	if (!*sub || strchr(sub, '/') || strcmp(sub, "..") == 0)
		return "bad SUBSYSTEM";
	return NULL;
}

static void verbose_event(const char *what, const struct event *e, const char *extra)
{
	struct line l = { .len = 0 };
	const char *dev = event_get(e, "DEVPATH");

	add(&l, what);
	add(&l, " ");
	add_safe(&l, e->msg);
	if (dev) {
		add(&l, " DEVPATH=");
		add_safe(&l, dev);
	}
	if (extra) {
		add(&l, ": ");
		add(&l, extra);
	}
	say(&l, 0);
}

static void enqueue(const char *msg, size_t len)
{
	struct event *e;
	const char *why;

	if (q_count == QUEUE_LEN)
		return;  /* callers check first */
	e = &queue[(q_head + q_count) % QUEUE_LEN];
	memcpy(e->msg, msg, len);
	e->msg[len] = '\0';
	e->len = len;
	why = not_ours(e);
	if (why) {
		if (opt.verbose)
			verbose_event("ignored", e, why);
		return;
	}
	q_count++;
}

/* Start PROGRAM for the event at the head of the queue. */
static void spawn(void)
{
	static const char *env[MAX_VARS + 3];
	struct event *e = &queue[q_head];
	const char *sub = event_get(e, "SUBSYSTEM"), *argv[3] = { opt.program, sub, NULL };
	int n = 0, slot;
	pid_t pid;

	for (size_t i = strlen(e->msg) + 1; i < e->len && n < MAX_VARS; i += strlen(e->msg + i) + 1) {
		const char *v = e->msg + i;

		if (strchr(v, '=') && v[0] != '=' && strncmp(v, "HOME=", 5) && strncmp(v, "PATH=", 5))
			env[n++] = v;
	}
	env[n++] = "HOME=/";
	env[n++] = "PATH=/sbin:/bin:/usr/sbin:/usr/bin";
	env[n] = NULL;

	for (slot = 0; jobs[slot].pid; slot++)
		;
	pid = fork();
	if (pid < 0) {
		fail("cannot fork for an event (will retry)", NULL, errno);
		return;  /* stays queued */
	}
	if (pid == 0) {
		/* All-zero kernel sigaction: SIG_DFL, no flags, empty mask, in
		 * every architecture's layout. The raw call reaches the signals
		 * libc keeps for itself (32, 33), which an ignoring parent may
		 * have left ignored: the kernel's helpers start with none. */
		static const unsigned long dfl[8];
		sigset_t none;

		/* The kernel's sigset size: 8 bytes, 16 on MIPS (NSIG 65 or 129). */
		for (int s = 1; s < NSIG; s++)
			syscall(SYS_rt_sigaction, s, dfl, NULL, (NSIG + 6) / 8);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (null_fd >= 0)
			for (int fd = 0; fd < 3; fd++)
				dup2(null_fd, fd);
		/* Ours are all close-on-exec; what our starter left open is not. */
#ifdef SYS_close_range
		if (syscall(SYS_close_range, 3, ~0U, 0) < 0)
#endif
			for (int fd = 3; fd < 1024; fd++)  /* before Linux 5.9 */
				close(fd);
		execve(opt.program, (char *const *)argv, (char *const *)env);
		_exit(127);
	}
	jobs[slot].pid = pid;
	{
		struct line l = { .len = 0 };
		const char *dev = event_get(e, "DEVPATH"), *act = event_get(e, "ACTION");

		add_safe(&l, act);
		add(&l, " ");
		add_safe(&l, dev);
		memcpy(jobs[slot].what, l.buf, l.len < sizeof(jobs[slot].what) ? l.len + 1 : sizeof(jobs[slot].what));
		jobs[slot].what[sizeof(jobs[slot].what) - 1] = '\0';
		if (opt.verbose) {
			struct line m = { .len = 0 };

			add(&m, "run ");
			add(&m, opt.program);
			add(&m, " ");
			add_safe(&m, sub);
			add(&m, " for ");
			add(&m, l.buf);
			add(&m, " (pid ");
			add_num(&m, pid);
			add(&m, ")");
			say(&m, 0);
		}
	}
	running++;
	q_head = (q_head + 1) % QUEUE_LEN;
	q_count--;
}

static void reap(void)
{
	int ws;
	pid_t pid;

	got_child = 0;
	while ((pid = waitpid(-1, &ws, WNOHANG)) > 0) {
		int slot;

		for (slot = 0; slot < opt.maxjobs && jobs[slot].pid != pid; slot++)
			;
		if (slot == opt.maxjobs)
			continue;  /* not ours (a child from before an exec) */
		jobs[slot].pid = 0;
		running--;
		if (opt.verbose || (WIFEXITED(ws) && WEXITSTATUS(ws) >= 126)) {
			struct line l = { .len = 0 };
			int failed = WIFEXITED(ws) && WEXITSTATUS(ws) >= 126;

			add(&l, opt.program);
			add(&l, failed ? " could not run for " : " for ");
			add(&l, jobs[slot].what);
			add(&l, WIFEXITED(ws) ? ": exit status " : ": killed by signal ");
			add_num(&l, WIFEXITED(ws) ? WEXITSTATUS(ws) : WTERMSIG(ws));
			say(&l, failed);
		}
	}
}

/*
 * The rescan: every request pending in SYSFS/class/firmware/ as an
 * ACTION=add event, with the variables of its uevent file. A directory with
 * remaining_size is a firmware-upload device (writing to it flashes the
 * device), never a request: skipped. When the queue fills, the rest waits
 * until it has drained: rescan(1) carries on at the directory position
 * where it stopped (never from the start again, which could go round for
 * ever while a long load keeps its request pending; and not after a count
 * of entries, which requests answered meanwhile would shift). sysfs
 * directory positions are name hashes: they stay valid when other entries
 * go.
 */
static void rescan(int resume)
{
	long pos = resume ? rescan_pos : -1;

	char dir[PATH_MAX], sys[PATH_MAX], real[PATH_MAX], path[PATH_MAX];
	static char msg[MSG_MAX], file[4096];
	size_t sys_len, dir_len;
	struct dirent *d;
	DIR *dp;

	rescan_pos = -1;
	if (!opt.firmware)
		return;
	if (!realpath(opt.sysfs, sys))
		return;
	sys_len = strlen(sys);
	dir_len = strlen(opt.sysfs) + strlen("/class/firmware");
	if (dir_len + 1 > sizeof(dir))
		return;
	memcpy(dir, opt.sysfs, strlen(opt.sysfs));
	memcpy(dir + strlen(opt.sysfs), "/class/firmware", sizeof("/class/firmware"));
	dp = opendir(dir);
	if (!dp)
		return;  /* no fallback in this kernel, or none pending */
	if (pos >= 0)
		seekdir(dp, pos);
	for (;;) {
		long here = telldir(dp);
		size_t n = 0, dev_len, k;
		ssize_t r;
		int fd;

		if (!(d = readdir(dp)))
			break;

		if (d->d_name[0] == '.' || dir_len + 1 + strlen(d->d_name) + 16 > sizeof(path))
			continue;
		memcpy(path, dir, dir_len);
		path[dir_len] = '/';
		memcpy(path + dir_len + 1, d->d_name, strlen(d->d_name) + 1);
		k = strlen(path);
		memcpy(path + k, "/loading", 9);
		if (access(path, F_OK) < 0)
			continue;
		memcpy(path + k, "/remaining_size", 16);
		if (access(path, F_OK) == 0)
			continue;
		path[k] = '\0';
		if (!realpath(path, real) || strncmp(real, sys, sys_len) != 0 || real[sys_len] != '/')
			continue;
		dev_len = strlen(real + sys_len);
		if (q_count == QUEUE_LEN) {
			rescan_pos = here;  /* from this one, when the queue has drained */
			break;
		}
		memcpy(path + k, "/uevent", 8);
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
		if (fd < 0)
			continue;
		r = read(fd, file, sizeof(file) - 1);
		close(fd);
		if (r < 0 || 2 * dev_len + 64 + (size_t)r > sizeof(msg))
			continue;
		file[r] = '\0';
#define PUT(s, l) (memcpy(msg + n, (s), (l)), n += (l))
		PUT("add@", 4);
		PUT(real + sys_len, dev_len + 1);
		PUT("ACTION=add", 11);
		PUT("DEVPATH=", 8);
		PUT(real + sys_len, dev_len + 1);
		PUT("SUBSYSTEM=firmware", 19);
		/* KEY=VALUE lines of the uevent file, KEY in [A-Z0-9_] */
		for (char *s = file, *end; *s; s = end + (*end != '\0')) {
			size_t key = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");

			end = strchr(s, '\n');
			if (!end)
				end = s + strlen(s);
			if (key == 0 || s[key] != '=')
				continue;
			if ((key == 6 && !strncmp(s, "ACTION", 6)) || (key == 7 && !strncmp(s, "DEVPATH", 7)) ||
			    (key == 9 && !strncmp(s, "SUBSYSTEM", 9)))
				continue;
			PUT(s, (size_t)(end - s));
			msg[n++] = '\0';
		}
#undef PUT
		if (opt.verbose) {
			struct line l = { .len = 0 };

			add(&l, "rescan: pending request ");
			add_safe(&l, real + sys_len);
			say(&l, 0);
		}
		enqueue(msg, n);
	}
	closedir(dp);
}

/* Read what the socket holds, up to a full queue. Returns -1 on a fatal
 * error. */
static int receive(int fd)
{
	static char buf[MSG_MAX + 1];
	union {  /* aligned for struct cmsghdr */
		char buf[CMSG_SPACE(sizeof(struct ucred))];
		struct cmsghdr align;
	} control;

	while (q_count < QUEUE_LEN) {
		struct nl_addr from;
		struct iovec iov = { .iov_base = buf, .iov_len = MSG_MAX };
		struct msghdr mh = {
			.msg_name = &from, .msg_namelen = sizeof(from),
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = control.buf, .msg_controllen = sizeof(control.buf),
		};
		struct cmsghdr *c;
		struct ucred *cred = NULL;
		ssize_t n = recvmsg(fd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			if (errno == ENOBUFS) {
				struct line l = { .len = 0 };

				add(&l, "receive buffer overflow: events were lost");
				if (opt.firmware)
					add(&l, "; rescanning pending firmware requests");
				say(&l, 1);
				rescan(0);
				continue;
			}
			fail("cannot read the uevent socket", NULL, errno);
			return -1;
		}
		for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS &&
			    c->cmsg_len >= CMSG_LEN(sizeof(struct ucred)))
				cred = (struct ucred *)(void *)CMSG_DATA(c);
		if (mh.msg_namelen < sizeof(from) || from.pid != 0 || !cred || cred->uid != 0 ||
		    (mh.msg_flags & MSG_TRUNC) || n == 0) {
			if (opt.verbose) {
				struct line l = { .len = 0 };

				add(&l, "dropped a message not from the kernel: port ");
				add_num(&l, mh.msg_namelen >= sizeof(from) ? (long long)from.pid : -1);
				add(&l, ", uid ");
				add_num(&l, cred ? (long long)cred->uid : -1);
				add(&l, (mh.msg_flags & MSG_TRUNC) ? ", truncated" : "");
				say(&l, 0);
			}
			continue;
		}
		buf[n] = '\0';
		enqueue(buf, (size_t)n);
	}
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Start-up. */

static void on_signal(int sig)
{
	if (sig == SIGCHLD)
		got_child = 1;
	else
		stop_signal = sig;
}

/* Fill holes in fds 0-2, so no socket or file of ours becomes one. */
static void sanitize_fds(void)
{
	int fd;

	while (fcntl(2, F_GETFD) < 0 || fcntl(1, F_GETFD) < 0 || fcntl(0, F_GETFD) < 0) {
		fd = open("/dev/null", O_RDWR | O_NOCTTY);
		if (fd < 0)
			fd = open("/", O_RDONLY);
		if (fd < 0)
			_exit(EX_SYSTEM);
		if (fd > 2) {
			close(fd);
			break;
		}
	}
}

static int open_socket(void)
{
	struct nl_addr a = { .family = AF_NETLINK, .groups = 1 };
	int fd, one = 1, size = opt.rcvbuf, scan;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_KOBJECT_UEVENT);
	if (fd < 0) {
		fail("no netlink: cannot open the kernel's uevent socket (NETLINK_KOBJECT_UEVENT)", NULL, errno);
		return -1;
	}
	/* The buffer before bind(), so no event arrives into a small one. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) < 0 &&
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size)) < 0)
		fail("cannot set the receive buffer size", NULL, errno);
	if (setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)) < 0) {
		fail("cannot ask for sender credentials (SO_PASSCRED)", NULL, errno);
		goto fail;
	}
	scan = attach_filter(fd);
	if (scan > 0 && opt.verbose) {
		struct line l = { .len = 0 };

		add(&l, "socket filter attached (scans ");
		add_num(&l, scan);
		add(&l, " bytes for the header's end)");
		say(&l, 0);
	}
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		fail("cannot listen to the kernel's uevents (bind to group 1)", NULL, errno);
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return -1;
}

/* Lock and write the pid file; the lock holds while we run, so a second
 * hotplugd with the same pid file refuses to start. */
static int write_pidfile(void)
{
	struct line l = { .len = 0 };
	char old[24] = "";
	int fd = open(opt.pidfile, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0644);

	if (fd < 0) {
		fail("cannot open the pid file", opt.pidfile, errno);
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		ssize_t r = read(fd, old, sizeof(old) - 1);

		old[r > 0 ? r : 0] = '\0';
		old[strcspn(old, "\n")] = '\0';
		add(&l, "already running: ");
		add_safe(&l, opt.pidfile);
		add(&l, " is locked (pid ");
		add_safe(&l, old);
		add(&l, ")");
		say(&l, 1);
		close(fd);
		return -1;
	}
	add_num(&l, getpid());
	add(&l, "\n");
	if (ftruncate(fd, 0) < 0 || pwrite(fd, l.buf, l.len, 0) != (ssize_t)l.len) {
		fail("cannot write the pid file", opt.pidfile, errno);
		close(fd);
		return -1;
	}
	return fd;  /* kept open: the lock */
}

static long parse_num(const char *s, long max)
{
	long v = 0;

	if (!*s)
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > (max - (*s - '0')) / 10)  /* checked before it can wrap */
			return -1;
		v = v * 10 + (*s - '0');
	}
	if (*s == 'K' || *s == 'k' || *s == 'M' || *s == 'm') {
		long m = *s == 'K' || *s == 'k' ? 1024 : 1024 * 1024;

		if (s[1] || v > max / m)
			return -1;
		return v * m;
	}
	return *s ? -1 : v;
}

static void options(int argc, char **argv)
{
	int i;

	opt.program = HOTPLUGD_PROGRAM;
	opt.sysfs = "/sys";
	opt.maxjobs = 16;
	opt.rcvbuf = 8 * 1024 * 1024;
	if (argc == 2 && strcmp(argv[1], "--help") == 0) {
		write_all(1, usage_text, sizeof(usage_text) - 1);
		write_all(1, help_text, sizeof(help_text) - 1);
		exit(0);
	}
	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		write_all(1, "hotplugd " FWLOAD_VERSION "\n", sizeof("hotplugd " FWLOAD_VERSION "\n") - 1);
		exit(0);
	}
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *a = argv[i] + 1, *val;
		long v;

		if (strcmp(a, "-") == 0) {
			i++;
			break;
		}
		for (; *a; a++) {
			if (*a == 'd' || *a == 'v') {
				*(*a == 'd' ? &opt.detach : &opt.verbose) = 1;
				continue;
			}
			if (!strchr("psjxSb", *a))
				usage("unknown option");
			val = a[1] ? a + 1 : (i + 1 < argc ? argv[++i] : NULL);
			if (!val)
				usage("option wants a value");
			switch (*a) {
			case 'p':
				if (val[0] != '/')
					usage("-p wants an absolute path");
				opt.pidfile = val;
				break;
			case 's':
				if (strcmp(val, "all") == 0) {
					opt.all = 1;
					opt.firmware = 1;
					break;
				}
				if (!*val || strlen(val) > MAX_NAME || strchr(val, '/') || strchr(val, '=') ||
				    strcmp(val, ".") == 0 || strcmp(val, "..") == 0)
					usage("-s wants a subsystem name (at most 64 bytes, no '/')");
				if (opt.nsubsystems == MAX_SUBSYSTEMS)
					usage("at most 16 -s");
				opt.subsystems[opt.nsubsystems++] = val;
				if (strcmp(val, "firmware") == 0)
					opt.firmware = 1;
				break;
			case 'j':
				v = parse_num(val, MAX_JOBS);
				if (v < 1 || strchr(val, 'K') || strchr(val, 'k') || strchr(val, 'M') || strchr(val, 'm'))
					usage("-j wants a number from 1 to 1024");
				opt.maxjobs = (int)v;
				break;
			case 'x':
				if (val[0] != '/')
					usage("-x wants an absolute path");
				opt.program = val;
				break;
			case 'S':
				if (val[0] != '/')
					usage("-S wants an absolute path (hotplugd -d works from /)");
				opt.sysfs = val;
				break;
			case 'b':
				v = parse_num(val, 1L << 30);
				if (v < 4096)
					usage("-b wants bytes, 4096 to 1G (K and M suffixes)");
				opt.rcvbuf = (int)v;
				break;
			}
			break;
		}
	}
	if (i < argc)
		usage("no arguments after the options");
	if (!opt.nsubsystems && !opt.all) {
		opt.subsystems[opt.nsubsystems++] = "firmware";
		opt.firmware = 1;
	}
	if (opt.detach && !opt.pidfile)
		opt.pidfile = "/run/hotplugd.pid";
}

/*
 * -d: the child carries on, in a new session; the parent waits until the
 * child listens (or has failed) and exits with its status, so that whoever
 * started us knows no event from then on can be missed.
 */
static int detach(int *ready)
{
	int p[2];
	pid_t pid;
	unsigned char st;

	if (pipe2(p, O_CLOEXEC) < 0) {
		fail("cannot detach (pipe)", NULL, errno);
		exit(EX_SYSTEM);
	}
	pid = fork();
	if (pid < 0) {
		fail("cannot detach (fork)", NULL, errno);
		exit(EX_SYSTEM);
	}
	if (pid > 0) {
		ssize_t r;

		close(p[1]);
		do
			r = read(p[0], &st, 1);
		while (r < 0 && errno == EINTR);
		if (r == 1)
			_exit(st);
		_exit(EX_SYSTEM);  /* died without a word: it said why on stderr */
	}
	close(p[0]);
	setsid();
	*ready = p[1];
	return 0;
}

static void tell_ready(int *ready, unsigned char st)
{
	if (*ready >= 0) {
		write_all(*ready, (const char *)&st, 1);
		close(*ready);
		*ready = -1;
	}
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	sigset_t block, none;
	int fd, pid_fd = -1, ready = -1, status = EX_SYSTEM;

	sanitize_fds();
	options(argc, argv);
	if (geteuid() != 0) {
		fail("not root: only root can answer firmware requests (run hotplugd as root)", NULL, 0);
		return EX_SYSTEM;
	}
	if (access(opt.program, X_OK) < 0) {
		fail("cannot run", opt.program, errno);
		return EX_SYSTEM;
	}
	null_fd = open("/dev/null", O_RDWR | O_CLOEXEC | O_NOCTTY);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
	/* Signals arrive only inside ppoll(): no race with the checks. */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, NULL);
	sigemptyset(&none);

	if (opt.detach) {
		detach(&ready);
		if (chdir("/") < 0)
			goto out;
	}
	if (opt.pidfile) {
		pid_fd = write_pidfile();
		if (pid_fd < 0)
			goto out;
	}
	fd = open_socket();
	if (fd < 0)
		goto out;
	if (opt.detach) {
		tell_ready(&ready, 0);
		if (null_fd >= 0)
			for (int i = 0; i < 3; i++)
				dup2(null_fd, i);
		to_kmsg = 1;
	}
	if (opt.verbose) {
		struct line l = { .len = 0 };

		add(&l, "listening (pid ");
		add_num(&l, getpid());
		add(&l, ")");
		say(&l, 0);
	}
	rescan(0);

	while (!stop_signal) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct timespec retry = { .tv_sec = 1, .tv_nsec = 0 };

		if (got_child)
			reap();
		while (running < opt.maxjobs && q_count > 0) {
			int before = q_count;

			spawn();
			if (q_count == before)
				break;  /* fork failed: try again on the next wake-up */
		}
		if (rescan_pos >= 0 && q_count == 0)
			rescan(1);
		if (q_count == QUEUE_LEN)
			p.fd = -1;  /* full: let the kernel hold the rest (and its errors) */
		/* a failed fork leaves work queued: try again in a second */
		if (ppoll(&p, 1, q_count && running < opt.maxjobs ? &retry : NULL, &none) < 0 &&
		    errno != EINTR) {
			fail("poll", NULL, errno);
			goto out;
		}
		if ((p.revents & (POLLIN | POLLERR)) && receive(fd) < 0)
			goto out;
	}
	if (opt.verbose) {
		struct line l = { .len = 0 };

		add(&l, "stopped by signal ");
		add_num(&l, stop_signal);
		say(&l, 0);
	}
	status = 0;
out:
	tell_ready(&ready, (unsigned char)status);
	if (pid_fd >= 0) {
		unlink(opt.pidfile);
		close(pid_fd);
	}
	return status;
}
