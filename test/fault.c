/* SPDX-License-Identifier: MIT */
/*
 * fault.so - LD_PRELOAD fault injector for test/fwload-dyn.
 *
 * Faults apply only to the request's "data" file (an fd whose /proc/self/fd
 * link ends in "/data") and to the image (the fd whose link is the file
 * named by FAULT_IMAGE, or fd 0 when FAULT_IMAGE is "-"). Every other fd
 * (loading, the log, stderr) is left alone. Environment, all optional:
 *
 *   FAULT_SHORT=N        a write/sendfile/splice on data moves at most N bytes
 *   FAULT_EINTR=K        every K-th call on data fails with EINTR (K >= 2)
 *   FAULT_SLOW=US        sleep US microseconds before each call on data
 *   FAULT_EIO_AT=B       calls on data fail with EIO once B bytes went to it
 *   FAULT_ENODEV_AT=B    same with ENODEV (the request went away)
 *   FAULT_NO_SENDFILE=1  sendfile() fails with EINVAL (read/write fallback)
 *   FAULT_NO_SPLICE=1    splice() fails with EINVAL (read/write fallback)
 *   FAULT_READ_EIO_AT=B  reads of the image (read, pread, sendfile) fail with
 *                        EIO once B bytes were read from it
 *   FAULT_READ_EINTR=K   every K-th read() of the image fails with EINTR
 *   FAULT_TRUNCATE_AT=B  when B bytes went to data, truncate the image to B
 *   FAULT_APPEND_AT=B    when B bytes went to data, append to the image
 *   FAULT_REWRITE_AT=B   when B bytes went to data, overwrite the image's
 *                        first byte in place (same size, new mtime)
 *   FAULT_NO_FORK=1      fork(), vfork() and clone() fail with EAGAIN
 *                        (vfork() is otherwise a fork(): a wrapper cannot
 *                        vfork)
 *   FAULT_SWAP=PATH      right after the first stat() or open() of the name
 *                        FAULT_IMAGE (as given, or as its last component
 *                        opened from its directory's fd, as fwload's -r walk
 *                        opens it), rename PATH over it: a file swapped in
 *                        between a check and the next open
 *   FAULT_NO_PROC=1      opening /proc/self/fd/N fails with ENOENT (no /proc)
 *   FAULT_NO_HANDLE=1    open_by_handle_at() fails with EOPNOTSUPP (a file
 *                        system without file handles)
 *   FAULT_REPLACE=DIR    right after the first open() or openat() of a name
 *                        ending in "loading", DIR moves to DIR.old and
 *                        DIR.new takes its place: the request replaced by a
 *                        new one at the same DEVPATH
 *   FAULT_READ_EBADMSG=1 FAULT_READ_EIO_AT fails with EBADMSG, not EIO (an
 *                        uncorrectable ECC error, as UBI reports it)
 *   FAULT_ECC=corrected  ioctl(ECCGETSTATS) on the image (a regular file
 *   FAULT_ECC=failed     standing for /dev/mtdN) succeeds: all zeros the
 *                        first time, then 1 corrected (or failed) read
 *   FAULT_NO_SIGNALFD=1  syscall(SYS_signalfd4, ...) fails with EMFILE (no
 *                        fd left when fwload starts)
 *   FAULT_NO_OPENAT2=1   syscall(SYS_openat2, ...) fails with ENOSYS (a
 *                        kernel before 5.6, qemu-user): -r walks the name
 *   FAULT_ANSWERED=1     the request was answered by another before us: a
 *                        write to "loading" (an fd whose link ends in
 *                        "/loading") is taken and ignored, as the kernel
 *                        does then (the file holds what reading it gives)
 *   FAULT_STATS=FILE     at exit, write the count of calls on data per
 *                        primitive ("sendfile N", "splice N", "write N"),
 *                        and of kill() calls aimed at our own process
 *                        group (0) or at every process (-1)
 *                        ("kill_group N"), which are never passed on (a
 *                        group named by its number, -PGID, is, and so is
 *                        kill(0) from a group leader)
 *
 * A threshold is met exactly: the call that would cross it is cut short.
 */
#define _GNU_SOURCE
#undef _FILE_OFFSET_BITS  /* define pread and pread64 as themselves, not aliases */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sendfile.h>
#include <sys/syscall.h>
#include <sys/types.h>

enum kind { OTHER, DATA, IMAGE, LOADING };

