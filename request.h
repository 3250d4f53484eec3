/* SPDX-License-Identifier: MIT */
/*
 * request.h - what a firmware request is, decided once for the programs
 * that meet one (fwload, hotplugd, fwload-pending, fwload-runas).
 *
 *   request_kind                      "a pending request" (or an upload device)
 *   request_key                       a request's identity, "DEV-INO"
 *   request_timeout                   a request's TIMEOUT, bounded
 *   uevent_keys, KERNEL_PATH          what a child of an event may get
 *   sysfs_path, has_dots              SYSFS/DEVPATH; a "." or ".." component
 *   pending_open, pending_next        the one lister of pending requests
 */
#ifndef FWLOAD_REQUEST_H
#define FWLOAD_REQUEST_H

#include "util.h"

/*
 * What the directory dirfd holds, the one definition of "a pending
 * request" (the scripts ask fwload-pending -k): REQ_PENDING when it has
 * "loading" and no "remaining_size"; REQ_UPLOAD for a firmware-upload
 * device (it has both: writing to it starts a flash, so it is never
 * answered); REQ_NONE otherwise.
 */
enum { REQ_NONE, REQ_PENDING, REQ_UPLOAD };

UTIL int request_kind(int dirfd)
{
	struct stat st;

	if (fstatat(dirfd, "loading", &st, AT_SYMLINK_NOFOLLOW) < 0)
		return REQ_NONE;
	if (fstatat(dirfd, "remaining_size", &st, AT_SYMLINK_NOFOLLOW) == 0)
		return REQ_UPLOAD;
	return REQ_PENDING;
}

/* --- An event's child --- */

/*
 * The variables a program run for an event may get, in the kernel's
 * order: a firmware event's (the first FIRMWARE_KEYS), then the device
 * keys the kernel sends for other subsystems and busybox mdev or an
 * mdev.conf rule reads (MAJOR, MINOR and DEVNAME to make the node;
 * MODALIAS for modprobe; ...). Nothing else ever: not LD_PRELOAD, IFS,
 * ENV, BASH_ENV, HOTPLUG_DIR, FWLOAD_*, nor an administrator's tokens.
 * hotplugd gives its children these (a firmware event's keys alone for
 * one); fwload-runas a run= program the firmware keys. HOME=/ and
 * KERNEL_PATH follow, as the kernel gives its uevent helper.
 */
#define FIRMWARE_KEYS 7
UTIL const char *const uevent_keys[] = {
	"ACTION", "DEVPATH", "SUBSYSTEM", "FIRMWARE", "TIMEOUT", "ASYNC", "SEQNUM",
	"MAJOR", "MINOR", "DEVNAME", "DEVTYPE", "DEVMODE", "DEVUID", "DEVGID", "MODALIAS",
	"DRIVER", "INTERFACE", "IFINDEX", "PRODUCT", "TYPE", "BUSNUM", "DEVNUM", "PARTN",
	"PARTNAME", "DISKSEQ",
};
#define KERNEL_PATH "PATH=/sbin:/bin:/usr/sbin:/usr/bin"
/*
 * A request's key: "DEV-INO", the device and inode numbers of its kernfs
 * directory dirfd (a new request at the same DEVPATH is a new node, with a
 * new key). The name of fwload's lock file and of the agent's hold record.
 * 0, or -1 (errno set).
 */
UTIL int request_key(int dirfd, struct line *key)
{
	struct stat st;

	if (fstat(dirfd, &st) < 0)
		return -1;
	line_fmt(key, "%u-%u", (long long)st.st_dev, (long long)st.st_ino);
	return 0;
}

/* SYSFS/DEVPATH in path (PATH_MAX bytes): 0, or -1 when too long. */
UTIL int sysfs_path(char *path, const char *sysfs, const char *devpath)
{
	size_t s = strlen(sysfs), d = strlen(devpath);

	if (s + d >= PATH_MAX)
		return -1;
	memcpy(path, sysfs, s);
	memcpy(path + s, devpath, d + 1);
	return 0;
}

/*
 * A request's TIMEOUT (the event's, or its uevent file's) as seconds from
 * 1 to 86400: more counts as a day (the most anything here waits for a
 * request); 0 for none (0, empty, not a number). The shell's holds apply
 * the same bound (fwload-lib.sh, hold_record).
 */
UTIL int64_t request_timeout(const char *v)
{
	int64_t t = 0;
	size_t n = 0;

	for (; v && v[n] >= '0' && v[n] <= '9'; n++)
		if (t <= 86400)
			t = t * 10 + (v[n] - '0');
	return !v || v[n] || !n ? 0 : t > 86400 ? 86400 : t;
}

