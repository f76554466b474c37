// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-watch: command line.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kevent/kevent.h>

#include "options.h"
#include "output.h"

/* Largest --timeout, in seconds: about 24 days. */
#define TIMEOUT_MAX_SEC 2000000

int parse_count(const char *s, uint64_t *ret, char *err, size_t errlen)
{
	uint64_t n = 0;
	const char *p;

	for (p = s; *p >= '0' && *p <= '9'; p++) {
		if (n > (UINT64_MAX - 9) / 10)
			goto out_bad;
		n = n * 10 + (*p - '0');
	}
	if (p == s || *p || n == 0)
		goto out_bad;
	*ret = n;
	return 0;

out_bad:
	snprintf(err, errlen,
		 "--count: invalid value '%s' (expected a positive integer)",
		 s);
	return -1;
}

int parse_timeout(const char *s, int64_t *ret_ms, char *err, size_t errlen)
{
	return parse_seconds("--timeout", s, ret_ms, err, errlen);
}

int parse_seconds(const char *opt, const char *s, int64_t *ret_ms, char *err,
		  size_t errlen)
{
	if (parse_duration(s, 0, ret_ms) == 0)
		return 0;
	snprintf(
		err, errlen,
		"%s: invalid value '%s' (expected seconds or a duration, such as 10, 0.5, 500ms or 1.5m, at most %ds)",
		opt, s, TIMEOUT_MAX_SEC);
	return -1;
}

int parse_seq(const char *s, uint64_t *ret, char *err, size_t errlen)
{
	uint64_t n = 0;
	const char *p;

	for (p = s; *p >= '0' && *p <= '9'; p++) {
		if (n > (UINT64_MAX - (*p - '0')) / 10)
			goto out_bad;
		n = n * 10 + (*p - '0');
	}
	if (p == s || *p)
		goto out_bad;
	*ret = n;
	return 0;

out_bad:
	snprintf(err, errlen,
		 "--replay: invalid value '%s' (expected a sequence number)",
		 s);
	return -1;
}

int parse_rcvbuf(const char *s, size_t *ret, char *err, size_t errlen)
{
	uint64_t n = 0, unit = 1;
	const char *p;

	for (p = s; *p >= '0' && *p <= '9'; p++) {
		n = n * 10 + (*p - '0');
		if (n > INT_MAX)
			goto out_bad;
	}
	if (p == s)
		goto out_bad;
	if (*p == 'K' || *p == 'k')
		unit = 1024;
	else if (*p == 'M' || *p == 'm')
		unit = 1024 * 1024;
	if (unit > 1)
		p++;
	/* The kernel takes an int: the product must fit one. */
	if (*p || n == 0 || n > INT_MAX / unit)
		goto out_bad;
	*ret = n * unit;
	return 0;

out_bad:
	snprintf(
		err, errlen,
		"--rcvbuf: invalid value '%s' (expected bytes, such as 65536, 256K or 8M, at most 2047M)",
		s);
	return -1;
}

int parse_duration(const char *s, int64_t min_ms, int64_t *ret_ms)
{
	static const struct {
		const char *name;
		int64_t ms;
	} units[] = {
		{ "", 1000 }, { "ms", 1 }, { "s", 1000 },
		{ "m", 60000 }, { "h", 3600000 },
	};
	int64_t whole = 0, frac = 0, scale = 1, ms;
	const char *p;
	size_t i;

	for (p = s; *p >= '0' && *p <= '9'; p++) {
		whole = whole * 10 + (*p - '0');
		if (whole > (int64_t)TIMEOUT_MAX_SEC * 1000)
			return -1;
	}
	if (p == s)
		return -1;
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (scale == 1000)
				return -1;
			frac = frac * 10 + (*p - '0');
			scale *= 10;
		}
		if (scale == 1)
			return -1;
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(p, units[i].name) == 0)
			break;
	if (i == sizeof(units) / sizeof(units[0]))
		return -1;
	/* A whole number of milliseconds, @min_ms to TIMEOUT_MAX_SEC s */
	if (whole > (int64_t)TIMEOUT_MAX_SEC * 1000 / units[i].ms ||
	    frac * units[i].ms % scale)
		return -1;
	ms = whole * units[i].ms + frac * units[i].ms / scale;
	if (ms < min_ms || ms > (int64_t)TIMEOUT_MAX_SEC * 1000)
		return -1;
	*ret_ms = ms;
	return 0;
}