static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_pread)(int, void *, size_t, off_t);
static ssize_t (*real_pread64)(int, void *, size_t, off64_t);
static ssize_t (*real_sendfile)(int, int, off_t *, size_t);
static ssize_t (*real_sendfile64)(int, int, off64_t *, size_t);
static ssize_t (*real_splice)(int, loff_t *, int, loff_t *, size_t, unsigned int);
static pid_t (*real_fork)(void);
static int (*real_open)(const char *, int, ...);
static int (*real_open64)(const char *, int, ...);
static int (*real_openat)(int, const char *, int, ...);
static int (*real_openat64)(int, const char *, int, ...);
static int (*real_stat)(const char *, struct stat *);
static int (*real_stat64)(const char *, struct stat64 *);
static int (*real_kill)(pid_t, int);
static long (*real_syscall)(long, ...);

static struct {
	int ready;
	long long short_n, eintr_k, slow_us, eio_at, enodev_at, read_eio_at, read_eintr_k;
	long long truncate_at, append_at, rewrite_at;
	int no_sendfile, no_splice, no_fork, no_proc, no_handle, read_ebadmsg, no_signalfd, no_openat2, answered;
	const char *swap, *image_name, *replace, *ecc;
	char image[PATH_MAX];   /* canonical path, "-" for fd 0, "" for none */
	const char *stats;
} cf;

static long long data_bytes, image_bytes, data_calls, image_reads;
static long long n_sendfile, n_splice, n_write, n_kill_group;
static int truncated, appended, rewritten, swapped, replaced;

static long long num(const char *name, long long dflt)
{
	const char *s = getenv(name);
	char *end;
	long long v;

	if (!s || !*s)
		return dflt;
	v = strtoll(s, &end, 10);
	return *end ? dflt : v;
}

