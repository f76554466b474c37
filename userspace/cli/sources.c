// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-watch: opening the sources asked for (the kevent layer, the stock
 * kernel, polled and sampled files) in monitors combined behind one
 * descriptor, and what their receives say went wrong.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include <kevent/kevent.h>

#include "report.h"
#include "sources.h"
#include "stdout.h"
#include "watch.h"

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
	warn_user("cannot %s %s: %s\n", opt + 2, file, strerror(-r));
	return EXIT_RUNTIME;
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
			warn_user("cannot filter attribute %s: %s\n",
			     w->opt.attr_globs[i], strerror(-r));
			return -1;
		}
	}
	return 0;
}

const char *layer_error(int err)
{
	static char buf[128];

	if (err == -ENOENT)
		return "the kevent layer is not loaded (modprobe kevent); "
		       "--stock reports the stock kernel's events without it";
	snprintf(buf, sizeof(buf), "cannot talk to the kevent layer: %s",
		 strerror(-err));
	return buf;
}

void monitors_close(struct monitors *mons)
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
void check_ignored(struct watch *w, const struct monitors *mons)
{
	uint64_t forged = kevent_monitor_get_forged(mons->kevent) +
			  kevent_stock_monitor_get_forged(mons->stock);
	uint64_t malformed = kevent_monitor_get_dropped(mons->kevent) -
			     kevent_monitor_get_forged(mons->kevent);

	if (forged && !w->forged)
		warn_user("ignoring messages not sent by the kernel\n");
	if (malformed && !w->malformed)
		warn_user("ignoring malformed messages of the kevent layer\n");
	w->forged = forged;
	w->malformed = malformed;
}

void report_ignored(struct watch *w, const struct monitors *mons)
{
	check_ignored(w, mons);
	if (w->forged)
		warn_user("ignored %llu messages not sent by the kernel\n",
		     (unsigned long long)w->forged);
	if (w->malformed)
		warn_user("ignored %llu malformed messages of the kevent layer\n",
		     (unsigned long long)w->malformed);
}

/* A receive error of @backend that ends the watch: say which. */
void receive_failed(enum kevent_backend backend, int err)
{
	switch (backend) {
	case KEVENT_BACKEND_KEVENT:
		if (err == -ENODEV) {
			warn_user("the kevent layer went away\n");
			return;
		}
		break;
	case KEVENT_BACKEND_UEVENT:
	case KEVENT_BACKEND_POLL:
		warn_user("cannot receive %s events: %s\n",
		     kevent_backend_to_string(backend), strerror(-err));
		return;
	case KEVENT_BACKEND_SAMPLE:
		warn_user("cannot sample: %s\n", strerror(-err));
		return;
	default:
		break;
	}
	warn_user("cannot receive events: %s\n", strerror(-err));
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
		warn_user("out of memory\n");
		return STOP_FAILED;
	}
	return 0;
}

/*
 * Many files are sampled, each kept open: take every descriptor the hard
 * limit allows.
 */
void raise_nofile(void)
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
int open_sampler(struct watch *w, struct kevent_sample_monitor **sp)
{
	struct stock_sample ss = { .w = w };
	size_t i;
	int r;

	r = kevent_sample_monitor_new(sp, (uint64_t)w->opt.sample_ms * 1000);
	if (r < 0) {
		warn_user("cannot sample: %s\n", strerror(-r));
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
			warn_user("--sample: no file to sample matches '%s' yet\n",
			     file);
	}
	if (w->opt.n_sample_files)
		return 0;
	ss.sp = *sp;
	r = kevent_stock_foreach(stock_sample_cb, &ss);
	if (r == STOP_FAILED)
		return EXIT_RUNTIME;
	if (r < 0) {
		warn_user("cannot list the stock sources: %s\n", strerror(-r));
		return EXIT_RUNTIME;
	}
	return 0;
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
		warn_user("%s\n", layer_error(r));
		return EXIT_RUNTIME;
	}
	/* Before joining, so that the first events find the size asked for. */
	if (w->opt.rcvbuf) {
		r = kevent_monitor_set_receive_buffer_size(*m, w->opt.rcvbuf);
		if (r < 0) {
			warn_user("cannot set the receive buffer: %s\n",
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
			warn_user("cannot join group %s: %s\n",
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
		warn_user("cannot receive the stock kernel's events: %s\n",
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
		warn_user("cannot poll: %s\n", strerror(-r));
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
int monitors_open(struct watch *w, struct monitors *mons)
{
	int r;

	r = kevent_combined_monitor_new(&mons->all);
	if (r < 0) {
		warn_user("cannot receive events: %s\n", strerror(-r));
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
			warn_user("cannot receive uevents: %s\n", strerror(-r));
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
		warn_user("cannot receive events: %s\n", strerror(-r));
		return EXIT_RUNTIME;
	}
	return 0;
}
