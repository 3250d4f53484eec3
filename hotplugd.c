/* SPDX-License-Identifier: MIT */
/*
 * hotplugd - run the hotplug multiplexer for the kernel's uevents, read from
 * netlink, on kernels without a uevent helper (or where it must stay off).
 *
 * The kernel broadcasts every uevent on NETLINK_KOBJECT_UEVENT, group 1, as
 *
 *   ACTION@DEVPATH \0 ACTION=... \0 DEVPATH=... \0 SUBSYSTEM=... \0 KEY=VALUE \0 ...
 *
 * hotplugd listens there, in the foreground (a supervisor's job is the
 * supervisor's), and for each event of a subsystem it handles (default:
 * firmware, ACTION=add only) runs PROGRAM SUBSYSTEM (default /sbin/hotplug)
 * as the kernel runs its helper:
 *
 *   1. Other subsystems never reach user space: a classic BPF socket filter
 *      finds SUBSYSTEM= and drops them in the kernel (build_filter). What it
 *      cannot decide it lets through; user space checks every event again.
 *   2. Only the kernel is believed: sender port 0, credentials pid 0 and
 *      uid 0, group 1. (Any process with CAP_NET_ADMIN can send to our port
 *      id; one with CAP_SYS_ADMIN can have the kernel re-broadcast its
 *      message to group 1 from port 0, with its own pid.)
 *   3. The child's environment comes from one list of keys (uevent_keys[],
 *      util.h), for the netlink path and the rescan alike, plus HOME=/ and
 *      the kernel's PATH, and for a firmware event FWLOAD_HOLD_DETACH=1 (a
 *      request the agent holds is held by an agent of its own in the
 *      background: a hold never keeps a job slot); fds 0-2 on /dev/null,
 *      in / with umask 022, signals reset, in a session of its own
 *      (setsid: no controlling terminal, whatever started hotplugd; one
 *      process group).
 *   4. At most MAXJOBS children at once. The socket buffer is the queue: a
 *      message is read only when its child can start. A child past its
 *      deadline (a firmware event's TIMEOUT + MARGIN_S, else -T) gets
 *      SIGTERM, KILL_GRACE_MS later SIGKILL, and its slot back; logged.
 *   5. Nothing is lost: at start, and when the socket says events were
 *      dropped (ENOBUFS), every request pending in SYSFS/class/firmware/ is
 *      served as an ACTION=add event (firmware-upload devices excepted), its
 *      FIRMWARE taken whole from the kernel's uevent file (util.h's lister,
 *      the one fwload-pending runs for fwloadctl).
 *   6. A child that died by a signal not ours (an OOM kill, kill -9 of its
 *      process group), or exited 126 or more, may have left its firmware
 *      request unanswered (loading at 1): that request alone, known by its
 *      identity (its kernfs directory's device and inode), is looked at
 *      again as the rescan does; once (reap).
 *   7. What a child leaves behind (a held request's agent runs on,
 *      detached) becomes ours, not init's (a subreaper): reaped as it ends.
 *   8. SIGTERM or SIGINT: nothing more is read or started; running children
 *      get STOP_WAIT_MS to end, what still runs then is logged; exit 0.
 *
 * Exit status: 0 stopped by SIGTERM or SIGINT, 100 usage, 111 system error.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#define _TIME_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include "log.h"
#include "request.h"

#define HOTPLUGD_PROGRAM FWLOAD_SBINDIR "/hotplug"
#ifndef NETLINK_KOBJECT_UEVENT
#define NETLINK_KOBJECT_UEVENT 15
#endif

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
#define MAX_NAME 64          /* longest -s SUBSYSTEM */
#define MAX_JOBS 1024
#define MSG_MAX 8192         /* the kernel's uevents are at most about 4 KiB */
#define MARGIN_S 5           /* past a request's TIMEOUT: it has timed out */
#define LIMIT_S 305          /* -T: fwload's own default deadline + MARGIN_S */
#define KILL_GRACE_MS 2000   /* from SIGTERM to SIGKILL */
#define STOP_WAIT_MS 5000    /* for running children after SIGTERM */
#define RETRY_MS 1000        /* after a failed fork */

#define USAGE \
	"usage: hotplugd [-p PIDFILE] [-D FD] [-s SUBSYSTEM]... [-j MAXJOBS] [-T SECONDS]\n" \
	"                [-x PROGRAM] [-S SYSFS] [-b BYTES] [-v]\n" \
	"       hotplugd --help | --version\n"