int parse_interval(const char *s, int64_t *ret_ms, char *err, size_t errlen)
{
	if (parse_duration(s, 1, ret_ms) == 0)
		return 0;
	snprintf(
		err, errlen,
		"--sample: invalid interval '%s' (expected such as 500ms, 1s, 2 or 1.5m, from 1ms)",
		s);
	return -1;
}

int parse_delta(const char *s, uint64_t *ret, char *err, size_t errlen)
{
	if (parse_count(s, ret, err, errlen) == 0)
		return 0;
	snprintf(err, errlen,
		 "--delta: invalid value '%s' (expected a positive integer)",
		 s);
	return -1;
}

int parse_classes(const char *s, unsigned int *ret, char *err, size_t errlen)
{
	unsigned int mask = 0;
	const char *p, *end;
	char name[32];
	int cls;

	for (p = s;; p = end + 1) {
		end = strchrnul(p, ',');
		if (end - p == 0 || (size_t)(end - p) >= sizeof(name)) {
			cls = -EINVAL;
		} else {
			memcpy(name, p, end - p);
			name[end - p] = '\0';
			cls = kevent_class_from_string(name);
		}
		if (cls < 0) {
			snprintf(
				err, errlen,
				"--class: unknown class '%.*s' (known: general, storage, power, fs, hotplug, net)",
				(int)(end - p), p);
			return -1;
		}
		mask |= 1u << cls;
		if (!*end)
			break;
	}
	*ret = mask;
	return 0;
}

enum {
	OPT_COLDPLUG = 0x100,
	OPT_REPLAY,
	OPT_ATTR,
	OPT_PATH,
	OPT_SUBSYSTEM,
	OPT_UEVENT,
	OPT_POLL,
	OPT_RCVBUF,
	OPT_EXEC,
	OPT_EXEC_TIMEOUT,
	OPT_STOCK,
	OPT_KEVENT,
	OPT_JOURNAL,
	OPT_SAMPLE,
	OPT_DELTA,
	OPT_REALTIME,
};

static const struct option long_options[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "format", required_argument, NULL, 'f' },
	{ "class", required_argument, NULL, 'c' },
	{ "attr", required_argument, NULL, OPT_ATTR },
	{ "path", required_argument, NULL, OPT_PATH },
	{ "subsystem", required_argument, NULL, OPT_SUBSYSTEM },
	{ "count", required_argument, NULL, 'n' },
	{ "timeout", required_argument, NULL, 't' },
	{ "list", no_argument, NULL, 'l' },
	{ "coldplug", no_argument, NULL, OPT_COLDPLUG },
	{ "replay", optional_argument, NULL, OPT_REPLAY },
	{ "uevent", no_argument, NULL, OPT_UEVENT },
	{ "stock", no_argument, NULL, OPT_STOCK },
	{ "kevent", no_argument, NULL, OPT_KEVENT },
	{ "poll", required_argument, NULL, OPT_POLL },
	{ "sample", required_argument, NULL, OPT_SAMPLE },
	{ "delta", required_argument, NULL, OPT_DELTA },
	{ "rcvbuf", required_argument, NULL, OPT_RCVBUF },
	{ "exec", required_argument, NULL, OPT_EXEC },
	{ "exec-timeout", required_argument, NULL, OPT_EXEC_TIMEOUT },
	{ "journal", no_argument, NULL, OPT_JOURNAL },
	{ "realtime", no_argument, NULL, OPT_REALTIME },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* '-': each argument that is not an option comes back in its place, as 1 */
static const char short_options[] = "-:jf:c:n:t:lhV";

/* The option as the user wrote it, for messages. */
static void option_name(int opt, char **argv, char *buf, size_t len)
{
	const struct option *lo;

	for (lo = long_options; lo->name; lo++) {
		if (lo->val == opt) {
			snprintf(buf, len, "--%s", lo->name);
			return;
		}
	}
	snprintf(buf, len, "%s", argv[optind - 1]);
}

/* Is @s empty or only blanks? */
static bool blank(const char *s)
{
	return s[strspn(s, " \t\n")] == '\0';
}

/*
 * Refuse an empty value of option @opt (what it is: @what).
 * Return: 0, or -1 with a message in @err.
 */
static int check_not_empty(const char *opt, const char *what, const char *s,
			   char *err, size_t errlen)
{
	if (*s)
		return 0;
	snprintf(err, errlen, "%s: empty %s", opt, what);
	return -1;
}

