/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kevent-watch: command line.
 */
#ifndef KEVENT_WATCH_OPTIONS_H
#define KEVENT_WATCH_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct watch_options {
	bool json;
	bool list;
	bool coldplug;
	bool replay;
	uint64_t replay_after; /* --replay=SEQ: only events after SEQ */
	bool help;
	bool version;
	const char *format; /* NULL: default text lines */
	unsigned int classes; /* bit per enum kevent_class; 0: all */
	uint64_t count; /* 0: no limit */
	int64_t timeout_ms; /* -1: none */
	const char **attr_globs;
	size_t n_attr_globs;
	const char **path_globs;
	size_t n_path_globs;
	const char **subsystems;
	size_t n_subsystems;
	size_t rcvbuf; /* --rcvbuf BYTES; 0: the library's default */
	bool uevent; /* --uevent */
	bool stock; /* --stock: the stock kernel's events, no kevent.ko */
	/* the kevent layer's events: --kevent, or no other source named */
	bool kevent;
	const char **poll_files; /* --poll FILE..., in argv */
	size_t n_poll_files;
	int64_t sample_ms; /* --sample INTERVAL; 0: no sampling */
	uint64_t delta; /* --delta N; 0: any change */
	const char **sample_files; /* the arguments after the options */
	size_t n_sample_files;
	const char *exec; /* --exec CMD; NULL: none */
	int64_t exec_timeout_ms; /* --exec-timeout SEC; 0: no limit */
	bool journal; /* --journal: each record an entry of the journal */
	bool realtime; /* --realtime: times of the wall clock, not since boot */
};

/* Default of --exec-timeout, in milliseconds. */
#define EXEC_TIMEOUT_DEFAULT_MS 10000

/* Positive decimal integer. Return: 0, or -1 with a message in @err. */
int parse_count(const char *s, uint64_t *ret, char *err, size_t errlen);

/*
 * A duration: a decimal number with up to three decimals and an optional
 * unit, ms, s (the default), m or h ("2", "0.5", "500ms", "1.5m"), a whole
 * number of milliseconds from @min_ms to 2000000 s; the syntax of every
 * option that takes a time. Return: 0 and milliseconds, or -1.
 */
int parse_duration(const char *s, int64_t min_ms, int64_t *ret_ms);

/*
 * --timeout: a duration, 0 allowed (parse_duration()).
 * Return: 0 and milliseconds, or -1 with a message in @err.
 */
int parse_timeout(const char *s, int64_t *ret_ms, char *err, size_t errlen);

/* The same for the value of option @opt ("--exec-timeout"), for messages. */
int parse_seconds(const char *opt, const char *s, int64_t *ret_ms, char *err,
		  size_t errlen);

/*
 * Sequence number of --replay=SEQ: a decimal integer, 0 allowed.
 * Return: 0, or -1 with a message in @err.
 */
int parse_seq(const char *s, uint64_t *ret, char *err, size_t errlen);

/*
 * Bytes of --rcvbuf: a positive decimal integer, optionally followed by K
 * (KiB) or M (MiB), at most INT_MAX. Return: 0, or -1 with a message in @err.
 */
int parse_rcvbuf(const char *s, size_t *ret, char *err, size_t errlen);

/*
 * Interval of --sample: a duration of 1 ms or more (parse_duration()).
 * Return: 0 and milliseconds, or -1 with a message in @err.
 */
int parse_interval(const char *s, int64_t *ret_ms, char *err, size_t errlen);

/*
 * --delta N: a positive decimal integer.
 * Return: 0, or -1 with a message in @err.
 */
int parse_delta(const char *s, uint64_t *ret, char *err, size_t errlen);

/* Comma-separated class names. Return: 0 and a bit mask, or -1. */
int parse_classes(const char *s, unsigned int *ret, char *err, size_t errlen);

/*
 * Parse the command line into @o (arrays in @o point into @argv).
 * Return: 0, or -1 with a message naming the option in @err.
 */
int watch_options_parse(struct watch_options *o, int argc, char **argv,
			char *err, size_t errlen);

void watch_options_free(struct watch_options *o);

#endif /* KEVENT_WATCH_OPTIONS_H */