static const char help_text[] = USAGE  /* usage() says the first lines only */
	"\n"
	"Runs PROGRAM SUBSYSTEM for the kernel's uevents of the chosen subsystems,\n"
	"read from netlink, with the environment the kernel gives its uevent helper.\n"
	"Stays in the foreground.\n"
	"\n"
	"  -p PIDFILE    pid file (absolute), locked while running; none by default\n"
	"  -D FD         readiness: a newline to FD (3 or more), then FD closed, once\n"
	"                the socket listens and the start rescan is under way (and\n"
	"                READY=1 to $NOTIFY_SOCKET, systemd's Type=notify, if set)\n"
	"  -s SUBSYSTEM  handle this subsystem (repeatable; default firmware; 'all':\n"
	"                every event); firmware events are handled for ACTION=add only\n"
	"  -j MAXJOBS    children running at once, 1 to 1024 (default 16)\n"
	"  -T SECONDS    the most a child without a request timeout may run (TIMEOUT 0,\n"
	"                other subsystems), 1 to 86400 (default 305); a firmware event's\n"
	"                child may run TIMEOUT + 5 s\n"
	"  -x PROGRAM    absolute path of the program to run (default " HOTPLUGD_PROGRAM ")\n"
	"  -S SYSFS      where sysfs is mounted, for the rescan (default /sys)\n"
	"  -b BYTES      socket receive buffer (default 8M; K and M suffixes)\n"
	"  -v            say what is run and what is dropped, on stderr\n"
	"\n"
	"Exit status: 0 stopped by SIGTERM or SIGINT, 100 usage, 111 system error.\n";

static struct {
	const char *program, *sysfs, *pidfile;
	const char *subsystems[MAX_SUBSYSTEMS];
	int nsubsystems;
	int all;         /* -s all */
	int firmware;    /* firmware is handled: rescan */
	int maxjobs, rcvbuf, limit_s, notify, verbose;
} opt;

static volatile sig_atomic_t stop_signal, got_child;
static int null_fd = -1, to_kmsg;

/* ---------------------------------------------------------------------- */
/* Messages: one line each, to stderr; to the kernel log as well when
 * stderr is /dev/null (a supervisor that keeps no log, fwloadctl's start).
 * A message never holds us: kmsg is opened non-blocking, and stderr gets a
 * line only once poll() says it has room (a line is shorter than
 * PIPE_BUF: it then goes in whole, without blocking), waited for a second
 * at most, and not at all while it stays full (a log pipe nobody reads):
 * meanwhile errors go to the kernel log, and -v's lines are dropped. */

/* level: ERR or INFO (util.h) */
static void say(int level, const char *f, ...)
{
	static int stalled;  /* stderr was full last time */
	struct line l = { .len = 0 };
	va_list ap;

	line_fmt(&l, "<%d>hotplugd: ", (long long)level);
	va_start(ap, f);
	line_vfmt(&l, f, ap);
	va_end(ap);
	line_end(&l, KMSG_MAX);
	stalled = !stderr_put(l.buf + 3, l.len - 3, stalled ? 0 : 1000);
	if (to_kmsg || (stalled && level == ERR))
		(void)kmsg_write(l.buf, l.len);
}