/*
 * Give file argument @file to option @owner: OPT_POLL, OPT_SAMPLE, or 0 when
 * neither was given yet (the file waits among the --poll files for the
 * first of them, see file_option()).
 * Return: 0, or -1 with a message in @err.
 */
static int file_argument(struct watch_options *o, int owner, const char *file,
			 char *err, size_t errlen)
{
	if (owner == OPT_SAMPLE) {
		if (check_not_empty("--sample", "file name", file, err,
				    errlen) < 0)
			return -1;
		o->sample_files[o->n_sample_files++] = file;
		return 0;
	}
	if (owner == OPT_POLL &&
	    check_not_empty("--poll", "file name", file, err, errlen) < 0)
		return -1;
	o->poll_files[o->n_poll_files++] = file;
	return 0;
}

/*
 * A --poll or --sample (@opt) was given: the file arguments after it are
 * its, and the first of them takes those written before it, the first
 * n_poll_files.
 * Return: 0, or -1 with a message in @err.
 */
static int file_option(struct watch_options *o, int *owner, int opt,
		       char *err, size_t errlen)
{
	/* Before the first, the files wait among the --poll files */
	size_t i, n = *owner ? 0 : o->n_poll_files;

	*owner = opt;
	o->n_poll_files -= n;
	for (i = 0; i < n; i++)
		if (file_argument(o, opt, o->poll_files[i], err, errlen) < 0)
			return -1;
	return 0;
}

