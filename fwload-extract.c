/* SPDX-License-Identifier: MIT */
/*
 * fwload-extract - per-unit data (Wi-Fi calibration) from a flash
 * partition, as an image for fwload's COMMAND slot.
 *
 *   fwload-extract SOURCE OFFSET SIZE [OPTION]...
 *
 *   1. find SOURCE, exactly one of it: mtd:NAME (SYSFS/class/mtd/mtdN/name
 *      -> DEVFS/mtdN, the character device), ubi:VOLUME
 *      (SYSFS/class/ubi/ubiX_Y/name -> DEVFS/ubiX_Y), part:PARTNAME
 *      (SYSFS/class/block/NAME/uevent -> DEVFS/NAME), or /FILE
 *   2. read SIZE bytes at OFFSET into memory; fewer: fail. On MTD, the
 *      partition's ECC statistics before and after: an uncorrectable error
 *      on the way (mtdchar returns the data of an EBADMSG read and counts
 *      it) fails, a corrected one (EUCLEAN, counted apart) does not
 *   3. apply the OPTIONs left to right, as the lines of an OpenWrt
 *      hotplug script run: take a MAC address, change it, patch it in
 *   4. only then write the SIZE bytes to standard output, in one go
 *
 * fwload commits an image only when its COMMAND exits 0, so every failure
 * (an exit status other than 0, one line on stderr) ends the request with
 * "-1". Exit status: 0 written, 1 no such source, 2 fewer bytes than
 * asked, 3 bad data (an uncorrectable ECC error, --valid, no valid MAC
 * address), 100 usage (--help and --version too), 111 system error.
 *
 * The names follow OpenWrt's /lib/functions/caldata.sh and system.sh
 * (caldata_extract, caldata_patch_mac, ath10k_patch_mac, macaddr_add, ...);
 * the checksum update is caldata_patch_chksum's. See fwload-extract(8).
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#define _TIME_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>

#include "util.h"

enum { NOT_FOUND = 1, SHORT = 2, BAD = 3 };

static const char usage_text[] =
	"usage: fwload-extract SOURCE OFFSET SIZE [OPTION]...\n"
	"       fwload-extract --help | --version\n"
	"SOURCE: mtd:NAME, ubi:VOLUME, part:PARTNAME or /FILE. OPTIONs, in order:\n"
	"--mac MAC, --mac-binary|--mac-text SOURCE,OFFSET, --mac-ascii SOURCE,KEY,\n"
	"--macaddr-add N, --macaddr-setbit-la, --patch-mac OFFSET[,CHKSUM_OFFSET],\n"
	"--ath9k-patch-mac, --ath9k-patch-mac-crc OFFSET, --ath10k-patch-mac, --valid HEX\n";

/* <mtd/mtd-abi.h>'s struct mtd_ecc_stats and ECCGETSTATS, spelled out:
 * no kernel headers needed (musl-gcc). */
struct ecc_stats {
	uint32_t corrected, failed, badblocks, bbtblocks;
};
#define ECC_GET_STATS _IOR('M', 18, struct ecc_stats)
#define MTD_CHAR_MAJOR 90

static const char *sysfs = "/sys", *devfs = "/dev";

#define say(...) say_as("fwload-extract", __VA_ARGS__)

static int usage(const char *f, const char *arg)
{
	say(f, arg);
	(void)write_all(2, usage_text, sizeof(usage_text) - 1);
	return EX_USAGE;
}

/* --- Numbers and MAC addresses --- */

/* A hexadecimal digit's value, or -1. */
static int hexval(char c)
{
	char l = (char)(c | 0x20);

	return c >= '0' && c <= '9' ? c - '0' : l >= 'a' && l <= 'f' ? l - 'a' + 10 : -1;
}

/*
 * OFFSET, SIZE and the like: 0x and hex digits, or decimal without a
 * leading zero (OpenWrt's $((...)) reads 010 as octal 8: refused rather
 * than read otherwise), at most max; -1 for anything else.
 */
static int64_t number(const char *s, int64_t max)
{
	int64_t v = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && s[2]) {
		for (s += 2; *s; s++) {
			if (hexval(*s) < 0 || hexval(*s) > max || v > (max - hexval(*s)) / 16)
				return -1;
			v = v * 16 + hexval(*s);
		}
		return v;
	}
	return s[0] == '0' && s[1] ? -1 : parse_num(s, max, NULL);
}

