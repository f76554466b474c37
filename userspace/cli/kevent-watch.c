// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-watch: print kernel attribute events as they happen.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <kevent/kevent.h>

#include "attr_cache.h"
#include "exec.h"
#include "journal.h"
#include "options.h"
#include "output.h"

#define PROG "kevent-watch"

#ifndef KEVENT_VERSION
#define KEVENT_VERSION "0.1"
#endif

enum {
	EXIT_DONE = 0,
	EXIT_RUNTIME = 1,
	EXIT_USAGE = 2,
	EXIT_TIMEOUT = 3, /* --timeout ran out before --count events */
};

/* Why the watch ends, besides an error: the reader went away, or done. */
#define STOP_QUIET 1
/* A dump callback failed and said why already. */
#define STOP_FAILED 2

/* The signal that asked kevent-watch to stop; 0 until one did. */
static volatile sig_atomic_t got_signal;
/* The signals that stop it: blocked but in wait_ready(), see stopping(). */
static sigset_t stop_signals;
/* The signal mask to wait with: that of the start, less stop_signals. */
static sigset_t wait_mask;
/*
 * When --timeout ends the watch, in CLOCK_MONOTONIC ms; 0: never, or not
 * yet (the states of --coldplug and the events of --replay come whole).
 */
static uint64_t deadline_ms;

struct watch {
	struct watch_options opt;
	struct sbuf line;
	struct attr_cache *cache; /* the attributes read, kept open */
	struct journal_entry entry; /* --journal: the entry being sent */
	bool print_lines; /* not with --exec or --journal alone */
	uint64_t printed;
	uint64_t replayed; /* highest sequence number replayed */
	uint64_t forged; /* messages not sent by the kernel, ignored */
	uint64_t malformed; /* messages of the kernel refused, ignored */
};

static uint64_t monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Is it time to stop: has a stop signal arrived, or the --timeout passed?
 * The stop signals stay blocked, so that no system call is interrupted
 * half way; a pending one is taken here, once a millisecond at most, so
 * that a storm of events that never lets kevent-watch wait does not hold
 * it off.
 */
static bool stopping(void)
{
	static const struct timespec now_only = { 0 };
	static uint64_t checked_ms;
	uint64_t now;
	int sig;

	if (got_signal)
		return true;
	now = monotonic_ms();
	if (deadline_ms && now >= deadline_ms)
		return true;
	if (now != checked_ms) {
		checked_ms = now;
		sig = sigtimedwait(&stop_signals, NULL, &now_only);
		if (sig > 0)
			got_signal = sig;
	}
	return got_signal;
}

/*
 * Wait until one of @fds is ready, a stop signal arrives, the --timeout
 * passes or @wait_ms (-1: no limit) go by; not at all when stopping.
 * Return: as ppoll(), but 0 with no revents when a signal interrupted it.
 */
static int wait_ready(struct pollfd *fds, nfds_t nfds, int64_t wait_ms)
{
	struct timespec ts, *tsp = NULL;
	uint64_t now, left;
	nfds_t i;
	int r;

	if (stopping()) {
		wait_ms = 0;
	} else if (deadline_ms) {
		now = monotonic_ms();
		left = deadline_ms > now ? deadline_ms - now : 0;
		if (wait_ms < 0 || (uint64_t)wait_ms > left)
			wait_ms = left;
	}
	if (wait_ms >= 0) {
		ts.tv_sec = wait_ms / 1000;
		ts.tv_nsec = wait_ms % 1000 * 1000000;
		tsp = &ts;
	}
	r = ppoll(fds, nfds, tsp, &wait_mask);
	if (r < 0 && errno == EINTR) {
		for (i = 0; i < nfds; i++)
			fds[i].revents = 0;
		return 0;
	}
	return r;
}

/*
 * Standard output: whole lines wait in out.buf, and are written once it
 * holds PIPE_BUF bytes, before kevent-watch waits for more events, before
 * an --exec command runs and before a message on stderr, so that a burst
 * of events costs a write() per PIPE_BUF bytes rather than per line, and a
 * line is never held while nothing else happens.
 *
 * Each write() is made once poll() says the output has room, and is a run
 * of whole lines of PIPE_BUF bytes at most, which a pipe takes whole: so
 * kevent-watch never sleeps in write(), where a signal or the --timeout
 * could not end it, and its reader never sees part of a line. A line
 * longer than PIPE_BUF goes in pieces, and only it can be cut when
 * kevent-watch stops. Once stopping, what the output takes at once is
 * written, and the lines it has no room for are dropped.
 */
static struct {
	char *buf;
	size_t len, size;
	int err; /* the first error writing, as errno */
	bool reported;
} out;

/*
 * The next write of @len bytes at @s: whole lines up to PIPE_BUF bytes, or
 * the first PIPE_BUF bytes of a longer line. A pipe that poll() says has
 * room takes PIPE_BUF bytes without blocking, and no more.
 */
static size_t out_piece(const char *s, size_t len)
{
	const char *nl;

	if (len <= PIPE_BUF)
		return len;
	nl = memrchr(s, '\n', PIPE_BUF);
	return nl ? (size_t)(nl - s) + 1 : PIPE_BUF;
}