static void init(void)
{
	const char *img;

	if (cf.ready)
		return;
	real_write = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	real_read = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	real_pread = (ssize_t (*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread");
	real_pread64 = (ssize_t (*)(int, void *, size_t, off64_t))dlsym(RTLD_NEXT, "pread64");
	real_sendfile = (ssize_t (*)(int, int, off_t *, size_t))dlsym(RTLD_NEXT, "sendfile");
	real_sendfile64 = (ssize_t (*)(int, int, off64_t *, size_t))dlsym(RTLD_NEXT, "sendfile64");
	real_splice = (ssize_t (*)(int, loff_t *, int, loff_t *, size_t, unsigned int))
		dlsym(RTLD_NEXT, "splice");
	cf.short_n = num("FAULT_SHORT", 0);
	cf.eintr_k = num("FAULT_EINTR", 0);
	cf.slow_us = num("FAULT_SLOW", 0);
	cf.eio_at = num("FAULT_EIO_AT", -1);
	cf.enodev_at = num("FAULT_ENODEV_AT", -1);
	cf.read_eio_at = num("FAULT_READ_EIO_AT", -1);
	cf.read_eintr_k = num("FAULT_READ_EINTR", 0);
	cf.truncate_at = num("FAULT_TRUNCATE_AT", -1);
	cf.append_at = num("FAULT_APPEND_AT", -1);
	cf.rewrite_at = num("FAULT_REWRITE_AT", -1);
	cf.no_sendfile = num("FAULT_NO_SENDFILE", 0) != 0;
	cf.no_splice = num("FAULT_NO_SPLICE", 0) != 0;
	cf.no_fork = num("FAULT_NO_FORK", 0) != 0;
	real_fork = (pid_t (*)(void))dlsym(RTLD_NEXT, "fork");
	real_kill = (int (*)(pid_t, int))dlsym(RTLD_NEXT, "kill");
	real_open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	real_open64 = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open64");
	real_stat = (int (*)(const char *, struct stat *))dlsym(RTLD_NEXT, "stat");
	real_stat64 = (int (*)(const char *, struct stat64 *))dlsym(RTLD_NEXT, "stat64");
	cf.swap = getenv("FAULT_SWAP");
	cf.replace = getenv("FAULT_REPLACE");
	real_openat = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
	real_openat64 = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat64");
	cf.image_name = getenv("FAULT_IMAGE");
	cf.no_proc = num("FAULT_NO_PROC", 0) != 0;
	cf.no_handle = num("FAULT_NO_HANDLE", 0) != 0;
	cf.stats = getenv("FAULT_STATS");
	cf.read_ebadmsg = num("FAULT_READ_EBADMSG", 0) != 0;
	cf.ecc = getenv("FAULT_ECC");
	cf.no_signalfd = num("FAULT_NO_SIGNALFD", 0) != 0;
	cf.no_openat2 = num("FAULT_NO_OPENAT2", 0) != 0;
	cf.answered = num("FAULT_ANSWERED", 0) != 0;
	real_syscall = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	img = getenv("FAULT_IMAGE");
	if (img && strcmp(img, "-") == 0)
		strcpy(cf.image, "-");
	else if (img && *img && !realpath(img, cf.image))
		cf.image[0] = '\0';
	cf.ready = 1;
}

static enum kind kind(int fd)
{
	char proc[64], link[PATH_MAX];
	ssize_t n;

	init();
	if (fd == 0 && strcmp(cf.image, "-") == 0)
		return IMAGE;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	n = readlink(proc, link, sizeof(link) - 1);
	if (n < 0)
		return OTHER;
	link[n] = '\0';
	if (n >= 5 && strcmp(link + n - 5, "/data") == 0)
		return DATA;
	if (n >= 8 && strcmp(link + n - 8, "/loading") == 0)
		return LOADING;
	if (cf.image[0] == '/' && strcmp(link, cf.image) == 0)
		return IMAGE;
	return OTHER;
}

/* Cut *n so that a byte counter at `done` stops exactly at threshold `at`. */
static void cut(size_t *n, long long done, long long at)
{
	if (at >= 0 && done < at && (long long)*n > at - done)
		*n = (size_t)(at - done);
}

/* Before a call on data: 0 to go ahead with *n bytes, or -1 and errno. */
static int data_gate(size_t *n)
{
	data_calls++;
	if (cf.slow_us > 0) {
		struct timespec ts = { .tv_sec = cf.slow_us / 1000000,
				       .tv_nsec = (cf.slow_us % 1000000) * 1000 };
		nanosleep(&ts, NULL);
	}
	if (cf.eintr_k > 1 && data_calls % cf.eintr_k == 0) {
		errno = EINTR;
		return -1;
	}
	if (cf.eio_at >= 0 && data_bytes >= cf.eio_at) {
		errno = EIO;
		return -1;
	}
	if (cf.enodev_at >= 0 && data_bytes >= cf.enodev_at) {
		errno = ENODEV;
		return -1;
	}
	if (cf.short_n > 0 && (long long)*n > cf.short_n)
		*n = (size_t)cf.short_n;
	cut(n, data_bytes, cf.eio_at);
	cut(n, data_bytes, cf.enodev_at);
	cut(n, data_bytes, cf.truncate_at);
	cut(n, data_bytes, cf.append_at);
	cut(n, data_bytes, cf.rewrite_at);
	return 0;
}

/* After a call on data moved r bytes: change the image if it is time. */
static void data_done(ssize_t r)
{
	int fd;

	if (r <= 0)
		return;
	data_bytes += r;
	if (cf.image[0] != '/')
		return;
	if (!truncated && cf.truncate_at >= 0 && data_bytes >= cf.truncate_at) {
		truncated = 1;
		(void)!truncate(cf.image, (off_t)cf.truncate_at);
	}
	if (!appended && cf.append_at >= 0 && data_bytes >= cf.append_at) {
		appended = 1;
		fd = open(cf.image, O_WRONLY | O_APPEND | O_CLOEXEC);
		if (fd >= 0) {
			(void)!real_write(fd, "grown", 5);
			close(fd);
		}
	}
	if (!rewritten && cf.rewrite_at >= 0 && data_bytes >= cf.rewrite_at) {
		char c;

		rewritten = 1;
		fd = open(cf.image, O_RDWR | O_CLOEXEC);
		if (fd >= 0) {
			if (real_pread(fd, &c, 1, 0) == 1) {
				c = (char)~c;
				(void)!pwrite(fd, &c, 1, 0);
			}
			close(fd);
		}
	}
}

/* Before a read of the image: 0 to go ahead with *n bytes, or -1 and errno. */
static int image_gate(size_t *n, int eintr)
{
	image_reads++;
	if (eintr && cf.read_eintr_k > 1 && image_reads % cf.read_eintr_k == 0) {
		errno = EINTR;
		return -1;
	}
	if (cf.read_eio_at >= 0 && image_bytes >= cf.read_eio_at) {
		errno = cf.read_ebadmsg ? EBADMSG : EIO;
		return -1;
	}
	cut(n, image_bytes, cf.read_eio_at);
	return 0;
}

static void image_done(ssize_t r)
{
	if (r > 0)
		image_bytes += r;
}

ssize_t write(int fd, const void *buf, size_t n)
{
	enum kind k = kind(fd);
	ssize_t r;

	if (k == LOADING && cf.answered)
		return (ssize_t)n;
	if (k != DATA)
		return real_write(fd, buf, n);
	n_write++;
	if (data_gate(&n) < 0)
		return -1;
	r = real_write(fd, buf, n);
	data_done(r);
	return r;
}

ssize_t read(int fd, void *buf, size_t n)
{
	ssize_t r;

	if (kind(fd) != IMAGE)
		return real_read(fd, buf, n);
	if (image_gate(&n, 1) < 0)
		return -1;
	r = real_read(fd, buf, n);
	image_done(r);
	return r;
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	ssize_t r;

	if (kind(fd) != IMAGE)
		return real_pread(fd, buf, n, off);
	if (image_gate(&n, 0) < 0)
		return -1;
	r = real_pread(fd, buf, n, off);
	image_done(r);
	return r;
}

ssize_t pread64(int fd, void *buf, size_t n, off64_t off)
{
	ssize_t r;

	if (kind(fd) != IMAGE)
		return real_pread64(fd, buf, n, off);
	if (image_gate(&n, 0) < 0)
		return -1;
	r = real_pread64(fd, buf, n, off);
	image_done(r);
	return r;
}

/* Both sendfile symbols share this; off is an off_t or off64_t pointer. */
static ssize_t fault_sendfile(int out, int in, void *off, size_t n, int is64)
{
	ssize_t r;
	int to_data = kind(out) == DATA, from_image = kind(in) == IMAGE;

	if (to_data) {
		n_sendfile++;
		if (cf.no_sendfile) {
			errno = EINVAL;
			return -1;
		}
		if (data_gate(&n) < 0)
			return -1;
	}
	if (from_image && image_gate(&n, 0) < 0)
		return -1;
	r = is64 ? real_sendfile64(out, in, off, n) : real_sendfile(out, in, off, n);
	if (from_image)
		image_done(r);
	if (to_data)
		data_done(r);
	return r;
}

ssize_t sendfile(int out, int in, off_t *off, size_t n)
{
	return fault_sendfile(out, in, off, n, 0);
}

ssize_t sendfile64(int out, int in, off64_t *off, size_t n)
{
	return fault_sendfile(out, in, off, n, 1);
}

ssize_t splice(int in, loff_t *off_in, int out, loff_t *off_out, size_t n, unsigned int flags)
{
	ssize_t r;

	if (kind(out) != DATA)
		return real_splice(in, off_in, out, off_out, n, flags);
	n_splice++;
	if (cf.no_splice) {
		errno = EINVAL;
		return -1;
	}
	if (data_gate(&n) < 0)
		return -1;
	r = real_splice(in, off_in, out, off_out, n, flags);
	data_done(r);
	return r;
}

pid_t vfork(void)
{
	init();
	if (cf.no_fork) {
		errno = EAGAIN;
		return -1;
	}
	return real_fork();
}

pid_t fork(void)
{
	init();
	if (cf.no_fork) {
		errno = EAGAIN;
		return -1;
	}
	return real_fork();
}

/* clone(fn, stack, flags, arg, ...): fwload starts its log file's writer
 * with it. */
int clone(int (*fn)(void *), void *stack, int flags, void *arg, ...)
{
	static int (*real_clone)(int (*)(void *), void *, int, void *, ...);
	va_list ap;
	void *ptid, *tls, *ctid;

	init();
	if (cf.no_fork) {
		errno = EAGAIN;
		return -1;
	}
	if (!real_clone)
		real_clone = (int (*)(int (*)(void *), void *, int, void *, ...))dlsym(RTLD_NEXT, "clone");
	va_start(ap, arg);
	ptid = va_arg(ap, void *);
	tls = va_arg(ap, void *);
	ctid = va_arg(ap, void *);
	va_end(ap);
	return real_clone(fn, stack, flags, arg, ptid, tls, ctid);
}

/* ECCGETSTATS, struct mtd_ecc_stats (<mtd/mtd-abi.h>), on the image. */
struct ecc_stats {
	unsigned int corrected, failed, badblocks, bbtblocks;
};

static int fault_ioctl(const char *name, int fd, unsigned long req, void *arg)
{
	static long long calls;
	int (*real)(int, unsigned long, ...);

	init();
	if (cf.ecc && req == (unsigned long)_IOR('M', 18, struct ecc_stats) && kind(fd) == IMAGE) {
		struct ecc_stats *st = arg;

		memset(st, 0, sizeof(*st));
		if (calls++ > 0)
			*(strcmp(cf.ecc, "failed") == 0 ? &st->failed : &st->corrected) = 1;
		return 0;
	}
	real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, name);
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	return real(fd, req, arg);
}

int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	return fault_ioctl("ioctl", fd, req, arg);
}

