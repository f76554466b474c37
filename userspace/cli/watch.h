/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kevent-watch: what its parts share: the watch and its monitors, the exit
 * statuses, and why a watch stops.
 */
#ifndef KEVENT_WATCH_WATCH_H
#define KEVENT_WATCH_WATCH_H

#include <stdbool.h>
#include <stdint.h>

#include <kevent/kevent.h>

#include "attr_cache.h"
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

#endif /* KEVENT_WATCH_WATCH_H */