/*
 * The n bytes at s as a MAC address, as OpenWrt's macaddr_canonicalize
 * takes one: quotes dropped, blanks around and between groups squeezed;
 * at most 17 characters, hex digits in groups of 1, 2, 4 or 12 separated
 * by ':', '-', '.' or blanks, 6 bytes in all. 0, or -1.
 */
static int parse_mac(const char *s, size_t n, unsigned char mac[6])
{
	char t[18];
	size_t len = 0, k = 0;
	int blank = 0;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == ' ' || c == '\t' || c == '\n') {
			blank = len > 0;  /* one, between two words */
			continue;
		}
		if (c == '"')
			continue;
		if (len + blank >= sizeof(t) - 1 || (hexval(c) < 0 && (!c || !strchr(":-.", c))))
			return -1;
		if (blank)
			t[len++] = ' ', blank = 0;
		t[len++] = c;
	}
	t[len] = '\0';
	for (char *p = t; *p;) {
		size_t g = 0;

		while (p[g] && hexval(p[g]) >= 0)
			g++;
		if (g == 0) {
			p++;  /* a separator */
			continue;
		}
		if ((g != 1 && g != 2 && g != 4 && g != 12) || k + (g + 1) / 2 > 6)
			return -1;
		if (g == 1)
			mac[k++] = (unsigned char)hexval(p[0]);
		for (size_t j = 0; g > 1 && j < g; j += 2)
			mac[k++] = (unsigned char)(hexval(p[j]) << 4 | hexval(p[j + 1]));
		p += g;
	}
	return k == 6 ? 0 : -1;
}

/* --- Sources --- */

struct src {
	const char *spec;     /* as given: mtd:NAME, ubi:VOLUME, part:NAME, /FILE */
	char path[PATH_MAX];  /* what was opened */
	int fd, ecc;          /* ecc: the statistics below were read */
	struct ecc_stats st;
};

/* SOURCE's form, before anything is read: 0, or -1. */
static int src_syntax(const char *s)
{
	if (strncmp(s, "mtd:", 4) == 0 || strncmp(s, "ubi:", 4) == 0)
		return s[4] ? 0 : -1;
	if (strncmp(s, "part:", 5) == 0)
		return s[5] ? 0 : -1;
	return s[0] == '/' ? 0 : -1;
}

/* out (PATH_MAX bytes) = a b c (a may be out), or -1 if it does not fit. */
static int join(char *out, const char *a, const char *b, const char *c)
{
	size_t na = strlen(a), nb = strlen(b), nc = strlen(c);

	if (na + nb + nc >= PATH_MAX)
		return -1;
	memmove(out, a, na);
	memcpy(out + na, b, nb);
	memcpy(out + na + nb, c, nc + 1);
	return 0;
}

/* At most n - 1 bytes of the file at path, NUL-terminated: the length, or
 * -1 (errno set; EFBIG if it holds more). */
static ssize_t slurp(const char *path, char *buf, size_t n)
{
	size_t len = 0;
	ssize_t r = 1;
	char c;
	int fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return -1;
	while (len < n - 1 && (r = read(fd, buf + len, n - 1 - len)) != 0) {
		if (r < 0 && errno != EINTR)
			break;
		len += r > 0 ? (size_t)r : 0;
	}
	if (r > 0 && read(fd, &c, 1) > 0)
		r = -1, errno = EFBIG;
	close(fd);
	buf[len] = '\0';
	return r < 0 ? -1 : (ssize_t)len;
}

/*
 * mtd:NAME, ubi:VOLUME and part:PARTNAME: the entry of SYSFS/class/CLASS
 * whose file FILE is the name whole, "NAME\n" (key "": an MTD device's or
 * a UBI volume's name file, a name with a newline in it never matching a
 * part of it; /proc/mtd cannot tell such a name from two lines), or has
 * the line "PARTNAME=NAME" (a block device's uevent; the kernel writes a
 * GPT name with '!' for what is not printable) gives DEVFS/ENTRY. Exactly
 * one, or NOT_FOUND.
 */