/*
 * The pending requests, one at a time: the one lister (hotplugd's rescan,
 * and fwload-pending for fwloadctl's rescan, settle and status). Every name
 * in SYSFS/class/firmware/, in directory order (dir_next()); each request
 * is a link there, "../../devices/...",
 * whose target past "../.." is its DEVPATH (the kernel's class links are
 * relative: one with a "." or ".." component further on is skipped); a
 * pending request by request_kind() (never a firmware-upload device); its
 * uevent file read whole, as the kernel writes it
 * ("FIRMWARE=%s\nTIMEOUT=%d\nASYNC=%d\n", drivers/base/firmware_loader/
 * sysfs.c): the name is everything between "FIRMWARE=" and the last two
 * lines, newlines and all (a driver may build it from device data), cut in
 * place into the strings "FIRMWARE=NAME", "TIMEOUT=N" and "ASYNC=N". A file
 * of another shape leaves name, timeout and async NULL (not guessed at).
 * The directory stays open between two calls: a caller with no job slot
 * free reads on later from where it was.
 */
struct pending {
	struct dirbuf d;            /* SYSFS/class/firmware (d.fd -1: read to its end) */
	char devpath[PATH_MAX];     /* the request's DEVPATH */
	size_t devpath_len;
	char file[4096];            /* its uevent file, cut in place */
	size_t file_len;
	char *name, *timeout, *async;
};

/* Has the path a "." or ".." component? */
UTIL int has_dots(const char *p)
{
	for (; (p = strchr(p, '/')); p++)
		if (p[1] == '.' && (!p[2] || p[2] == '/' || (p[2] == '.' && (!p[3] || p[3] == '/'))))
			return 1;
	return 0;
}

/* Where key ("\nKEY=") starts in f when f ends, at end, in key, digits and
 * a newline; or NULL. */
UTIL char *uevent_tail(char *f, char *end, const char *key)
{
	size_t k = strlen(key);
	char *d;

	if (end - f < 2 || end[-1] != '\n')
		return NULL;
	for (d = end - 1; d > f && d[-1] >= '0' && d[-1] <= '9'; d--)
		;
	if (d == end - 1 || (size_t)(d - f) < k || memcmp(d - k, key, k) != 0)
		return NULL;
	return d - k;
}

/* SYSFS/class/firmware/ opened for pending_next(): 0, or -1 (errno; ENOENT:
 * no sysfs fallback in this kernel). */
UTIL int pending_open(struct pending *p, const char *sysfs)
{
	struct line path = { .len = 0 };

	line_fmt(&path, "%s/class/firmware", sysfs);
	p->d.pos = p->d.len = 0;
	if (path.len >= sizeof(path.buf) - 1)
		return p->d.fd = -1, errno = ENAMETOOLONG, -1;
	p->d.fd = open(path.buf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return p->d.fd < 0 ? -1 : 0;
}

/* The next pending request in p: 1; 0 when there is none left (the
 * directory is closed). */
UTIL int pending_next(struct pending *p)
{
	const char *name;

	while ((name = dir_next(&p->d))) {
		char *f = p->file, *a, *t;
		ssize_t l, r = -1;
		int fd, u;

		l = readlinkat(p->d.fd, name, p->devpath, sizeof(p->devpath) - 1);
		if (l < 15 || (size_t)l == sizeof(p->devpath) - 1)  /* (cut: no whole DEVPATH) */
			continue;
		p->devpath[l] = '\0';
		if (strncmp(p->devpath, "../../devices/", 14) != 0 || has_dots(p->devpath + 5) ||
		    (fd = openat(p->d.fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
			continue;
		if (request_kind(fd) == REQ_PENDING &&
		    (u = openat(fd, "uevent", O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)) >= 0) {
			r = read(u, f, sizeof(p->file) - 1);
			close(u);
		}
		close(fd);
		if (r < 0)
			continue;  /* not a request, or answered meanwhile */
		memmove(p->devpath, p->devpath + 5, (size_t)l - 4);
		p->devpath_len = (size_t)l - 5;
		f[r] = '\0';
		p->file_len = (size_t)r;
		a = uevent_tail(f, f + r, "\nASYNC=");
		t = a ? uevent_tail(f, a + 1, "\nTIMEOUT=") : NULL;
		p->name = p->timeout = p->async = NULL;
		if (t && t >= f + 9 && memcmp(f, "FIRMWARE=", 9) == 0 && !memchr(f, '\0', (size_t)r)) {
			*t = *a = f[r - 1] = '\0';
			p->name = f;
			p->timeout = t + 1;
			p->async = a + 1;
		}
		return 1;
	}
	return 0;
}

#endif
