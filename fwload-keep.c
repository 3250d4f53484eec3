/* SPDX-License-Identifier: MIT */
/*
 * fwload-keep - PROGRAM and all it starts, as one unit, for fwload's
 * COMMAND slot (a rules file's run=): what PROGRAM leaves behind never
 * outlives the load.
 *
 *   fwload-keep PROGRAM [ARG]...
 *
 *   1. a process group of its own: the one fwload starts its COMMAND in
 *      (we lead it), else a new session (setsid: no controlling
 *      terminal); PROGRAM in it
 *   2. the subreaper of all PROGRAM starts: what leaves the group (setsid,
 *      a daemon's double fork) comes to us as its parents die
 *   3. our parent's death (fwload's, however it comes) reaches us as
 *      SIGTERM (PR_SET_PDEATHSIG), as does fwload's end of the load
 *   4. PROGRAM's exit, or SIGTERM: every process that is or becomes our
 *      child SIGKILLed until none is left (1 s at most: one stuck in the
 *      kernel is left to init); on SIGTERM, then our group, us included
 *   5. exit as PROGRAM did: its status, or 128 + N for signal N (one line)
 *
 * Where the kernel refuses a subreaper (before Linux 3.4, qemu-user) only
 * the group is ended. fwload ends our group when we end, first or not.
 * Exit status: PROGRAM's; 100 usage (--help, --version too: never 0, which
 * in fwload's COMMAND slot would commit the text); 111 no unit could be
 * made; 127 PROGRAM could not be run.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#define _TIME_BITS 64
#include <sys/prctl.h>
#include "util.h"

static const char usage_text[] =
	"usage: fwload-keep PROGRAM [ARG]...\n"
	"       fwload-keep --help | --version\n"
	"Runs PROGRAM (an absolute path) and ends all it starts when it ends, when told\n"
	"to (SIGTERM) or when our parent dies; exits as PROGRAM did.\n";

#define say(...) say_as("fwload-keep", __VA_ARGS__)

/* Our children, each SIGKILLed: the processes /proc says we are the parent
 * of. A child's pid stays ours until we reap it: never another's. */
static void kill_children(void)
{
	struct dirbuf d = { .fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC) };
	int64_t me = getpid(), pid;
	const char *name;

	while ((name = dir_next(&d)))
		if ((pid = parse_num(name, INT32_MAX, NULL)) > 0 && proc_stat(pid, 4) == me)
			kill((pid_t)pid, SIGKILL);
}

/* Every child of ours ended (reaped), round by round: what PROGRAM left
 * comes to us as its parents die. PROGRAM's wait status in *ws when it
 * is reaped here. 1 s at most. */
static void sweep(pid_t program, int *ws)
{
	static const ksigset chld = { 1UL << (SIGCHLD - 1) };
	static const struct timespec tick = { 0, 10 * 1000 * 1000 };
	pid_t p;
	int w;

	for (int i = 0; i < 100; i++) {
		while ((p = waitpid(-1, &w, WNOHANG)) > 0)
			if (p == program)
				*ws = w;
		if (p < 0)
			return;  /* no child left */
		kill_children();
		syscall(SYS_rt_sigtimedwait, chld, NULL, &tick, KSIG_BYTES);
	}
}

int main(int argc, char **argv)
{
	static const ksigset wake = { 1UL << (SIGTERM - 1) | 1UL << (SIGCHLD - 1) };
	extern char **environ;
	pid_t parent = getppid(), pid;
	int ws = 0, s = 0;
	siginfo_t si;

	if (sanitize_fds() < 0)
		return EX_SYSTEM;
	help_version(argc, argv, usage_text, "fwload-keep " FWLOAD_VERSION "\n", EX_USAGE);
	if (argc < 2 || argv[1][0] != '/') {
		say("want an absolute PROGRAM");
		(void)write_all(2, usage_text, sizeof(usage_text) - 1);
		return EX_USAGE;
	}
	/* SIGTERM and SIGCHLD taken one at a time below; our parent's death is
	 * one (and if it died already, we end at once). */
	syscall(SYS_rt_sigprocmask, SIG_BLOCK, wake, NULL, KSIG_BYTES);
	sig_default(SIGCHLD);
	if ((getpgrp() != getpid() && setsid() < 0) || prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 ||
	    (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0 && errno != EINVAL)) {
		say("cannot make a unit of %q%e", argv[1], errno);
		return EX_SYSTEM;
	}
	if (getppid() != parent)
		return EX_SYSTEM;
	if ((pid = child_start(argv[1], argv + 1, environ, NULL, 0, "fwload-keep")) < 0) {
		say("cannot start %q%e", argv[1], errno);
		return EX_SYSTEM;
	}
	close(0), close(1);  /* PROGRAM's: its output is the image, its end is EOF */
	while (s != SIGTERM) {
		s = (int)syscall(SYS_rt_sigtimedwait, wake, NULL, NULL, KSIG_BYTES);
		while (s == SIGCHLD && (si.si_pid = 0, waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) == 0) &&
		       si.si_pid > 0 && si.si_pid != pid)
			waitpid(si.si_pid, NULL, 0);  /* one of what PROGRAM left */
		if (s == SIGCHLD && si.si_pid == pid)
			break;
	}
	sweep(pid, &ws);
	if (s == SIGTERM)
		kill(0, SIGKILL);  /* what is left of our group (no /proc to find it), and us */
	if (WIFEXITED(ws))
		return WEXITSTATUS(ws);
	say("%q killed by signal %d", argv[1], (long long)WTERMSIG(ws));
	return 128 + WTERMSIG(ws);
}