static int find_class(struct src *s, const char *class, const char *file, const char *key,
		      const char *name, const char *what)
{
	static struct dirbuf d;
	char dir[PATH_MAX], path[PATH_MAX], text[4096], dev[256] = "";
	size_t nk = strlen(key), nn = strlen(name);
	const char *e;
	int found = 0;

	if (join(dir, sysfs, "/class/", class) < 0 ||
	    (d = (struct dirbuf){ .fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }).fd < 0) {
		say("%q: cannot open %q%e", s->spec, dir, errno);
		return errno == ENOENT ? NOT_FOUND : EX_SYSTEM;
	}
	while ((e = dir_next(&d))) {
		if (e[0] == '.' || strlen(e) >= sizeof(dev) || join(path, dir, "/", e) < 0 ||
		    join(path, path, "/", file) < 0 || slurp(path, text, sizeof(text)) < 0)
			continue;  /* no such file: not a volume, not a partition */
		if (!nk && strncmp(text, name, nn) == 0 && text[nn] == '\n' && !text[nn + 1] && found++ == 0)
			memcpy(dev, e, strlen(e) + 1);
		for (char *p = text, *next; nk && p; p = next) {
			if ((next = strchr(p, '\n')))
				*next++ = '\0';
			if (strncmp(p, key, nk) == 0 && strcmp(p + nk, name) == 0 && found++ == 0)
				memcpy(dev, e, strlen(e) + 1);
		}
	}
	if (errno) {
		say("%q: cannot read %q%e", s->spec, dir, errno);
		return EX_SYSTEM;
	}
	if (found != 1) {
		if (found)
			say("%q: %d %ss in %q have that name; refused", s->spec, (long long)found, what,
			    dir);
		else
			say("%q: no %s of that name in %q", s->spec, what, dir);
		return NOT_FOUND;
	}
	return join(s->path, devfs, "/", dev);
}

/*
 * Find and open SOURCE; on an MTD character device, its ECC statistics
 * now. 0, or an exit status (said).
 */
static int src_open(struct src *s, const char *spec)
{
	struct stat st;
	int status = 0;

	s->spec = spec;
	s->ecc = 0;
	if (strncmp(spec, "mtd:", 4) == 0)
		status = find_class(s, "mtd", "name", "", spec + 4, "MTD partition");
	else if (strncmp(spec, "ubi:", 4) == 0)
		status = find_class(s, "ubi", "name", "", spec + 4, "UBI volume");
	else if (strncmp(spec, "part:", 5) == 0)
		status = find_class(s, "block", "uevent", "PARTNAME=", spec + 5, "partition");
	else
		status = join(s->path, spec, "", "");
	if (status < 0)
		say("%q: the path is too long", spec);
	if (status)
		return status < 0 ? NOT_FOUND : status;
	/* O_NONBLOCK: a FIFO put there must not hang us; it is refused below. */
	s->fd = open(s->path, O_RDONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
	if (s->fd < 0) {
		say("%q: cannot open %q%e", spec, s->path, errno);
		return errno == ENOENT ? NOT_FOUND : EX_SYSTEM;
	}
	if (fstat(s->fd, &st) < 0 || !(S_ISREG(st.st_mode) || S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))) {
		say("%q: %q is not a file or a device", spec, s->path);
		close(s->fd);
		return NOT_FOUND;
	}
	if (strncmp(spec, "mtd:", 4) == 0 || (S_ISCHR(st.st_mode) && major(st.st_rdev) == MTD_CHAR_MAJOR))
		s->ecc = ioctl(s->fd, ECC_GET_STATS, &s->st) == 0;  /* else: no statistics to compare */
	return 0;
}