/* Write what out.buf holds, as said above; remember the first error. */
static void flush_stdout(void)
{
	struct pollfd pfd = { .fd = STDOUT_FILENO, .events = POLLOUT };
	size_t done = 0;
	ssize_t n;
	int r;

	while (!out.err && done < out.len) {
		r = wait_ready(&pfd, 1, -1);
		if (r < 0) {
			out.err = errno;
			break;
		}
		/* Stopping, and no room: the rest is dropped. */
		if (r == 0 && stopping())
			break;
		if (r == 0)
			continue;
		/* POLLERR or POLLHUP: write() says which error. */
		n = write(STDOUT_FILENO, out.buf + done,
			  out_piece(out.buf + done, out.len - done));
		if (n < 0 && errno != EINTR && errno != EAGAIN)
			out.err = errno;
		else if (n > 0)
			done += n;
	}
	if (out.err || stopping())
		done = out.len;
	memmove(out.buf, out.buf + done, out.len - done);
	out.len -= done;
}

/* Add @len bytes of whole lines to the output. */
static void out_add(const char *s, size_t len)
{
	size_t size;
	char *buf;

	if (out.err)
		return;
	if (out.len + len > out.size) {
		size = out.size ? out.size : 2 * PIPE_BUF;
		while (size < out.len + len)
			size *= 2;
		buf = realloc(out.buf, size);
		if (!buf) {
			out.err = ENOMEM;
			return;
		}
		out.buf = buf;
		out.size = size;
	}
	memcpy(out.buf + out.len, s, len);
	out.len += len;
	if (out.len >= PIPE_BUF)
		flush_stdout();
}

