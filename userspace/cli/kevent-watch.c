// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-watch: print kernel attribute events as they happen.
 *
 * This file: the command line, the watch loop and main(). stop.c: the
 * signals and --timeout; stdout.c: the output; sources.c: opening the
 * sources; states.c: the states and --replay; report.c: each record.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <kevent/kevent.h>

#include "report.h"
#include "sources.h"
#include "states.h"
#include "stdout.h"
#include "stop.h"
#include "watch.h"

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

/*
 * Did the --timeout end the watch before the --count was printed? Not when
 * a signal or the reader going away ended it first.
 */
static bool timed_out(const struct watch *w)
{
	return w->opt.count && w->printed < w->opt.count && !got_signal &&
	       deadline_passed();
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
		stop_set_deadline(start_ms + w->opt.timeout_ms);

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
			warn_user("poll: %s\n", strerror(errno));
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
			warn_user("standard output is closed\n");
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
		warn_user("out of memory\n");
		r = EXIT_RUNTIME;
		goto out;
	}
	if (w.opt.journal && (r = journal_check()) < 0) {
		warn_user("cannot write to the journal: %s: %s\n", JOURNAL_SOCKET,
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
		r = list_states(&w);
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
	output_free();
	/*
	 * SIGINT, SIGTERM and SIGHUP are how a watch ends. SIGQUIT, and any
	 * of them that cut a --list short, end it as killed by the signal.
	 */
	if (got_signal && (w.opt.list || got_signal == SIGQUIT))
		r = die_of(got_signal);
	watch_options_free(&w.opt);
	return r;
}