/* Up to n bytes at off (fewer only at the end): the count, or -1 (errno). */
static ssize_t src_read(struct src *s, int64_t off, unsigned char *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = pread(s->fd, buf + got, n - got, (off_t)(off + (int64_t)got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* A read error said: EBADMSG (UBI, a block device) is bad data. */
static int read_error(struct src *s, int err)
{
	say("%q: cannot read %q%e", s->spec, s->path, err);
	return err == EBADMSG ? BAD : EX_SYSTEM;
}

/* Close SOURCE: 0, or BAD if its ECC statistics count an uncorrectable
 * error since src_open (said). Corrected bitflips are fine. */
static int src_close(struct src *s)
{
	struct ecc_stats now;
	int status = 0;

	if (s->ecc && ioctl(s->fd, ECC_GET_STATS, &now) < 0) {
		say("%q: cannot read the ECC statistics of %q%e", s->spec, s->path, errno);
		status = EX_SYSTEM;
	} else if (s->ecc && now.failed != s->st.failed) {
		say("%q: uncorrectable ECC error (EBADMSG) reading %q", s->spec, s->path);
		status = BAD;
	}
	close(s->fd);
	return status;
}

/*
 * n bytes at off of SOURCE into buf: *got of them (exact: all n, else
 * SHORT). 0, or an exit status (said).
 */
static int src_get(const char *spec, int64_t off, unsigned char *buf, size_t n, ssize_t *got,
		   int exact)
{
	struct src s;
	int status = src_open(&s, spec);

	if (status)
		return status;
	if ((*got = src_read(&s, off, buf, n)) < 0) {
		status = read_error(&s, errno);
		close(s.fd);
		return status;
	}
	if ((status = src_close(&s)))
		return status;
	if (exact && (size_t)*got < n) {
		say("%q: %d bytes at offset %d of %q, want %d", spec, (long long)*got, (long long)off,
		    s.path, (long long)n);
		return SHORT;
	}
	return 0;
}

/*
 * OpenWrt's get_mac_ascii: in the strings of SOURCE (runs of 4 or more
 * printable characters or tabs, as strings(1) finds them), blanks
 * removed, the first that starts with "KEY=": the rest is the address
 * (u-boot-env's "ethaddr=00:11:22:33:44:55"). 0, or an exit status.
 */
static int mac_ascii(const char *spec, const char *key, unsigned char mac[6])
{
	unsigned char buf[4096];
	char cur[256];
	size_t nk = strlen(key), clen = 0, run = 0;
	int64_t off = 0;
	ssize_t got;
	struct src s;
	int status = src_open(&s, spec), found = 0;

	if (status)
		return status;
	do {
		if ((got = src_read(&s, off, buf, sizeof(buf))) < 0) {
			status = read_error(&s, errno);
			close(s.fd);
			return status;
		}
		for (ssize_t i = 0; i <= got && !found; i++) {
			if (i < got && (buf[i] == '\t' || (buf[i] >= ' ' && buf[i] < 0x7f))) {
				run++;
				if (buf[i] != ' ' && buf[i] != '\t' && clen < sizeof(cur))
					cur[clen++] = (char)buf[i];
			} else if (i < got || got < (ssize_t)sizeof(buf)) {  /* the end of a string */
				found = run >= 4 && clen > nk && memcmp(cur, key, nk) == 0 && cur[nk] == '=';
				run = found ? run : 0;
				clen = found ? clen : 0;
			}
		}
		off += got;
	} while (!found && got == (ssize_t)sizeof(buf));
	if ((status = src_close(&s)))
		return status;
	if (!found) {
		say("%q: no string %q= in %q", spec, key, s.path);
		return BAD;
	}
	if (clen == sizeof(cur) || parse_mac(cur + nk + 1, clen - nk - 1, mac) < 0) {
		say("%q: %q= holds no MAC address in %q", spec, key, s.path);
		return BAD;
	}
	return 0;
}

/* The text at off of SOURCE as a MAC address (OpenWrt's mtd_get_mac_text):
 * at most 17 bytes, blanks before it skipped, ending at a NUL or a blank. */
static int mac_text(const char *spec, int64_t off, unsigned char mac[6])
{
	unsigned char text[17];
	ssize_t got, b = 0, e;
	int status = src_get(spec, off, text, sizeof(text), &got, 0);

	if (status)
		return status;
	while (b < got && (text[b] == ' ' || text[b] == '\t' || text[b] == '\n'))
		b++;
	for (e = b; e < got && text[e] > ' ';)
		e++;
	if (parse_mac((const char *)text + b, (size_t)(e - b), mac) < 0) {
		say("%q: no MAC address at offset %d", spec, (long long)off);
		return BAD;
	}
	return 0;
}

/* --- The options --- */

enum { O_MAC, O_BINARY, O_ASCII, O_TEXT, O_ADD, O_LA, O_PATCH, O_ATH9K, O_ATH9K_CRC, O_ATH10K,
       O_VALID, O_COUNT };
static const char *const opt_names[O_COUNT] = {
	"mac", "mac-binary", "mac-ascii", "mac-text", "macaddr-add", "macaddr-setbit-la",
	"patch-mac", "ath9k-patch-mac", "ath9k-patch-mac-crc", "ath10k-patch-mac", "valid",
};
static const char opt_has_value[O_COUNT] = { 1, 1, 1, 1, 1, 0, 1, 0, 1, 0, 1 };

/*
 * caldata_patch_mac: the address at at; with a checksum offset (chk >= 0)
 * first the 16-bit word there updated as caldata_patch_chksum does it,
 * XOR the old address XOR the new, pair of bytes by pair of bytes: a
 * checksum that was right stays right, one that was wrong stays wrong (the
 * driver still sees corrupt data as corrupt).
 */
static void patch_mac(unsigned char *d, const unsigned char mac[6], int64_t at, int64_t chk)
{
	unsigned char x[2] = { 0, 0 };

	for (int i = 0; i < 6; i++)
		x[i % 2] ^= d[at + i] ^ mac[i];
	if (chk >= 0) {
		d[chk] ^= x[0];
		d[chk + 1] ^= x[1];
	}
	memcpy(d + at, mac, 6);
}

/* "SOURCE,REST" (at the last comma): *rest, or NULL if the form is wrong. */
static const char *split(const char *v, char *source)
{
	const char *c = strrchr(v, ',');

	if (!c || (size_t)(c - v) >= PATH_MAX)
		return NULL;
	memcpy(source, v, (size_t)(c - v));
	source[c - v] = '\0';
	return src_syntax(source) < 0 || !c[1] ? NULL : c + 1;
}

/*
 * The OPTIONs in av, left to right. With data NULL, check them only
 * (nothing read, every usage error found before any work); else do them
 * on the size bytes at data. 0, or an exit status (said).
 */
static int options(char **av, unsigned char *data, int64_t size)
{
	unsigned char mac[6];
	char source[PATH_MAX];
	int have_mac = 0, status = 0;
	ssize_t got;

	for (; *av; av++) {
		const char *a = *av, *eq, *v = NULL, *rest;
		int64_t at = -1, chk = -1, n;
		size_t len;
		int o = 0;

		if (a[0] != '-' || a[1] != '-')
			return usage("%q: not an option (they start with --)", a);
		a += 2;
		eq = strchr(a, '=');
		len = eq ? (size_t)(eq - a) : strlen(a);
		while (o < O_COUNT && (strlen(opt_names[o]) != len || memcmp(opt_names[o], a, len)))
			o++;
		if (o == O_COUNT)
			return usage("unknown option %q", *av);
		if (opt_has_value[o] && !eq && !av[1])
			return usage("--%s wants a value", opt_names[o]);
		if (!opt_has_value[o] && eq)
			return usage("--%s takes no value", opt_names[o]);
		if (opt_has_value[o])
			v = eq ? eq + 1 : *++av;
		if (o >= O_ADD && o <= O_ATH10K && !have_mac)
			return usage("--%s: no MAC address before it (--mac, --mac-binary, ...)",
				     opt_names[o]);
		switch (o) {
		case O_MAC:
			if (parse_mac(v, strlen(v), mac) < 0)
				return usage("--mac: %q is not a MAC address", v);
			break;
		case O_BINARY:
		case O_TEXT:
			if (!(rest = split(v, source)) || (n = number(rest, INT64_MAX - 17)) < 0)
				return usage("%q: want SOURCE,OFFSET", v);
			if (data)
				status = o == O_TEXT ? mac_text(source, n, mac) :
					 src_get(source, n, mac, 6, &got, 1);
			break;
		case O_ASCII:
			if (!(rest = split(v, source)) || strlen(rest) > 200 || strchr(rest, '='))
				return usage("%q: want SOURCE,KEY", v);
			if (data)
				status = mac_ascii(source, rest, mac);
			break;
		case O_ADD:
			if ((n = number(v + (v[0] == '-' || v[0] == '+'), INT64_MAX)) < 0)
				return usage("--macaddr-add: %q is not a whole number", v);
			if (data) {  /* the lower three bytes, modulo 2^24 */
				uint64_t nic = (uint64_t)mac[3] << 16 | (uint64_t)mac[4] << 8 | mac[5];

				nic += v[0] == '-' ? -(uint64_t)n : (uint64_t)n;
				mac[3] = (unsigned char)(nic >> 16);
				mac[4] = (unsigned char)(nic >> 8);
				mac[5] = (unsigned char)nic;
			}
			break;
		case O_LA:
			if (data)
				mac[0] |= 0x02;  /* locally administered */
			break;
		case O_PATCH:
			for (len = 0; v[len] && v[len] != ',';)
				len++;
			if (len < sizeof(source)) {
				memcpy(source, v, len);  /* OFFSET alone */
				source[len] = '\0';
			}
			if (len >= sizeof(source) || (at = number(source, INT64_MAX)) < 0 ||
			    (v[len] && (chk = number(v + len + 1, INT64_MAX)) < 0))
				return usage("--patch-mac: want OFFSET[,CHKSUM_OFFSET], not %q", v);
			break;
		case O_ATH9K:
			at = 2;
			break;
		case O_ATH9K_CRC:
			if ((at = number(v, INT64_MAX)) < 10)
				return usage("--ath9k-patch-mac-crc: want an OFFSET of 10 or more, not %q", v);
			chk = at - 10;
			break;
		case O_ATH10K:
			at = 6;
			chk = 2;
			break;
		case O_VALID:
			for (n = 0; v[n] && hexval(v[n]) >= 0;)
				n++;
			if (v[n] || n == 0 || n % 2 || n / 2 > 16 || n / 2 > size)
				return usage("--valid: want 1 to 16 bytes in hex digits, within SIZE, not %q", v);
			for (int64_t i = 0; data && i < n / 2; i++)
				if (data[i] != (hexval(v[2 * i]) << 4 | hexval(v[2 * i + 1]))) {
					say("the data does not start with %q (--valid)", v);
					return BAD;
				}
			break;
		}
		if (status)
			return status;
		have_mac |= o <= O_TEXT;
		if (at >= 0 && (at > size - 6 || chk > size - 2))
			return usage("--%s: the patch ends past SIZE", opt_names[o]);
		if (at >= 0 && data)
			patch_mac(data, mac, at, chk);
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned char *data;
	int64_t off, size;
	const char *env;
	ssize_t got;
	int status;

	if (sanitize_fds() < 0)
		return EX_SYSTEM;
	/* For people; status 100, so that no caller can take it for an image. */
	help_version(argc, argv, usage_text, "fwload-extract " FWLOAD_VERSION "\n", EX_USAGE);
	if (argc < 4)
		return usage("want SOURCE, OFFSET and SIZE", NULL);
	if (src_syntax(argv[1]) < 0)
		return usage("%q: SOURCE is mtd:NAME, ubi:VOLUME, part:PARTNAME or /FILE", argv[1]);
	if ((size = number(argv[3], SSIZE_MAX)) <= 0)
		return usage("%q: SIZE is 1 or more, decimal (no leading 0) or 0x hex", argv[3]);
	if ((off = number(argv[2], INT64_MAX - size)) < 0)
		return usage("%q: OFFSET is decimal (no leading 0) or 0x hex", argv[2]);
	if ((status = options(argv + 4, NULL, size)))
		return status;
	if ((env = getenv("SYSFS")) && *env)
		sysfs = env;
	if ((env = getenv("DEVFS")) && *env)
		devfs = env;

	data = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (data == MAP_FAILED) {
		say("cannot allocate %d bytes%e", (long long)size, errno);
		return EX_SYSTEM;
	}
	if ((status = src_get(argv[1], off, data, (size_t)size, &got, 1)) ||
	    (status = options(argv + 4, data, size)))
		return status;
	if (write_all(1, data, (size_t)size) < 0) {
		say("cannot write%e", errno);
		return EX_SYSTEM;
	}
	return 0;
}