static _Noreturn void usage(const char *why)
{
	struct line l = { .len = 0 };

	line_fmt(&l, "hotplugd: %s\n", why);
	for (size_t i = 0; i < sizeof(USAGE) - 1; i++)
		line_put(&l, help_text[i]);
	(void)!write_all(2, l.buf, l.len);
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
	say(ERR, "cannot attach the socket filter (every uevent is checked in user space)%e", err);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Events and children. */

#define NKEYS (sizeof(uevent_keys) / sizeof(uevent_keys[0]))  /* util.h */

/* One message as received (or made by the rescan): NUL-terminated strings. */
struct event {
	size_t len;
	char msg[MSG_MAX + 1];
};

/* A request's identity: its kernfs directory's device and inode (ino 0:
 * none, or gone). */
struct req_id {
	dev_t dev;
	ino_t ino;
};

static struct event ev;  /* the socket's message or the rescan's; kept while its fork fails */
static int held;         /* ev waits for a fork that failed */
static int ev_again;     /* ev is a second look at a request whose job died */
static struct {
	pid_t pid;
	int64_t deadline;    /* ms, now_ms()'s clock */
	int limit_s, termed, again;
	struct req_id req;   /* a firmware event's request */
	char what[120];      /* "ACTION DEVPATH", escaped */
} jobs[MAX_JOBS];
static int running;
static int rescanning;  /* a rescan waits for a slot (or for held) */
/* Requests whose job died (a signal, or 126 and up) before it answered, to
 * look at again; and those the running rescan looks for (looking: only
 * those). */
static struct req_id again[MAX_JOBS], look[MAX_JOBS];
static int nagain, nlook, looking;

/* The variable "KEY=VALUE" of the message (after its header), or NULL. */
static const char *var(const struct event *e, const char *key)
{
	size_t klen = strlen(key);

	for (size_t i = strlen(e->msg) + 1; i < e->len; i += strlen(e->msg + i) + 1)
		if (strncmp(e->msg + i, key, klen) == 0 && e->msg[i + klen] == '=')
			return e->msg + i;
	return NULL;
}

static const char *value(const struct event *e, const char *key)
{
	const char *v = var(e, key);

	return v ? v + strlen(key) + 1 : NULL;
}

/* Is it an event we handle? NULL if so, else why not (for -v). */
static const char *not_ours(const struct event *e)
{
	const char *action = value(e, "ACTION"), *sub = value(e, "SUBSYSTEM");
	int found = opt.all;

	if (!strchr(e->msg, '@') || !action || !sub || !value(e, "DEVPATH"))
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

/* The identity of the request at SYSFS/DEVPATH: 0, or -1 (none there). */
static int request_id(const char *devpath, struct req_id *id)
{
	char path[PATH_MAX];
	struct stat st;

	id->ino = 0;
	if (sysfs_path(path, opt.sysfs, devpath) < 0 || stat(path, &st) < 0)
		return -1;
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	return 0;
}

/*
 * Start PROGRAM SUBSYSTEM for the event, in a free job slot (the caller
 * has checked there is one). 0, or -1 when it could not fork (the caller
 * keeps the event and tries again).
 */
static int spawn(const struct event *e)
{
	const char *env[NKEYS + 4], *sub = value(e, "SUBSYSTEM"), *to = value(e, "TIMEOUT");
	const char *argv[] = { opt.program, sub, NULL };
	const int null3[3] = { null_fd, null_fd, null_fd };
	int fw = strcmp(sub, "firmware") == 0, n = 0, slot = 0;
	int64_t t = fw ? request_timeout(to) : 0;
	struct line what = { .len = 0 };
	pid_t pid;

	for (size_t k = 0; k < (fw ? FIRMWARE_KEYS : NKEYS); k++)
		if ((env[n] = var(e, uevent_keys[k])))
			n++;
	env[n++] = "HOME=/";
	env[n++] = KERNEL_PATH;
	if (fw)  /* a hold goes on in an agent of its own, never in a job slot */
		env[n++] = "FWLOAD_HOLD_DETACH=1";
	env[n] = NULL;
	while (jobs[slot].pid)
		slot++;
	jobs[slot].req.ino = 0;
	if (fw)
		request_id(value(e, "DEVPATH"), &jobs[slot].req);
	/* The child: a session of its own, so no controlling terminal (a
	 * hotplugd started from a terminal must not hand it to a rule's
	 * program) and one process group (a deadline ends the hook and what it
	 * started); fds 0-2 on /dev/null, the rest reset (util.h). */
	pid = child_start(opt.program, (char *const *)argv, (char *const *)env, null3, CHILD_SESSION, NULL);
	if (pid < 0) {
		say(ERR, "cannot start %s (will retry)%e", opt.program, errno);
		return -1;
	}
	line_fmt(&what, "%q %q", value(e, "ACTION"), value(e, "DEVPATH"));
	memcpy(jobs[slot].what, what.buf, sizeof(jobs[slot].what) - 1);
	jobs[slot].pid = pid;
	jobs[slot].limit_s = t > 0 ? (int)t + MARGIN_S : opt.limit_s;
	jobs[slot].deadline = now_ms() + 1000 * (int64_t)jobs[slot].limit_s;
	jobs[slot].termed = 0;
	jobs[slot].again = ev_again;
	running++;
	if (opt.verbose)
		say(INFO, "run %s %q for %s (pid %d)", opt.program, sub, jobs[slot].what, (long long)pid);
	return 0;
}

/*
 * A child that ended: its slot is free. One that died by a signal not ours
 * (an OOM kill, a kill -9 of its process group: the agent and fwload with
 * it) or exited 126 or more (could not run, or its agent was killed) may
 * have left its request unanswered, perhaps with loading at 1: the request
 * is looked at again as the start rescan would (served, or cancelled),
 * once (a second such end is left to the kernel's timeout). fwload's lock
 * makes a second answerer harmless; one that finds the request answered
 * meanwhile ends at once, silently.
 */
static void reap(void)
{
	int ws, slot;
	pid_t pid;

	got_child = 0;
	while ((pid = waitpid(-1, &ws, WNOHANG)) > 0) {
		int failed = WIFEXITED(ws) && WEXITSTATUS(ws) >= 126, died = failed || WIFSIGNALED(ws);
		const char *then = "";

		for (slot = 0; slot < opt.maxjobs && jobs[slot].pid != pid; slot++)
			;
		if (slot == opt.maxjobs)
			continue;  /* killed and given up on, or from before an exec */
		jobs[slot].pid = 0;
		running--;
		if (died && jobs[slot].req.ino && !jobs[slot].termed) {
			if (jobs[slot].again) {
				then = "; its request was looked at again once already: left to the kernel's timeout";
			} else if (nagain < MAX_JOBS) {
				again[nagain++] = jobs[slot].req;
				then = "; its request is looked at again";
			} else {
				then = "; too many to look at again: left to the kernel's timeout";
			}
		}
		if (opt.verbose || died)
			say(died ? ERR : INFO, "%s %s %s: %s %d%s", opt.program, failed ? "could not run for" : "for",
			    jobs[slot].what, WIFEXITED(ws) ? "exit status" : "killed by signal",
			    (long long)(WIFEXITED(ws) ? WEXITSTATUS(ws) : WTERMSIG(ws)), then);
	}
}

/*
 * Children past their deadline: SIGTERM to the child's process group (fwload
 * answers -1 on it), KILL_GRACE_MS later SIGKILL, and the slot is free
 * (a child stuck in the kernel may take longer to die: it is reaped when it
 * does). Returns the next deadline, or -1 with no child.
 */
static int64_t deadlines(int64_t now)
{
	int64_t next = -1;

	for (int i = 0; i < opt.maxjobs; i++) {
		if (!jobs[i].pid)
			continue;
		if (now >= jobs[i].deadline) {
			kill(-jobs[i].pid, jobs[i].termed ? SIGKILL : SIGTERM);
			say(ERR, "%s for %s (pid %d) past its deadline of %d s: %s", opt.program, jobs[i].what,
			    (long long)jobs[i].pid, (long long)jobs[i].limit_s,
			    jobs[i].termed ? "killed (SIGKILL), its job slot freed" : "stopped (SIGTERM)");
			if (jobs[i].termed) {
				jobs[i].pid = 0;
				running--;
				continue;
			}
			jobs[i].termed = 1;
			jobs[i].deadline = now + KILL_GRACE_MS;
		}
		if (next < 0 || jobs[i].deadline < next)
			next = jobs[i].deadline;
	}
	return next;
}

/*
 * The rescan: every request pending in SYSFS/class/firmware/ as an
 * ACTION=add event, built in ev, read through util.h's lister (the one
 * fwload-pending uses for fwloadctl): its DEVPATH, and its FIRMWARE, TIMEOUT
 * and ASYNC as the kernel wrote them in its uevent file. When no job slot
 * is free, the directory stays open and rescan(RESUME) reads on from there
 * once one is (never from the start again, which could go round for ever
 * while a long load keeps its request pending; not after a count of
 * entries, which requests answered meanwhile would shift). When a fork
 * fails, ev is held and tried again before the rescan goes on.
 * rescan(AGAIN): the same for the requests whose job died (again[]) alone,
 * each known by its identity; one no longer pending was answered.
 */
enum { ALL, RESUME, AGAIN };

static void rescan(int how)
{
	static struct pending p;

	if (!opt.firmware)
		return;
	if (how != RESUME) {
		if (rescanning && p.d.fd >= 0)
			close(p.d.fd);
		looking = how == AGAIN;
		nlook = 0;
		if (looking) {
			memcpy(look, again, (size_t)nagain * sizeof(again[0]));
			nlook = nagain;
			nagain = 0;
		}
		rescanning = pending_open(&p, opt.sysfs) == 0;
		if (!rescanning)
			return;  /* no fallback in this kernel */
	}
	while (running < opt.maxjobs && !held && (!looking || nlook) && pending_next(&p)) {
		if (2 * p.devpath_len + p.file_len + 64 > MSG_MAX)
			continue;
		if (looking) {
			struct req_id id;
			int i = 0;

			if (request_id(p.devpath, &id) < 0)
				continue;
			while (i < nlook && (look[i].dev != id.dev || look[i].ino != id.ino))
				i++;
			if (i == nlook)
				continue;
			look[i] = look[--nlook];
		}
		ev.len = 0;
#define PUT(s, n) (memcpy(ev.msg + ev.len, (s), (n)), ev.len += (n))
		PUT("add@", 4);
		PUT(p.devpath, p.devpath_len + 1);
		PUT("ACTION=add", 11);
		PUT("DEVPATH=", 8);
		PUT(p.devpath, p.devpath_len + 1);
		PUT("SUBSYSTEM=firmware", 19);
		if (p.name) {
			PUT(p.name, strlen(p.name) + 1);
			PUT(p.timeout, strlen(p.timeout) + 1);
			PUT(p.async, strlen(p.async) + 1);
		} else {
			/* not guessed at: an empty name, which the agent refuses (-1) */
			say(ERR, "rescan: %q: its uevent file is not FIRMWARE=, TIMEOUT=, ASYNC= as the kernel writes it: "
			    "passed on with an empty FIRMWARE", p.devpath);
			PUT("FIRMWARE=", 10);
		}
#undef PUT
		ev.msg[ev.len] = '\0';
		ev_again = looking;
		if (opt.verbose || looking)
			say(INFO, "%s: pending request %q", looking ? "again" : "rescan", p.devpath);
		held = spawn(&ev) < 0;
	}
	if (looking && !nlook && p.d.fd >= 0)
		close(p.d.fd), p.d.fd = -1;  /* all found: the rest is not ours */
	rescanning = p.d.fd >= 0;
}

/* Read the socket while a job slot is free: the rest stays in the socket's
 * buffer. Returns -1 on a fatal error. */
static int receive(int fd)
{
	union {  /* aligned for struct cmsghdr */
		char buf[CMSG_SPACE(sizeof(struct ucred))];
		struct cmsghdr align;
	} control;

	while (running < opt.maxjobs && !held && !rescanning) {
		struct nl_addr from;
		struct iovec iov = { .iov_base = ev.msg, .iov_len = MSG_MAX };
		struct msghdr mh = {
			.msg_name = &from, .msg_namelen = sizeof(from),
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = control.buf, .msg_controllen = sizeof(control.buf),
		};
		struct cmsghdr *c;
		struct ucred *cred = NULL;
		ssize_t n = recvmsg(fd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
		const char *why;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			if (errno != ENOBUFS) {
				say(ERR, "cannot read the uevent socket%e", errno);
				return -1;
			}
			say(ERR, "receive buffer overflow: events were lost%s",
			    opt.firmware ? "; rescanning pending firmware requests" : "");
			rescan(ALL);
			continue;
		}
		for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS &&
			    c->cmsg_len >= CMSG_LEN(sizeof(struct ucred)))
				cred = (struct ucred *)(void *)CMSG_DATA(c);
		if (mh.msg_namelen < sizeof(from) || from.pid != 0 || from.groups != 1 || !cred ||
		    cred->pid != 0 || cred->uid != 0 || (mh.msg_flags & MSG_TRUNC) || n == 0) {
			if (opt.verbose)
				say(INFO, "dropped a message not from the kernel: port %d, group %d, pid %d, uid %d%s",
				    mh.msg_namelen >= sizeof(from) ? (long long)from.pid : -1LL,
				    mh.msg_namelen >= sizeof(from) ? (long long)from.groups : -1LL,
				    cred ? (long long)cred->pid : -1LL, cred ? (long long)cred->uid : -1LL,
				    (mh.msg_flags & MSG_TRUNC) ? ", truncated" : "");
			continue;
		}
		ev.msg[n] = '\0';
		ev.len = (size_t)n;
		ev_again = 0;
		why = not_ours(&ev);
		if (why) {
			if (opt.verbose)
				say(INFO, "ignored %q DEVPATH=%q: %s", ev.msg, value(&ev, "DEVPATH") ? value(&ev, "DEVPATH") : "",
				    why);
			continue;
		}
		held = spawn(&ev) < 0;
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

static int open_socket(void)
{
	struct nl_addr a = { .family = AF_NETLINK, .groups = 1 };
	int fd, one = 1, size = opt.rcvbuf, scan;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_KOBJECT_UEVENT);
	if (fd < 0) {
		say(ERR, "no netlink: cannot open the kernel's uevent socket (NETLINK_KOBJECT_UEVENT)%e", errno);
		return -1;
	}
	/* The buffer before bind(), so no event arrives into a small one. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) < 0 &&
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size)) < 0)
		say(ERR, "cannot set the receive buffer size%e", errno);
	if (setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)) < 0) {
		say(ERR, "cannot ask for sender credentials (SO_PASSCRED)%e", errno);
		goto close_fd;
	}
	scan = attach_filter(fd);
	if (scan > 0 && opt.verbose)
		say(INFO, "socket filter attached (scans %d bytes for the header's end)", (long long)scan);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		say(ERR, "cannot listen to the kernel's uevents (bind to group 1)%e", errno);
		goto close_fd;
	}
	return fd;
close_fd:
	close(fd);
	return -1;
}

/*
 * -p: lock the pid file and write our pid; the lock holds while we run, so
 * a second hotplugd with the same file refuses to start. It must be a
 * regular file with one link, owned by root (never written through a
 * symlink or a hard link). After the lock, the path must still name the
 * locked file: a hotplugd that exits unlinks its file before it lets go of
 * the lock, and whoever opened the file just before would otherwise lock a
 * file nobody can see, beside a third instance that made a new one. Its
 * directory is made (0700) if missing.
 *
 * A full /run (or a read-only one) costs the record, never the loader: a
 * number that cannot be written leaves the file locked and empty (fwloadctl
 * finds us by the lock); a file that cannot be made at all (no free inode:
 * ENOSPC, EDQUOT, EROFS) is replaced by a lock on its directory, which
 * keeps out a second hotplugd that cannot make it either (and which
 * fwloadctl finds us by); no directory to lock: we run without either.
 * Each is one line. The fd (the lock), -2 for none, or -1 (refused).
 */
static int no_room(int err)
{
	return err == ENOSPC || err == EDQUOT || err == EROFS;
}

static int pidfile(void)
{
	struct line l = { .len = 0 };
	char old[24], dir[PATH_MAX], *slash;
	int err;

	if (strlen(opt.pidfile) >= sizeof(dir))
		return say(ERR, "the pid file's name is too long: %q", opt.pidfile), -1;
	memcpy(dir, opt.pidfile, strlen(opt.pidfile) + 1);
	for (slash = dir + strlen(dir); *slash != '/'; slash--)
		;
	*slash = '\0';
	for (int tries = 0; tries < 8; tries++) {
		struct stat fst;
		int fd = open(opt.pidfile, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK, 0644);
		ssize_t r = -1;

		if (fd < 0 && errno == ENOENT && mkdir_parent(opt.pidfile, 0700) == 0)
			fd = open(opt.pidfile, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK, 0644);
		if (fd < 0 && no_room(err = errno)) {
			fd = open(slash > dir ? dir : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY);
			if (fd < 0) {
				say(ERR, "cannot make the pid file %q%e, nor open its directory: running without either "
				    "(nothing keeps a second hotplugd out)", opt.pidfile, err);
				return -2;
			}
			if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
				say(ERR, "%s: cannot make the pid file %q%e, and its directory is locked",
				    errno == EWOULDBLOCK ? "already running" : "cannot lock", opt.pidfile, err);
				close(fd);
				return -1;
			}
			say(ERR, "cannot make the pid file %q%e: running without it, its directory locked instead",
			    opt.pidfile, err);
			return fd;
		}
		if (fd < 0) {
			say(ERR, "cannot open the pid file %q%e", opt.pidfile, errno);
			return -1;
		}
		if (fstat(fd, &fst) < 0 || !S_ISREG(fst.st_mode) || fst.st_nlink != 1 || fst.st_uid != 0) {
			say(ERR, "refusing the pid file %q: not a regular file with one link owned by root", opt.pidfile);
			goto close_fd;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			int err = errno;

			r = pread(fd, old, sizeof(old) - 1, 0);
			old[r > 0 ? r : 0] = '\0';
			old[strcspn(old, "\n")] = '\0';
			if (err == EWOULDBLOCK)
				say(ERR, "already running: %q is locked (pid %q)", opt.pidfile, old);
			else
				say(ERR, "cannot lock the pid file %q%e", opt.pidfile, err);
			goto close_fd;
		}
		if (names_file(fd, AT_FDCWD, opt.pidfile) && fstat(fd, &fst) == 0 && fst.st_nlink == 1) {
			line_fmt(&l, "%d\n", (long long)getpid());
			if (ftruncate(fd, 0) < 0 || (r = pwrite(fd, l.buf, l.len, 0)) != (ssize_t)l.len) {
				err = r >= 0 ? ENOSPC : errno;
				(void)!ftruncate(fd, 0);  /* empty, never a part of the number */
				say(ERR, "cannot write the pid into %q%e: it stays empty, and locked", opt.pidfile, err);
			}
			return fd;  /* kept open: the lock */
		}
		close(fd);  /* unlinked or replaced between the open and the lock: again */
		continue;
close_fd:
		close(fd);
		return -1;
	}
	say(ERR, "cannot lock the pid file %q: it was replaced each time", opt.pidfile);
	return -1;
}

static void options(int argc, char **argv)
{
	struct opts o = { .argc = argc, .argv = argv, .i = 1 };
	const char *val = NULL;
	int64_t v;
	int c;

	opt.program = HOTPLUGD_PROGRAM;
	opt.sysfs = "/sys";
	opt.maxjobs = 16;
	opt.limit_s = LIMIT_S;
	opt.rcvbuf = 8 * 1024 * 1024;
	opt.notify = -1;
	help_version(argc, argv, help_text, "hotplugd " FWLOAD_VERSION "\n", 0);
	while ((c = opt_next(&o, "vp:s:j:T:x:S:b:D:", &val)) != -1) {
		switch (c) {
		case 'v':
			opt.verbose = 1;
			break;
		case 'p':
		case 'x':
		case 'S':
			if (val[0] != '/')
				usage("-p, -x and -S want an absolute path");
			*(c == 'p' ? &opt.pidfile : c == 'x' ? &opt.program : &opt.sysfs) = val;
			break;
		case 's':
			if (strcmp(val, "all") == 0) {
				opt.all = opt.firmware = 1;
				break;
			}
			if (!*val || strlen(val) > MAX_NAME || strchr(val, '/') || strchr(val, '=') ||
			    strcmp(val, ".") == 0 || strcmp(val, "..") == 0)
				usage("-s wants a subsystem name (at most 64 bytes, no '/')");
			if (opt.nsubsystems == MAX_SUBSYSTEMS)
				usage("at most 16 -s");
			opt.subsystems[opt.nsubsystems++] = val;
			opt.firmware |= strcmp(val, "firmware") == 0;
			break;
		case 'j':
			if ((v = parse_num(val, MAX_JOBS, NULL)) < 1)
				usage("-j wants a number from 1 to 1024");
			opt.maxjobs = (int)v;
			break;
		case 'T':
			if ((v = parse_num(val, 86400, NULL)) < 1)
				usage("-T wants seconds, 1 to 86400");
			opt.limit_s = (int)v;
			break;
		case 'b':
			if ((v = parse_num(val, 1 << 30, "KM")) < 4096)
				usage("-b wants bytes, 4096 to 1G (K and M suffixes)");
			opt.rcvbuf = (int)v;
			break;
		case 'D':
			if ((v = parse_num(val, INT_MAX, NULL)) < 3 || syscall(SYS_fcntl, (int)v, F_SETFD, FD_CLOEXEC) < 0)
				usage("-D wants an open file descriptor, 3 or more");
			opt.notify = (int)v;
			break;
		case ':':
			usage("option wants a value");
		default:
			usage("unknown option");
		}
	}
	if (o.i < argc)
		usage("no arguments after the options");
	if (!opt.nsubsystems && !opt.all) {
		opt.subsystems[opt.nsubsystems++] = "firmware";
		opt.firmware = 1;
	}
}

/* ready: the socket listens and the start rescan is under way: a newline
 * to -D's descriptor (s6's notification-fd), "READY=1" to systemd's
 * $NOTIFY_SOCKET (Type=notify: a path, or @ for an abstract name). The
 * children's environment is the uevent's: they never see the socket. */
static void ready(void)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t n = path ? strlen(path) : 0;
	int s;

	if (opt.notify >= 0) {
		(void)!write_all(opt.notify, "\n", 1);
		close(opt.notify);
	}
	if (n < 2 || n >= sizeof(sa.sun_path) || (path[0] != '/' && path[0] != '@'))
		return;
	memcpy(sa.sun_path, path, n);
	if (path[0] == '@')
		sa.sun_path[0] = '\0';
	if ((s = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0 ||
	    sendto(s, "READY=1", 7, MSG_NOSIGNAL, (struct sockaddr *)&sa,
		   (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n)) != 7)
		say(WARN, "cannot tell the service manager it is ready (%q)%e", path, errno);
	if (s >= 0)
		close(s);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct stat st;
	sigset_t block, none;
	int fd = -1, pid_fd = -1, status = EX_SYSTEM;

	if (sanitize_fds() < 0)
		return EX_SYSTEM;
	options(argc, argv);
	to_kmsg = fstat(2, &st) < 0 || S_ISDIR(st.st_mode) ||
		  (S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3));
	if (geteuid() != 0) {
		say(ERR, "not root: only root can answer firmware requests (run hotplugd as root)");
		return EX_SYSTEM;
	}
	if (access(opt.program, X_OK) < 0) {
		say(ERR, "cannot run %q%e", opt.program, errno);
		return EX_SYSTEM;
	}
	/* Children run where the kernel runs its helpers: in /, umask 022. */
	if (chdir("/") < 0) {
		say(ERR, "cannot change to /%e", errno);
		return EX_SYSTEM;
	}
	umask(022);
	null_fd = open("/dev/null", O_RDWR | O_CLOEXEC | O_NOCTTY);
	/* What our children leave behind (a held request's agent, detached; a
	 * hook's straggler) is ours, not init's: reaped here. */
	(void)prctl(PR_SET_CHILD_SUBREAPER, 1L, 0L, 0L, 0L);

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

	if (opt.pidfile && (pid_fd = pidfile()) == -1)
		goto out;
	if ((fd = open_socket()) < 0)
		goto out;
	if (opt.verbose)
		say(INFO, "listening (pid %d)", (long long)getpid());
	rescan(ALL);
	ready();

	while (!stop_signal) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct timespec ts, *wait = NULL;
		int64_t now, next;

		if (got_child)
			reap();
		if (held && running < opt.maxjobs)
			held = spawn(&ev) < 0;
		if (!held && rescanning && running < opt.maxjobs)
			rescan(RESUME);
		if (!held && !rescanning && nagain && running < opt.maxjobs)
			rescan(AGAIN);
		now = now_ms();
		next = deadlines(now);
		/* a fork failed with a slot free: again in a while */
		if (held && running < opt.maxjobs && (next < 0 || next > now + RETRY_MS))
			next = now + RETRY_MS;
		if (held || rescanning || running >= opt.maxjobs)
			p.fd = -1;  /* the socket buffer holds the rest */
		if (next >= 0) {
			ts.tv_sec = (time_t)((next - now) / 1000);
			ts.tv_nsec = (long)((next - now) % 1000 * 1000000);
			wait = &ts;
		}
		if (ppoll(&p, 1, wait, &none) < 0 && errno != EINTR) {
			say(ERR, "poll%e", errno);
			goto out;
		}
		if ((p.revents & (POLLIN | POLLERR)) && receive(fd) < 0)
			goto out;
	}
	if (opt.verbose)
		say(INFO, "stopped by signal %d", (long long)stop_signal);
	/* Nothing more is read or started. */
	for (int64_t end = now_ms() + STOP_WAIT_MS, left; running > 0 && (left = end - now_ms()) > 0;) {
		struct timespec ts = { .tv_sec = (time_t)(left / 1000), .tv_nsec = (long)(left % 1000 * 1000000) };

		ppoll(NULL, 0, &ts, &none);
		if (got_child)
			reap();
	}
	for (int i = 0; i < opt.maxjobs; i++)
		if (jobs[i].pid)
			say(ERR, "exiting with %s for %s (pid %d) still running: it finishes on its own", opt.program,
			    jobs[i].what, (long long)jobs[i].pid);
	status = 0;
out:
	if (pid_fd >= 0) {
		/* unlinked while still locked, and only if it is still ours */
		if (names_file(pid_fd, AT_FDCWD, opt.pidfile))
			unlink(opt.pidfile);
		close(pid_fd);
	}
	return status;
}
