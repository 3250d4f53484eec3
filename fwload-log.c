/* SPDX-License-Identifier: MIT */
/*
 * fwload-log - one line to fwload's log, for the scripts (firmware.agent,
 * fwloadctl): "fwload: MESSAGE", at warning level, to LOG as fwload's -l
 * takes it (log.h: the kernel log, syslog, a file, none), never waited for
 * longer than a second. Bytes of MESSAGE that could drive a terminal or
 * forge a line are written \xNN (%q). LOG "-": MESSAGE so escaped alone
 * on stdout (fwloadctl shows names from outside that way).
 *
 *   fwload-log [-l LOG] MESSAGE
 *
 * Exit status: 0 (a log that cannot take the line is no failure of the
 * caller's), 100 usage, 111 (-l -) stdout failed.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#define _TIME_BITS 64
#include "log.h"

static const char usage_text[] =
	"usage: fwload-log [-l LOG] MESSAGE\n"
	"       fwload-log --help | --version\n"
	"One line \"fwload: MESSAGE\" to LOG: kmsg (default), syslog, none or /FILE;\n"
	"-: MESSAGE alone on stdout. Bytes that could drive a terminal written \\xNN.\n";

int main(int argc, char **argv)
{
	struct opts o = { .argc = argc, .argv = argv, .i = 1 };
	const char *val = NULL, *log = "kmsg";
	struct line l = { .len = 0 };
	int c;

	if (sanitize_fds() < 0)
		return EX_SYSTEM;
	help_version(argc, argv, usage_text, "fwload-log " FWLOAD_VERSION "\n", 0);
	while ((c = opt_next(&o, "l:", &val)) == 'l')
		log = val;
	if (c != -1 || o.i != argc - 1 ||
	    (strcmp(log, "kmsg") && strcmp(log, "syslog") && strcmp(log, "none") && strcmp(log, "-") && log[0] != '/')) {
		say_as("fwload-log", c == '?' ? "unknown option" : c == ':' ? "option wants a value" :
			   o.i != argc - 1 ? "want one MESSAGE" : "-l wants kmsg, syslog, none, - or /FILE");
		(void)write_all(2, usage_text, sizeof(usage_text) - 1);
		return EX_USAGE;
	}
	line_fmt(&l, "%q", argv[o.i]);
	if (strcmp(log, "-") == 0)
		return line_put(&l, '\n'), write_all(1, l.buf, l.len) < 0 ? EX_SYSTEM : 0;
	log_line(log, "fwload", WARN, l.buf);
	return 0;
}