/* glibc's ioctl for _TIME_BITS=64 on 32-bit targets. */
int __ioctl_time64(int fd, unsigned long req, ...);
int __ioctl_time64(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	return fault_ioctl("__ioctl_time64", fd, req, arg);
}

/* syscall(): the six argument registers passed on as they are (what
 * glibc's own syscall() takes), but a signalfd4 or an openat2 refused. */
long syscall(long n, ...)
{
	va_list ap;
	long a[6];

	va_start(ap, n);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	init();
	if (cf.no_signalfd && n == SYS_signalfd4) {
		errno = EMFILE;
		return -1;
	}
	if (cf.no_openat2 && n == 437) {  /* SYS_openat2 */
		errno = ENOSYS;
		return -1;
	}
	return real_syscall(n, a[0], a[1], a[2], a[3], a[4], a[5]);
}

int kill(pid_t pid, int sig)
{
	init();
	/* (kill(0) from a process that leads a group of its own reaches that
	 * group alone: passed on.) */
	if (pid == -1 || (pid == 0 && getpgrp() != getpid())) {
		n_kill_group++;
		return 0;
	}
	return real_kill(pid, sig);
}

/* FAULT_SWAP: after a look at the image's name, another file takes it. */
static void swap_after(const char *path)
{
	size_t n = strlen(path);

	if (cf.replace && *cf.replace && !replaced && n >= 7 && strcmp(path + n - 7, "loading") == 0) {
		char old[PATH_MAX], new[PATH_MAX];

		replaced = 1;
		snprintf(old, sizeof(old), "%s.old", cf.replace);
		snprintf(new, sizeof(new), "%s.new", cf.replace);
		(void)!rename(cf.replace, old);
		(void)!rename(new, cf.replace);
	}
	if (cf.swap && *cf.swap && cf.image_name && !swapped && strcmp(path, cf.image_name) == 0) {
		swapped = 1;
		(void)!rename(cf.swap, cf.image_name);
	}
}

