/* SPDX-License-Identifier: MIT */
/*
 * fwload-pending - the firmware requests waiting for an answer, as the
 * kernel lists them in SYSFS/class/firmware/ (the one lister, request.h,
 * hotplugd's rescan reads the same): what fwloadctl's rescan, settle and
 * status serve and show, and a request's key.
 *
 *   fwload-pending [-s SYSFS] [COMMAND [ARG]...]   each one, or COMMAND for each
 *   fwload-pending [-s SYSFS] [-u] -k DEVPATH      the key of one
 *
 * Exit status: 0 (or, with COMMAND, the highest of COMMAND's statuses);
 * 6 (-k) not a pending request but a firmware-upload device (-u: the other
 * way round); 100 usage; 111 no request there (-k), or the list cannot be
 * opened.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#define _TIME_BITS 64
#include "request.h"

enum { NOT_REQUEST = 6 };

static const char usage_text[] =
	"usage: fwload-pending [-s SYSFS] [COMMAND [ARG]...]\n"
	"       fwload-pending [-s SYSFS] [-u] -k DEVPATH\n"
	"       fwload-pending --help | --version\n"
	"The pending firmware requests: DEVPATH, FIRMWARE and TIMEOUT, each ended by a\n"
	"NUL; or COMMAND (an absolute path) run for each with the event's variables.\n"
	"-k: the request's key (DEV-INO: its lock file's and hold record's name);\n"
	"-u: of a firmware-upload device instead.\n";

#define say(...) say_as("fwload-pending", __VA_ARGS__)

/* -k DEVPATH: the key of the request at SYSFS/DEVPATH (request_key()) on
 * stdout. 0; 6 a firmware-upload device (-u: a pending request); 111 no
 * request (-u: no upload device) there. */
static int print_key(const char *sysfs, const char *devpath, int upload)
{
	struct line key = { .len = 0 };
	char req[PATH_MAX];
	int dir = -1, kind = REQ_NONE, err = 0;

	if (sysfs_path(req, sysfs, devpath) < 0) {
		say("SYSFS/DEVPATH too long");
		return EX_USAGE;
	}
	if ((dir = open(req, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0 &&
	    (kind = request_kind(dir)) == (upload ? REQ_UPLOAD : REQ_PENDING) && request_key(dir, &key) < 0)
		err = errno;
	if (dir >= 0)
		close(dir);
	if (err)
		return say("cannot stat %q%e", req, err), EX_SYSTEM;
	if (key.len) {
		line_put(&key, '\n');
		return write_all(1, key.buf, key.len) < 0 ? EX_SYSTEM : 0;
	}
	if (kind == REQ_NONE)
		say(upload ? "no firmware-upload device at %q" : "no request at %q", req);
	else
		say(kind == REQ_UPLOAD ? "%q is a firmware-upload device, not a request" :
					 "%q is a pending request, not a firmware-upload device", req);
	return kind == REQ_NONE ? EX_SYSTEM : NOT_REQUEST;
}

/*
 * [COMMAND [ARG]...]: the pending requests, read through request.h's
 * lister (hotplugd's rescan reads the same). Without COMMAND, a record each
 * on stdout: DEVPATH, FIRMWARE and TIMEOUT, each ended by a NUL, as the
 * kernel wrote them (a uevent file of another shape: FIRMWARE and TIMEOUT
 * empty). With COMMAND (an absolute path): run for each, one at a time,
 * its environment ours with the event's variables (ACTION=add, DEVPATH,
 * SUBSYSTEM=firmware, FIRMWARE, TIMEOUT and ASYNC) in place of any we
 * have, fds 0-2 ours, signals reset. 0, or the highest status of COMMAND
 * (128 + N: killed by signal N), whatever the order the requests are
 * listed in; 111 when the list cannot be opened.
 */
static int pending(const char *sysfs, char *const *cmd)
{
	static char rec[PATH_MAX + 4096 + 16];
	static struct pending p;
	extern char **environ;
	size_t n = 0, e = 0;
	int status = 0;

	while (environ[n])
		n++;
	const char *env[n + 7];

	for (size_t i = 0; i < n; i++) {  /* a firmware event's keys are the request's */
		size_t k = 0, l;

		while (k < FIRMWARE_KEYS && (strncmp(environ[i], uevent_keys[k], l = strlen(uevent_keys[k])) ||
					     environ[i][l] != '='))
			k++;
		if (k == FIRMWARE_KEYS)
			env[e++] = environ[i];
	}
	if (pending_open(&p, sysfs) < 0) {
		if (errno == ENOENT)
			return 0;  /* no sysfs fallback in this kernel: nothing pending */
		say("cannot read %q/class/firmware%e", sysfs, errno);
		return EX_SYSTEM;
	}
	while (pending_next(&p)) {
		const char *name = p.name ? p.name + 9 : "", *to = p.timeout ? p.timeout + 8 : "";
		size_t m = 0;
		pid_t pid;
		int ws;

		if (!cmd) {
			memcpy(rec, p.devpath, p.devpath_len + 1);
			m = p.devpath_len + 1;
			memcpy(rec + m, name, strlen(name) + 1);
			m += strlen(name) + 1;
			memcpy(rec + m, to, strlen(to) + 1);
			if (write_all(1, rec, m + strlen(to) + 1) < 0)
				return close(p.d.fd), EX_SYSTEM;
			continue;
		}
		memcpy(rec, "DEVPATH=", 8);
		memcpy(rec + 8, p.devpath, p.devpath_len + 1);
		m = e;
		env[m++] = "ACTION=add";
		env[m++] = rec;
		env[m++] = "SUBSYSTEM=firmware";
		env[m++] = p.name ? p.name : "FIRMWARE=";
		if (p.name) {
			env[m++] = p.timeout;
			env[m++] = p.async;
		}
		env[m] = NULL;
		if ((pid = child_start(cmd[0], cmd, (char *const *)env, NULL, 0, "fwload-pending")) < 0) {
			say("cannot start %q%e", cmd[0], errno);
			close(p.d.fd);
			return EX_SYSTEM;
		}
		while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
			;
		ws = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
		if (ws > status)
			status = ws;
	}
	return status;
}

int main(int argc, char **argv)
{
	struct opts o = { .argc = argc, .argv = argv, .i = 1 };
	const char *val = NULL, *sysfs = getenv("SYSFS"), *key = NULL;
	int c, upload = 0;

	if (sanitize_fds() < 0)
		return EX_SYSTEM;
	help_version(argc, argv, usage_text, "fwload-pending " FWLOAD_VERSION "\n", 0);
	if (!sysfs || !*sysfs)
		sysfs = "/sys";
	while ((c = opt_next(&o, "us:k:", &val)) != -1) {
		if (c == 'u')
			upload = 1;
		else if (c == 's' || c == 'k')
			*(c == 's' ? &sysfs : &key) = val;
		else
			break;
	}
	if (c != -1 || (key ? o.i != argc || key[0] != '/' || has_dots(key) : upload) ||
	    (o.i < argc && argv[o.i][0] != '/')) {
		say(c == '?' ? "unknown option" : c == ':' ? "option wants a value" :
		    key ? "-k takes DEVPATH alone, absolute, no . or .. component" :
		    upload ? "-u goes with -k" : "COMMAND must be an absolute path");
		(void)write_all(2, usage_text, sizeof(usage_text) - 1);
		return EX_USAGE;
	}
	if (key)
		return print_key(sysfs, key, upload);
	return pending(sysfs, o.i < argc ? argv + o.i : NULL);
}