int watch_options_parse(struct watch_options *o, int argc, char **argv,
			char *err, size_t errlen)
{
	bool exec_timeout_set = false, delta_set = false;
	bool kevent_asked = false;
	/* The option a file argument belongs to: the last --poll or --sample */
	int owner = 0;
	char name[64];
	int opt;

	*o = (struct watch_options){
		.timeout_ms = -1,
		.exec_timeout_ms = EXEC_TIMEOUT_DEFAULT_MS,
	};
	o->attr_globs = calloc(argc, sizeof(*o->attr_globs));
	o->path_globs = calloc(argc, sizeof(*o->path_globs));
	o->subsystems = calloc(argc, sizeof(*o->subsystems));
	o->poll_files = calloc(argc, sizeof(*o->poll_files));
	o->sample_files = calloc(argc, sizeof(*o->sample_files));
	if (!o->attr_globs || !o->path_globs || !o->subsystems ||
	    !o->poll_files || !o->sample_files) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, short_options, long_options,
				  NULL)) != -1) {
		switch (opt) {
		case 'j':
			o->json = true;
			break;
		case 'f':
			if (check_not_empty("--format", "format", optarg, err,
					    errlen) < 0 ||
			    format_check(optarg, err, errlen) < 0)
				return -1;
			o->format = optarg;
			break;
		case 'c':
			if (parse_classes(optarg, &o->classes, err, errlen) < 0)
				return -1;
			break;
		case OPT_ATTR:
			if (check_not_empty("--attr", "pattern", optarg, err,
					    errlen) < 0)
				return -1;
			o->attr_globs[o->n_attr_globs++] = optarg;
			break;
		case OPT_PATH:
			if (check_not_empty("--path", "pattern", optarg, err,
					    errlen) < 0)
				return -1;
			o->path_globs[o->n_path_globs++] = optarg;
			break;
		case OPT_SUBSYSTEM:
			if (check_not_empty("--subsystem", "name", optarg, err,
					    errlen) < 0)
				return -1;
			o->subsystems[o->n_subsystems++] = optarg;
			break;
		case 'n':
			if (parse_count(optarg, &o->count, err, errlen) < 0)
				return -1;
			break;
		case 't':
			if (parse_timeout(optarg, &o->timeout_ms, err, errlen) <
			    0)
				return -1;
			break;
		case 'l':
			o->list = true;
			break;
		case OPT_COLDPLUG:
			o->coldplug = true;
			break;
		case OPT_REPLAY:
			if (optarg && parse_seq(optarg, &o->replay_after, err,
						errlen) < 0)
				return -1;
			o->replay = true;
			break;
		case OPT_UEVENT:
			o->uevent = true;
			break;
		case OPT_STOCK:
			o->stock = true;
			break;
		case OPT_KEVENT:
			kevent_asked = true;
			break;
		case 1:
			if (file_argument(o, owner, optarg, err, errlen) < 0)
				return -1;
			break;
		case OPT_POLL:
			if (file_option(o, &owner, opt, err, errlen) < 0 ||
			    file_argument(o, owner, optarg, err, errlen) < 0)
				return -1;
			break;
		case OPT_SAMPLE:
			if (file_option(o, &owner, opt, err, errlen) < 0)
				return -1;
			if (parse_interval(optarg, &o->sample_ms, err, errlen) <
			    0)
				return -1;
			break;
		case OPT_DELTA:
			if (parse_delta(optarg, &o->delta, err, errlen) < 0)
				return -1;
			delta_set = true;
			break;
		case OPT_EXEC:
			if (blank(optarg)) {
				snprintf(err, errlen, "--exec: empty command");
				return -1;
			}
			o->exec = optarg;
			break;
		case OPT_EXEC_TIMEOUT:
			if (parse_seconds("--exec-timeout", optarg,
					  &o->exec_timeout_ms, err, errlen) < 0)
				return -1;
			exec_timeout_set = true;
			break;
		case OPT_JOURNAL:
			o->journal = true;
			break;
		case OPT_REALTIME:
			o->realtime = true;
			break;
		case OPT_RCVBUF:
			if (parse_rcvbuf(optarg, &o->rcvbuf, err, errlen) < 0)
				return -1;
			break;
		case 'h':
			o->help = true;
			break;
		case 'V':
			o->version = true;
			break;
		case ':':
			option_name(optopt, argv, name, sizeof(name));
			snprintf(err, errlen, "%s: missing value", name);
			return -1;
		default:
			if (optopt && optopt != '?' &&
			    (optopt > 0xff || strchr(short_options, optopt))) {
				option_name(optopt, argv, name, sizeof(name));
				snprintf(err, errlen, "%s: takes no value",
					 name);
			} else if (optopt)
				snprintf(err, errlen, "unknown option '-%c'",
					 optopt);
			else
				snprintf(err, errlen, "unknown option '%s'",
					 argv[optind - 1]);
			return -1;
		}
	}
	/* After "--": file arguments still, each as if in place */
	for (; optind < argc; optind++)
		if (file_argument(o, owner, argv[optind], err, errlen) < 0)
			return -1;
	if (!owner && o->n_poll_files) {
		snprintf(err, errlen, "unexpected argument '%s'",
			 o->poll_files[0]);
		return -1;
	}
	if (delta_set && !o->sample_ms) {
		snprintf(err, errlen, "--delta needs --sample");
		return -1;
	}
	/* With --stock, the stock attributes are sampled when no file is */
	if (o->sample_ms && !o->n_sample_files && !o->stock) {
		snprintf(err, errlen,
			 "--sample needs files or glob patterns to sample (or --stock)");
		return -1;
	}
	if (exec_timeout_set && !o->exec) {
		snprintf(err, errlen, "--exec-timeout needs --exec");
		return -1;
	}
	/* --stock lists its own sources; --poll FILE adds none to them */
	if (!o->stock && (o->uevent || o->n_poll_files) &&
	    (o->list || o->coldplug)) {
		snprintf(err, errlen,
			 "--uevent and --poll cannot be used with --list or --coldplug");
		return -1;
	}
	if (o->stock && o->n_poll_files && o->list) {
		snprintf(err, errlen, "--poll cannot be used with --list");
		return -1;
	}
	if (o->json && o->format) {
		snprintf(err, errlen,
			 "--json and --format cannot be used together");
		return -1;
	}
	if (o->list && o->coldplug) {
		snprintf(err, errlen,
			 "--list and --coldplug cannot be used together");
		return -1;
	}
	/*
	 * The kevent layer's events: asked for with --kevent, or when no
	 * other source is named.
	 */
	o->kevent = kevent_asked || !(o->uevent || o->n_poll_files ||
				      o->stock || o->sample_ms);
	if (o->rcvbuf && o->list) {
		snprintf(err, errlen, "--rcvbuf cannot be used with --list");
		return -1;
	}
	if (o->replay && o->list) {
		snprintf(err, errlen, "--replay cannot be used with --list");
		return -1;
	}
	if ((o->rcvbuf || o->replay) && !o->kevent) {
		snprintf(err, errlen,
			 "%s is for the kevent layer's events: add --kevent to --uevent, --poll, --stock or --sample",
			 o->rcvbuf ? "--rcvbuf" : "--replay");
		return -1;
	}
	return 0;
}

void watch_options_free(struct watch_options *o)
{
	free(o->attr_globs);
	free(o->path_globs);
	free(o->subsystems);
	free(o->poll_files);
	free(o->sample_files);
	o->attr_globs = o->path_globs = o->subsystems = o->poll_files = NULL;
	o->sample_files = NULL;
}