/* A message on stderr, after the lines printed before it. */
static void __attribute__((format(printf, 1, 2))) warn(const char *fmt, ...)
{
	va_list ap;

	flush_stdout();
	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

/*
 * How writing standard output went. Return: 0, STOP_QUIET (the reader went
 * away), or -1 (said once).
 */
static int output_status(void)
{
	if (!out.err)
		return 0;
	if (out.err == EPIPE)
		return STOP_QUIET;
	if (!out.reported) {
		fprintf(stderr, PROG ": cannot write output: %s\n",
			strerror(out.err));
		out.reported = true;
	}
	return -1;
}

/* Flush standard output. Return: 0, STOP_QUIET, or -1 (reported). */
static int flush_output(void)
{
	flush_stdout();
	return output_status();
}

static void print_help(void)
{
	fputs("Usage: " PROG " [OPTIONS]\n"
	      "Print kernel attribute events, with values read fresh from sysfs.\n"
	      "\n"
	      "  -j, --json          one JSON object per line\n"
	      "  -f, --format FMT    %s seq %t time %c class %p path %a attribute %v value\n"
	      "                      %u unit %S subsystem %e error %% \\n \\t %qX: X shell-quoted\n"
	      "  -c, --class LIST    only these classes: general,storage,power,fs,hotplug,net\n"
	      "      --attr GLOB, --path GLOB, --subsystem NAME  only these (repeatable)\n"
	      "  -n, --count N       exit after N events  -t, --timeout DURATION  or after it\n"
	      "  -l, --list, --coldplug  every annotated source and its value; exit, or watch\n"
	      "      --replay[=SEQ]  first print the events the kernel holds (after SEQ)\n"
	      "      --rcvbuf BYTES  socket receive buffer, such as 256K (default 8M)\n"
	      "      --stock         stock kernel events, no kevent.ko (uevent, rtnetlink)\n"
	      "      --uevent, --poll FILE...  NAME= uevents, sysfs FILEs (no kevent.ko)\n"
	      "      --sample INTERVAL [--delta N] [FILE|GLOB...]  read FILEs (or --stock's)\n"
	      "                      each INTERVAL (a DURATION): changes (numbers: by N)\n"
	      "      --kevent        the kevent layer's events too (the default alone)\n"
	      "      --exec CMD      run sh -c CMD for each record, KEVENT_* set, and\n"
	      "                      print lines only with --json or --format\n"
	      "      --exec-timeout DURATION  kill CMD after it (default 10s; 0: no limit)\n"
	      "      --journal       each record to the journal; lines: --json, --format\n"
	      "      --realtime      times of the wall clock (text: local), not since boot\n"
	      "  -h, --help  -V, --version      DURATION: 2 (seconds), 500ms, 1.5m, 1h\n"
	      "\n"
	      "Lines: KEVENT[TIME] SEQ CLASS PATH ATTR=VALUE ..., STATE[TIME] ..., OVERRUN\n"
	      "Exit status: 0 done, 1 failure, 2 usage, 3 --count not reached. kevent-watch(1)\n",
	      stdout);
}

static int usage_error(const char *msg)
{
	warn("%s\nTry '" PROG " --help' for more information.\n", msg);
	return EXIT_USAGE;
}

/*
 * What adding @file to a monitor for option @opt (--poll, --sample) gave,
 * @r: 0 when it was added or was there already, else the exit status, its
 * message printed.
 */
static int file_added(int r, const char *opt, const char *file)
{
	char msg[PATH_MAX + 64];

	if (r >= 0 || r == -EEXIST)
		return 0;
	if (r == -EXDEV) {
		snprintf(msg, sizeof(msg),
			 "%s: '%s' is not a sysfs file below /sys", opt, file);
		return usage_error(msg);
	}
	warn("cannot %s %s: %s\n", opt + 2, file, strerror(-r));
	return EXIT_RUNTIME;
}

static void on_signal(int sig)
{
	got_signal = sig;
}

/*
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT stop kevent-watch: block them from
 * now on, and catch them where wait_ready() lets them in. A SIGHUP ignored
 * from the start (nohup) stays ignored.
 */
static void stop_signals_init(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa = { .sa_handler = on_signal }, old;
	size_t i;

	sigemptyset(&stop_signals);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if (sigs[i] == SIGHUP && sigaction(SIGHUP, NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaddset(&stop_signals, sigs[i]);
	}
	sa.sa_mask = stop_signals;
	sigprocmask(SIG_BLOCK, &stop_signals, &wait_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if (!sigismember(&stop_signals, sigs[i]))
			continue;
		sigdelset(&wait_mask, sigs[i]);
		sigaction(sigs[i], &sa, NULL);
	}
}

/*
 * End as killed by @sig, as a program a signal cuts short should, so that
 * the shell that runs it sees that too. Return: 128 + @sig, should it not.
 */
static int die_of(int sig)
{
	sigset_t set;

	signal(sig, SIG_DFL);
	raise(sig);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	return 128 + sig;
}

/* Buffer the line built so far. Return: 0, STOP_QUIET, or -1 (reported). */
static int emit(struct watch *w)
{
	const char *s = sbuf_str(&w->line);

	if (!s) {
		warn("out of memory\n");
		return -1;
	}
	out_add(s, w->line.len);
	return output_status();
}

/* Does @glob hold a wildcard, or is it a name that matches itself alone? */
static bool has_wildcard(const char *glob)
{
	return strpbrk(glob, "*?[\\") != NULL;
}

static bool glob_match(const char *const *globs, size_t n, const char *s)
{
	size_t i;

	if (n == 0)
		return true;
	for (i = 0; i < n; i++) {
		if (!has_wildcard(globs[i])) {
			if (strcmp(globs[i], s) == 0)
				return true;
		} else if (fnmatch(globs[i], s, 0) == 0) {
			return true;
		}
	}
	return false;
}

/*
 * When every --attr is the exact name of a registered attribute, let the
 * kernel drop the events of other attributes before they wake us. A glob,
 * or a name the registry does not know, leaves the filtering to
 * glob_match() alone.
 */
static int apply_attr_filter(const struct watch *w, struct kevent_monitor *m)
{
	size_t i;
	int r;

	if (w->opt.n_attr_globs == 0)
		return 0;
	for (i = 0; i < w->opt.n_attr_globs; i++)
		if (has_wildcard(w->opt.attr_globs[i]) ||
		    kevent_attribute_id(w->opt.attr_globs[i]) < 0)
			return 0;
	for (i = 0; i < w->opt.n_attr_globs; i++) {
		r = kevent_monitor_filter_add_attr(m, w->opt.attr_globs[i]);
		if (r < 0) {
			warn("cannot filter attribute %s: %s\n",
			     w->opt.attr_globs[i], strerror(-r));
			return -1;
		}
	}
	return 0;
}

static bool subsystem_match(const struct watch *w, const char *subsystem)
{
	size_t i;

	if (w->opt.n_subsystems == 0)
		return true;
	if (!subsystem)
		return false;
	for (i = 0; i < w->opt.n_subsystems; i++)
		if (strcmp(w->opt.subsystems[i], subsystem) == 0)
			return true;
	return false;
}

/*
 * Run the --exec command for @r, and say on stderr how it failed, if it
 * did. Return: 0, STOP_QUIET (SIGINT or SIGTERM arrived), or -1.
 */
static int run_exec(struct watch *w, const struct record *r)
{
	struct exec_result res;
	char **env;

	env = exec_env_new(r, environ);
	if (!env) {
		warn("out of memory\n");
		return -1;
	}
	exec_run(w->opt.exec, env, w->opt.exec_timeout_ms, &got_signal, &res);
	exec_env_free(env);
	sbuf_reset(&w->line);
	if (exec_describe(&w->line, w->opt.exec, w->opt.exec_timeout_ms,
			  &res)) {
		warn("%s\n",
		     sbuf_str(&w->line) ? sbuf_str(&w->line) : "--exec");
		fflush(stderr);
	}
	return got_signal ? STOP_QUIET : 0;
}

/*
 * Send the entry built in w->entry (@built: how building it went) to the
 * journal. Return: 0, or -1 (reported).
 */
static int journal_send(struct watch *w, int built)
{
	int r = built < 0 ? built : journal_entry_send(&w->entry);

	if (r < 0) {
		warn("cannot write to the journal: %s\n", strerror(-r));
		return -1;
	}
	return 0;
}

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static uint64_t boottime_ns(void)
{
	return clock_ns(CLOCK_BOOTTIME);
}

/* The time of the wall clock (CLOCK_REALTIME) at boot time @ns */
static uint64_t realtime_of(uint64_t ns)
{
	uint64_t boot = boottime_ns(), real = clock_ns(CLOCK_REALTIME);

	return real - (boot > ns ? boot - ns : 0);
}

/*
 * Print one event (@type RECORD_EVENT) or the state of one source, after
 * reading its value. Return: 0 (printed or filtered out), STOP_QUIET, -1.
 */
static int report(struct watch *w, const struct kevent_event *ev,
		  enum record_type type)
{
	enum kevent_class cls = kevent_event_get_class(ev);
	enum kevent_event_source source = kevent_event_get_source(ev);
	const char *path = kevent_event_get_path(ev);
	const char *attr = kevent_event_get_attr(ev);
	const char *ev_subsystem = kevent_event_get_subsystem(ev);
	char *value = NULL, *own_subsystem = NULL;
	struct attr_cache_entry *entry;
	const char *subsystem;
	struct record r = {
		.type = type,
		.source = kevent_event_source_to_string(source),
		.no_seq = source == KEVENT_EVENT_SOURCE_POLL ||
			  source == KEVENT_EVENT_SOURCE_RTNETLINK ||
			  source == KEVENT_EVENT_SOURCE_SAMPLE,
		.cls = kevent_class_to_string(cls),
		.path = path,
		.attr = attr,
	};
	size_t len = 0;
	int open_err, ret;

	/* Stock events of an attribute without a class pass no --class. */
	if (w->opt.classes &&
	    (cls > KEVENT_CLASS_MAX || !(w->opt.classes & (1u << cls))))
		return 0;
	if (!glob_match(w->opt.attr_globs, w->opt.n_attr_globs, attr) ||
	    !glob_match(w->opt.path_globs, w->opt.n_path_globs, path))
		return 0;

	/*
	 * The attribute comes from the cache of open ones: it is opened and
	 * its device's subsystem looked up once, and each event reads the
	 * value afresh. The subsystem is known before the value is read, so
	 * --subsystem spares the reads of other devices. An entry found
	 * stale was opened again by the second lookup, whose read cannot
	 * find it stale: the loop runs twice at most.
	 */
	do {
		open_err = attr_cache_get(w->cache, path, attr, &entry);
		free(own_subsystem);
		own_subsystem = NULL;
		if (ev_subsystem)
			subsystem = ev_subsystem;
		else if (entry)
			subsystem = attr_cache_subsystem(entry);
		else if (kevent_device_get_subsystem(path, &own_subsystem) == 0)
			subsystem = own_subsystem;
		else
			subsystem = NULL;
		if (!subsystem_match(w, subsystem)) {
			free(own_subsystem);
			return 0;
		}
		ret = open_err;
		if (!ret)
			ret = attr_cache_read(entry, &value, &len);
	} while (ret == -ESTALE);
	if (ret < 0) {
		r.error = -ret;
	} else {
		r.value = value;
		r.value_len = value_trim(value, len);
	}
	r.subsystem = subsystem;
	r.unit = kevent_attribute_unit(attr);
	if (type == RECORD_EVENT) {
		r.seq = kevent_event_get_seq(ev);
		r.time_ns = kevent_event_get_timestamp(ev);
		r.coalesced = kevent_event_get_coalesced(ev);
	} else {
		r.time_ns = boottime_ns();
	}
	if (w->opt.realtime) {
		r.time_ns = realtime_of(r.time_ns);
		r.realtime = true;
	}

	ret = 0;
	if (w->print_lines) {
		sbuf_reset(&w->line);
		if (w->opt.json)
			record_json(&w->line, &r);
		else if (w->opt.format)
			format_expand(&w->line, w->opt.format, &r);
		else
			record_text(&w->line, &r);
		ret = emit(w);
	}
	if (ret == 0 && w->opt.journal)
		ret = journal_send(w, journal_entry_record(&w->entry, &r));
	if (ret == 0 && w->opt.exec) {
		/* The command's output comes after the line it was run for. */
		ret = flush_output();
		if (ret == 0)
			ret = run_exec(w, &r);
	}
	free(value);
	free(own_subsystem);

	if (ret == 0 && type == RECORD_EVENT)
		w->printed++;
	return ret;
}

static int state_cb(const struct kevent_event *ev, void *userdata)
{
	int r;

	if (stopping())
		return STOP_QUIET;
	r = report(userdata, ev, RECORD_STATE);

	/* Any non-zero value stops the dump and comes back as its result. */
	return r < 0 ? STOP_FAILED : r;
}

static const char *layer_error(int err)
{
	static char buf[128];

	if (err == -ENOENT)
		return "the kevent layer is not loaded (modprobe kevent); "
		       "--stock reports the stock kernel's events without it";
	snprintf(buf, sizeof(buf), "cannot talk to the kevent layer: %s",
		 strerror(-err));
	return buf;
}

/* Print the state of every source. Return: 0, STOP_QUIET, or -1. */
static int print_states(struct watch *w)
{
	int r = kevent_sources_foreach(state_cb, w);

	if (r == STOP_QUIET)
		return STOP_QUIET;
	if (r == STOP_FAILED)
		return -1;
	if (r == -EOPNOTSUPP) {
		warn("cannot list sources: %s\n",
		     "the kevent layer does not support it");
		return -1;
	}
	if (r == -ENOENT) {
		warn("%s\n", layer_error(r));
		return -1;
	}
	if (r < 0) {
		warn("cannot list sources: %s\n", strerror(-r));
		return -1;
	}
	return 0;
}

/* Print the state of every stock source. Return: 0, STOP_QUIET, or -1. */
static int print_stock_states(struct watch *w)
{
	int r = kevent_stock_foreach(state_cb, w);

	if (r == STOP_QUIET)
		return STOP_QUIET;
	if (r == STOP_FAILED)
		return -1;
	if (r < 0) {
		warn("cannot list the stock sources: %s\n", strerror(-r));
		return -1;
	}
	return 0;
}

/*
 * Re-read the states a backend's events would have changed: every source
 * of the kevent layer, or every stock source; uevents alone have none.
 * Return: 0, STOP_QUIET, or -1.
 */
static int print_backend_states(struct watch *w, enum kevent_backend backend)
{
	switch (backend) {
	case KEVENT_BACKEND_KEVENT:
		return print_states(w);
	case KEVENT_BACKEND_STOCK:
		return print_stock_states(w);
	default:
		return 0;
	}
}

/*
 * Events of @backend were lost: @lost of them (found from a gap in the
 * class sequence numbers), or an unknown number (-1: the receive buffer
 * overflowed). Say so, then re-read the states those events would have
 * changed. Return: 0, STOP_QUIET, or -1.
 */
static int overrun(struct watch *w, long long lost,
		   enum kevent_backend backend)
{
	int r;

	if (w->opt.journal &&
	    journal_send(w, journal_entry_overrun(&w->entry, lost)) < 0)
		return -1;
	sbuf_reset(&w->line);
	if (w->opt.json) {
		overrun_json(&w->line, lost);
	} else if (w->opt.journal && (!w->print_lines || w->opt.format)) {
		/* The journal has it: no line on stderr too. */
		goto out_states;
	} else if (!w->print_lines || w->opt.format) {
		/* The format has no place for it: a line on stderr. */
		if (backend == KEVENT_BACKEND_UEVENT)
			warn("uevents were lost (receive buffer overrun)\n");
		else if (lost < 0)
			warn("events were lost (receive buffer overrun), re-reading state\n");
		else
			warn("%lld events were lost, re-reading state\n", lost);
		goto out_states;
	} else {
		overrun_text(&w->line, lost);
	}
	r = emit(w);
	if (r)
		return r;
out_states:
	return print_backend_states(w, backend);
}

struct replay {
	struct kevent_event **events;
	size_t n, size;
};

/* Keep the event: it is reported once the dump is over, kept short. */
static int replay_cb(const struct kevent_event *ev, void *userdata)
{
	struct replay *rp = userdata;
	struct kevent_event **events;
	size_t size;

	if (rp->n == rp->size) {
		size = rp->size ? rp->size * 2 : 256;
		events = reallocarray(rp->events, size, sizeof(*events));
		if (!events) {
			warn("out of memory\n");
			return STOP_FAILED;
		}
		rp->events = events;
		rp->size = size;
	}
	rp->events[rp->n++] = kevent_event_ref((struct kevent_event *)ev);
	return 0;
}

/*
 * Print the events the kernel still holds, newer than --replay=SEQ, and
 * remember the last one, so that drain() skips them when they arrive live
 * too (the groups are joined first). Return: 0, STOP_QUIET, or -1.
 */
static int print_replay(struct watch *w, struct kevent_monitor *m)
{
	struct replay rp = { 0 };
	bool lost;
	size_t i;
	int r;

	r = kevent_replay_foreach(w->opt.replay_after, replay_cb, &rp);
	if (r == STOP_FAILED) {
		r = -1;
		goto out;
	}
	if (r == -EOPNOTSUPP) {
		warn("cannot replay events: %s\n",
		     "the kevent layer does not support it");
		r = -1;
		goto out;
	}
	if (r == -ENOENT) {
		warn("%s\n", layer_error(r));
		r = -1;
		goto out;
	}
	/* -EINTR: events left the kernel's ring while it was read */
	if (r < 0 && r != -EINTR) {
		warn("cannot replay events: %s\n", strerror(-r));
		r = -1;
		goto out;
	}
	lost = r == -EINTR;

	for (i = 0; i < rp.n; i++) {
		if (stopping()) {
			r = 0;
			goto out;
		}
		w->replayed = kevent_event_get_seq(rp.events[i]);
		/* The first live event of its class is checked against it. */
		kevent_monitor_mark_seen(m, rp.events[i]);
		r = report(w, rp.events[i], RECORD_EVENT);
		if (r)
			goto out;
		if (w->opt.count && w->printed >= w->opt.count) {
			r = STOP_QUIET;
			goto out;
		}
	}
	/* Events after the last one replayed were lost: re-read the state */
	r = lost ? overrun(w, -1, KEVENT_BACKEND_KEVENT) : 0;

out:
	for (i = 0; i < rp.n; i++)
		kevent_event_unref(rp.events[i]);
	free(rp.events);
	return r;
}

/*
 * The monitors a watch receives from, each made as its options ask, and the
 * combined monitor that holds them behind one descriptor.
 */
struct monitors {
	struct kevent_combined_monitor *all;
	struct kevent_monitor *kevent; /* the kevent layer's events */
	struct kevent_uevent_monitor *uevent; /* --uevent */
	struct kevent_poll_monitor *poll; /* --poll, without --stock */
	struct kevent_stock_monitor *stock; /* --stock, with the --poll files */
	struct kevent_sample_monitor *sample; /* --sample */
};

static void monitors_close(struct monitors *mons)
{
	kevent_combined_monitor_unref(mons->all);
	kevent_monitor_unref(mons->kevent);
	kevent_uevent_monitor_unref(mons->uevent);
	kevent_poll_monitor_unref(mons->poll);
	kevent_stock_monitor_unref(mons->stock);
	kevent_sample_monitor_unref(mons->sample);
}

/*
 * Say once that messages were ignored, the first time a monitor drops one:
 * the count comes when the watch ends (report_ignored()).
 */
static void check_ignored(struct watch *w, const struct monitors *mons)
{
	uint64_t forged = kevent_monitor_get_forged(mons->kevent) +
			  kevent_stock_monitor_get_forged(mons->stock);
	uint64_t malformed = kevent_monitor_get_dropped(mons->kevent) -
			     kevent_monitor_get_forged(mons->kevent);

	if (forged && !w->forged)
		warn("ignoring messages not sent by the kernel\n");
	if (malformed && !w->malformed)
		warn("ignoring malformed messages of the kevent layer\n");
	w->forged = forged;
	w->malformed = malformed;
}

static void report_ignored(struct watch *w, const struct monitors *mons)
{
	check_ignored(w, mons);
	if (w->forged)
		warn("ignored %llu messages not sent by the kernel\n",
		     (unsigned long long)w->forged);
	if (w->malformed)
		warn("ignored %llu malformed messages of the kevent layer\n",
		     (unsigned long long)w->malformed);
}

/* A receive error of @backend that ends the watch: say which. */
static void receive_failed(enum kevent_backend backend, int err)
{
	switch (backend) {
	case KEVENT_BACKEND_KEVENT:
		if (err == -ENODEV) {
			warn("the kevent layer went away\n");
			return;
		}
		break;
	case KEVENT_BACKEND_UEVENT:
	case KEVENT_BACKEND_POLL:
		warn("cannot receive %s events: %s\n",
		     kevent_backend_to_string(backend), strerror(-err));
		return;
	case KEVENT_BACKEND_SAMPLE:
		warn("cannot sample: %s\n", strerror(-err));
		return;
	default:
		break;
	}
	warn("cannot receive events: %s\n", strerror(-err));
}

/*
 * Receive from every monitor until nothing is pending, or it is time to
 * stop. Return: 0, STOP_QUIET, or -1.
 */
static int drain(struct watch *w, const struct monitors *mons)
{
	enum kevent_backend backend;
	struct kevent_event *ev;
	uint64_t lost;
	int r;

	while (!stopping()) {
		r = kevent_combined_monitor_receive(mons->all, &ev, &backend);
		check_ignored(w, mons);
		if (r == -EAGAIN)
			return 0;
		if (r == -ENOBUFS) {
			/* Messages were lost: say so, then the states */
			r = overrun(w, -1, backend);
			if (r)
				return r;
			continue;
		}
		/* A message too large for the buffer, skipped */
		if (r == -EMSGSIZE && backend == KEVENT_BACKEND_KEVENT)
			continue;
		if (r < 0) {
			receive_failed(backend, r);
			return -1;
		}
		if (backend == KEVENT_BACKEND_KEVENT) {
			/*
			 * Events of this class were lost before this one: say
			 * how many and re-read the state, then report it.
			 */
			lost = kevent_event_get_lost(ev);
			if (lost) {
				r = overrun(w, lost > LLONG_MAX ? LLONG_MAX : lost,
					    backend);
				if (r) {
					kevent_event_unref(ev);
					return r;
				}
			}
			/* Printed by the replay already */
			if (w->opt.replay &&
			    kevent_event_get_seq(ev) <= w->replayed) {
				kevent_event_unref(ev);
				continue;
			}
		}
		r = report(w, ev, RECORD_EVENT);
		kevent_event_unref(ev);
		if (r)
			return r;
		if (w->opt.count && w->printed >= w->opt.count)
			return STOP_QUIET;
	}
	return 0;
}

/* Print the state of every file sampled. Return: 0, STOP_QUIET, or -1. */
static int print_sample_states(struct watch *w,
			       struct kevent_sample_monitor *sp)
{
	int r = kevent_sample_monitor_foreach(sp, state_cb, w);

	if (r == STOP_QUIET)
		return STOP_QUIET;
	if (r == STOP_FAILED)
		return -1;
	if (r < 0) {
		warn("cannot list the files sampled: %s\n", strerror(-r));
		return -1;
	}
	return 0;
}

struct stock_sample {
	struct watch *w;
	struct kevent_sample_monitor *sp;
};

/* Sample a stock attribute of the classes chosen; skip what cannot be. */
static int stock_sample_cb(const struct kevent_event *ev, void *userdata)
{
	struct stock_sample *ss = userdata;
	enum kevent_class cls = kevent_event_get_class(ev);
	unsigned int classes = ss->w->opt.classes;
	char file[PATH_MAX];
	int r;

	if (classes && (cls > KEVENT_CLASS_MAX || !(classes & (1u << cls))))
		return 0;
	if ((size_t)snprintf(file, sizeof(file), "/sys%s/%s",
			     kevent_event_get_path(ev),
			     kevent_event_get_attr(ev)) >= sizeof(file))
		return 0;
	r = kevent_sample_monitor_add(ss->sp, file);
	if (r == -ENOMEM) {
		warn("out of memory\n");
		return STOP_FAILED;
	}
	return 0;
}

/*
 * Many files are sampled, each kept open: take every descriptor the hard
 * limit allows.
 */
static void raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/*
 * The sampler of --sample, with its files, or the stock attributes of the
 * classes chosen when --stock is given without files.
 * Return: 0, or the exit status (a message was printed).
 */
static int open_sampler(struct watch *w, struct kevent_sample_monitor **sp)
{
	struct stock_sample ss = { .w = w };
	size_t i;
	int r;

	r = kevent_sample_monitor_new(sp, (uint64_t)w->opt.sample_ms * 1000);
	if (r < 0) {
		warn("cannot sample: %s\n", strerror(-r));
		return EXIT_RUNTIME;
	}
	kevent_sample_monitor_set_delta(*sp, w->opt.delta);
	for (i = 0; i < w->opt.n_sample_files; i++) {
		const char *file = w->opt.sample_files[i];
		size_t before = kevent_sample_monitor_get_count(*sp);

		r = file_added(kevent_sample_monitor_add(*sp, file), "--sample",
			       file);
		if (r)
			return r;
		/* Sampled from when a file appears; a typo would be silent */
		if (has_wildcard(file) &&
		    kevent_sample_monitor_get_count(*sp) == before)
			warn("--sample: no file to sample matches '%s' yet\n",
			     file);
	}
	if (w->opt.n_sample_files)
		return 0;
	ss.sp = *sp;
	r = kevent_stock_foreach(stock_sample_cb, &ss);
	if (r == STOP_FAILED)
		return EXIT_RUNTIME;
	if (r < 0) {
		warn("cannot list the stock sources: %s\n", strerror(-r));
		return EXIT_RUNTIME;
	}
	return 0;
}

/*
 * --list: the states of the sources asked for, then exit.
 * Return: the exit status.
 */
static int list(struct watch *w)
{
	struct kevent_sample_monitor *sp = NULL;
	int r = 0, status;

	if (w->opt.n_sample_files) {
		status = open_sampler(w, &sp);
		if (status)
			goto out;
	}
	if (w->opt.kevent)
		r = print_states(w);
	if (r == 0 && w->opt.stock)
		r = print_stock_states(w);
	if (r == 0 && sp)
		r = print_sample_states(w, sp);
	status = r < 0 ? EXIT_RUNTIME : EXIT_DONE;
out:
	kevent_sample_monitor_unref(sp);
	return status;
}

/*
 * The kevent layer's monitor: its receive buffer, attribute filter and
 * classes set before the first event. Return: 0, or the exit status (a
 * message was printed).
 */
static int open_kevent(struct watch *w, struct kevent_monitor **m)
{
	int i, r;

	r = kevent_monitor_new(m);
	if (r < 0) {
		warn("%s\n", layer_error(r));
		return EXIT_RUNTIME;
	}
	/* Before joining, so that the first events find the size asked for. */
	if (w->opt.rcvbuf) {
		r = kevent_monitor_set_receive_buffer_size(*m, w->opt.rcvbuf);
		if (r < 0) {
			warn("cannot set the receive buffer: %s\n",
			     strerror(-r));
			return EXIT_RUNTIME;
		}
	}
	/* Before joining too: no event of another attribute is queued. */
	if (apply_attr_filter(w, *m) < 0)
		return EXIT_RUNTIME;
	for (i = 0; i <= KEVENT_CLASS_MAX; i++) {
		if (w->opt.classes && !(w->opt.classes & (1u << i)))
			continue;
		r = kevent_monitor_join(*m, i);
		if (r < 0) {
			warn("cannot join group %s: %s\n",
			     kevent_class_to_string(i), strerror(-r));
			return EXIT_RUNTIME;
		}
	}
	return 0;
}

/*
 * The stock monitor, with the --poll files. Return: 0, or the exit status
 * (a message was printed).
 */
static int open_stock(struct watch *w, struct kevent_stock_monitor **sm)
{
	size_t i;
	int r;

	r = kevent_stock_monitor_new(sm);
	if (r < 0) {
		warn("cannot receive the stock kernel's events: %s\n",
		     strerror(-r));
		return EXIT_RUNTIME;
	}
	for (i = 0; i < w->opt.n_poll_files; i++) {
		const char *file = w->opt.poll_files[i];

		r = file_added(kevent_stock_monitor_add_file(*sm, file),
			       "--poll", file);
		if (r)
			return r;
	}
	return 0;
}

/*
 * The poll monitor of the --poll files, without --stock. Return: 0, or the
 * exit status (a message was printed).
 */
static int open_poll(struct watch *w, struct kevent_poll_monitor **pm)
{
	size_t i;
	int r;

	r = kevent_poll_monitor_new(pm);
	if (r < 0) {
		warn("cannot poll: %s\n", strerror(-r));
		return EXIT_RUNTIME;
	}
	for (i = 0; i < w->opt.n_poll_files; i++) {
		const char *file = w->opt.poll_files[i];

		r = file_added(kevent_poll_monitor_add(*pm, file), "--poll",
			       file);
		if (r)
			return r;
	}
	return 0;
}

/*
 * Every monitor the options ask for, in one combined monitor: the kevent
 * layer's, the stock kernel's (which takes the --poll files and covers
 * --uevent's), or the uevent and poll monitors, and the sampler.
 * Return: 0, or the exit status (a message was printed).
 */
static int monitors_open(struct watch *w, struct monitors *mons)
{
	int r;

	r = kevent_combined_monitor_new(&mons->all);
	if (r < 0) {
		warn("cannot receive events: %s\n", strerror(-r));
		return EXIT_RUNTIME;
	}
	if (w->opt.kevent) {
		r = open_kevent(w, &mons->kevent);
		if (r)
			return r;
		r = kevent_combined_monitor_add_kevent(mons->all, mons->kevent);
	}
	if (r == 0 && w->opt.stock) {
		r = open_stock(w, &mons->stock);
		if (r)
			return r;
		r = kevent_combined_monitor_add_stock(mons->all, mons->stock);
	}
	if (r == 0 && !w->opt.stock && w->opt.n_poll_files) {
		r = open_poll(w, &mons->poll);
		if (r)
			return r;
		r = kevent_combined_monitor_add_poll(mons->all, mons->poll);
	}
	if (r == 0 && !w->opt.stock && w->opt.uevent) {
		r = kevent_uevent_monitor_new(&mons->uevent);
		if (r < 0) {
			warn("cannot receive uevents: %s\n", strerror(-r));
			return EXIT_RUNTIME;
		}
		r = kevent_combined_monitor_add_uevent(mons->all, mons->uevent);
	}
	if (r == 0 && w->opt.sample_ms) {
		r = open_sampler(w, &mons->sample);
		if (r)
			return r;
		r = kevent_combined_monitor_add_sample(mons->all, mons->sample);
	}
	if (r < 0) {
		warn("cannot receive events: %s\n", strerror(-r));
		return EXIT_RUNTIME;
	}
	return 0;
}

/*
 * --coldplug: the states of the sources watched, each kind once. The files
 * sampled are listed unless they are the stock sources.
 * Return: 0, STOP_QUIET, or -1.
 */
static int print_coldplug(struct watch *w, const struct monitors *mons)
{
	int r = 0;

	if (mons->kevent)
		r = print_states(w);
	if (r == 0 && mons->stock)
		r = print_stock_states(w);
	if (r == 0 && w->opt.n_sample_files)
		r = print_sample_states(w, mons->sample);
	return r;
}

/* Is stdout a pipe or socket, whose reader can go away? */
static bool output_can_close(void)
{
	struct stat st;

	if (fstat(STDOUT_FILENO, &st) < 0)
		return false;
	return S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode);
}

/*
 * Did the --timeout end the watch before the --count was printed? Not when
 * a signal or the reader going away ended it first.
 */
static bool timed_out(const struct watch *w)
{
	return w->opt.count && w->printed < w->opt.count && !got_signal &&
	       deadline_ms && monotonic_ms() >= deadline_ms;
}

/*
 * Watch until the --count, the --timeout, a stop signal, or the reader of
 * the output going away. Return: the exit status.
 */
static int watch(struct watch *w)
{
	struct monitors mons = { 0 };
	struct pollfd pfd[2];
	uint64_t start_ms;
	nfds_t nfds = 1;
	bool late = false;
	int r;

	/* The --timeout counts from here: joining can take long. */
	start_ms = monotonic_ms();
	r = monitors_open(w, &mons);
	if (r) {
		monitors_close(&mons);
		return r;
	}

	/*
	 * Subscribed first, so that a change while the states are read is
	 * reported. States first, then replayed and live events in sequence
	 * order; the lines of each part go out whole before the next, and
	 * before the --timeout counts.
	 */
	if (w->opt.coldplug) {
		r = print_coldplug(w, &mons);
		if (r == 0)
			r = flush_output();
		if (r)
			goto out;
	}
	if (w->opt.replay) {
		r = print_replay(w, mons.kevent);
		if (r == 0)
			r = flush_output();
		if (r)
			goto out;
	}
	if (w->opt.timeout_ms >= 0)
		deadline_ms = start_ms + w->opt.timeout_ms;

	pfd[0] = (struct pollfd){ .fd = kevent_combined_monitor_get_fd(mons.all),
				  .events = POLLIN };
	if (output_can_close()) {
		/* Only POLLERR and POLLHUP: the reader went away. */
		pfd[1] = (struct pollfd){ .fd = STDOUT_FILENO };
		nfds = 2;
	}
	for (;;) {
		r = drain(w, &mons);
		if (r == 0)
			r = flush_output();
		if (r)
			goto out;
		if (stopping())
			break;
		r = wait_ready(pfd, nfds, -1);
		if (r < 0) {
			warn("poll: %s\n", strerror(errno));
			r = -1;
			goto out;
		}
		if (nfds == 2 && (pfd[1].revents & (POLLERR | POLLHUP)))
			break;
	}
	r = 0;
	late = timed_out(w);

out:
	report_ignored(w, &mons);
	monitors_close(&mons);
	if (r < 0)
		return EXIT_RUNTIME;
	return late ? EXIT_TIMEOUT : EXIT_DONE;
}

/*
 * Keep the standard descriptors taken, so that no socket lands on them and
 * receives output. A closed standard output is an error.
 */
static int check_std_fds(void)
{
	int fd;

	if (fcntl(STDOUT_FILENO, F_GETFD) < 0) {
		if (fcntl(STDERR_FILENO, F_GETFD) >= 0)
			warn("standard output is closed\n");
		return -1;
	}
	for (fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
		if (fcntl(fd, F_GETFD) >= 0)
			continue;
		if (open("/dev/null", O_RDWR | O_CLOEXEC) != fd)
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct watch w = { 0 };
	char err[256];
	int r;

	if (watch_options_parse(&w.opt, argc, argv, err, sizeof(err)) < 0) {
		watch_options_free(&w.opt);
		return usage_error(err);
	}
	if (w.opt.help) {
		print_help();
		r = EXIT_DONE;
		goto out;
	}
	if (w.opt.version) {
		printf(PROG " " KEVENT_VERSION "\n");
		r = EXIT_DONE;
		goto out;
	}

	if (check_std_fds() < 0) {
		r = EXIT_RUNTIME;
		goto out;
	}
	if (w.opt.sample_ms)
		raise_nofile();
	w.cache = attr_cache_new();
	if (!w.cache) {
		warn("out of memory\n");
		r = EXIT_RUNTIME;
		goto out;
	}
	if (w.opt.journal && (r = journal_check()) < 0) {
		warn("cannot write to the journal: %s: %s\n", JOURNAL_SOCKET,
		     strerror(-r));
		r = EXIT_RUNTIME;
		goto out;
	}
	text_style_init(w.opt.json || w.opt.format);
	signal(SIGPIPE, SIG_IGN);
	/* Inherited as ignored, it would reap the --exec commands itself. */
	signal(SIGCHLD, SIG_DFL);
	w.print_lines = !(w.opt.exec || w.opt.journal) || w.opt.json ||
			w.opt.format;
	stop_signals_init();

	if (w.opt.list) {
		r = list(&w);
	} else {
		r = watch(&w);
	}
	/* What a --count, a stop or the end of a --list left in the buffer */
	if (flush_output() < 0)
		r = EXIT_RUNTIME;

out:
	attr_cache_free(w.cache);
	journal_entry_free(&w.entry);
	sbuf_free(&w.line);
	free(out.buf);
	/*
	 * SIGINT, SIGTERM and SIGHUP are how a watch ends. SIGQUIT, and any
	 * of them that cut a --list short, end it as killed by the signal.
	 */
	if (got_signal && (w.opt.list || got_signal == SIGQUIT))
		r = die_of(got_signal);
	watch_options_free(&w.opt);
	return r;
}