static int fault_open(int (*real)(const char *, int, ...), const char *path, int flags, mode_t mode)
{
	int fd;

	init();
	if (cf.no_proc && strncmp(path, "/proc/self/fd/", 14) == 0) {
		errno = ENOENT;
		return -1;
	}
	fd = real(path, flags, mode);
	swap_after(path);
	return fd;
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = (mode_t)va_arg(ap, int);
	va_end(ap);
	init();
	return fault_open(real_open, path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = (mode_t)va_arg(ap, int);
	va_end(ap);
	init();
	return fault_open(real_open64, path, flags, mode);
}

static int fault_openat(int (*real)(int, const char *, int, ...), int dir, const char *path, int flags,
			mode_t mode)
{
	int fd;

	init();
	fd = real(dir, path, flags, mode);
	if (path[0] != '/' && dir >= 0 && cf.swap && !swapped) {  /* the name it stands for */
		char proc[64], full[PATH_MAX];
		ssize_t n;

		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", dir);
		if ((n = readlink(proc, full, sizeof(full) - 1)) > 0) {
			snprintf(full + n, sizeof(full) - (size_t)n, "/%s", path);
			swap_after(full);
		}
	}
	swap_after(path);
	return fd;
}

int openat(int dir, const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = (mode_t)va_arg(ap, int);
	va_end(ap);
	init();
	return fault_openat(real_openat, dir, path, flags, mode);
}

int openat64(int dir, const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = (mode_t)va_arg(ap, int);
	va_end(ap);
	init();
	return fault_openat(real_openat64, dir, path, flags, mode);
}

int stat(const char *path, struct stat *st)
{
	int r;

	init();
	r = real_stat(path, st);
	swap_after(path);
	return r;
}

int stat64(const char *path, struct stat64 *st)
{
	int r;

	init();
	r = real_stat64(path, st);
	swap_after(path);
	return r;
}

int open_by_handle_at(int mount_fd, struct file_handle *h, int flags)
{
	static int (*real)(int, struct file_handle *, int);

	init();
	if (cf.no_handle) {
		errno = EOPNOTSUPP;
		return -1;
	}
	if (!real)
		real = (int (*)(int, struct file_handle *, int))dlsym(RTLD_NEXT, "open_by_handle_at");
	return real(mount_fd, h, flags);
}

__attribute__((destructor)) static void stats(void)
{
	char buf[128];
	int fd, len;

	init();
	if (!cf.stats || !*cf.stats)
		return;
	len = snprintf(buf, sizeof(buf), "sendfile %lld\nsplice %lld\nwrite %lld\nkill_group %lld\n",
		       n_sendfile, n_splice, n_write, n_kill_group);
	fd = open(cf.stats, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0) {
		(void)!real_write(fd, buf, (size_t)len);
		close(fd);
	}
}
