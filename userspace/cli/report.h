/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kevent-watch: each record. Its value is read through the cache of open
 * attributes, the filters applied, and the record sent to the sinks: the
 * lines of the output, the journal, the --exec command.
 */
#ifndef KEVENT_WATCH_REPORT_H
#define KEVENT_WATCH_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include <kevent/kevent.h>

#include "output.h"

struct watch;

/*
 * Print one event (@type RECORD_EVENT) or the state of one source, after
 * reading its value. Return: 0 (printed or filtered out), STOP_QUIET, -1.
 */
int report(struct watch *w, const struct kevent_event *ev,
	   enum record_type type);

/* report() of a state, as the callback of the dump functions */
int state_cb(const struct kevent_event *ev, void *userdata);

/* Buffer the line built so far. Return: 0, STOP_QUIET, or -1 (reported). */
int emit(struct watch *w);

/* Send the journal entry built (@built: its fields, or -errno). */
int journal_send(struct watch *w, int built);

/* Does @glob hold a wildcard, or is it a name that matches itself alone? */
bool has_wildcard(const char *glob);

/* Does @s match one of the @n @globs (any, when there is none)? */
bool glob_match(const char *const *globs, size_t n, const char *s);

#endif /* KEVENT_WATCH_REPORT_H */
