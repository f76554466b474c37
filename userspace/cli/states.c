// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-watch: the states of the sources (--list, --coldplug, and after an
 * overrun) and the events the kernel still holds (--replay).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kevent/kevent.h>

#include "report.h"
#include "sources.h"
#include "states.h"
#include "stdout.h"
#include "stop.h"
#include "watch.h"

/* Print the state of every source. Return: 0, STOP_QUIET, or -1. */
static int print_states(struct watch *w)
{
	int r = kevent_sources_foreach(state_cb, w);

	if (r == STOP_QUIET)
		return STOP_QUIET;
	if (r == STOP_FAILED)
		return -1;
	if (r == -EOPNOTSUPP) {
		warn_user("cannot list sources: %s\n",
		     "the kevent layer does not support it");
		return -1;
	}
	if (r == -ENOENT) {
		warn_user("%s\n", layer_error(r));
		return -1;
	}
	if (r < 0) {
		warn_user("cannot list sources: %s\n", strerror(-r));
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
		warn_user("cannot list the stock sources: %s\n", strerror(-r));
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
int overrun(struct watch *w, long long lost,
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
			warn_user("uevents were lost (receive buffer overrun)\n");
		else if (lost < 0)
			warn_user("events were lost (receive buffer overrun), re-reading state\n");
		else
			warn_user("%lld events were lost, re-reading state\n", lost);
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
			warn_user("out of memory\n");
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
int print_replay(struct watch *w, struct kevent_monitor *m)
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
		warn_user("cannot replay events: %s\n",
		     "the kevent layer does not support it");
		r = -1;
		goto out;
	}
	if (r == -ENOENT) {
		warn_user("%s\n", layer_error(r));
		r = -1;
		goto out;
	}
	/* -EINTR: events left the kernel's ring while it was read */
	if (r < 0 && r != -EINTR) {
		warn_user("cannot replay events: %s\n", strerror(-r));
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
		warn_user("cannot list the files sampled: %s\n", strerror(-r));
		return -1;
	}
	return 0;
}

/*
 * --list: the states of the sources asked for, then exit.
 * Return: the exit status.
 */
int list_states(struct watch *w)
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
 * --coldplug: the states of the sources watched, each kind once. The files
 * sampled are listed unless they are the stock sources.
 * Return: 0, STOP_QUIET, or -1.
 */
int print_coldplug(struct watch *w, const struct monitors *mons)
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
