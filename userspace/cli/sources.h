/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kevent-watch: opening the sources asked for (the kevent layer, the stock
 * kernel, polled and sampled files) in monitors combined behind one
 * descriptor, and what their receives say went wrong.
 */
#ifndef KEVENT_WATCH_SOURCES_H
#define KEVENT_WATCH_SOURCES_H

#include <kevent/kevent.h>

struct watch;
struct monitors;

/* Open every monitor the options ask for. Return: 0, or the exit status. */
int monitors_open(struct watch *w, struct monitors *mons);

/* Close them all; each may be NULL. */
void monitors_close(struct monitors *mons);

/* The sampler of --sample, with its files. Return: 0, or the exit status. */
int open_sampler(struct watch *w, struct kevent_sample_monitor **sp);

/* Let the process hold as many descriptors as its hard limit allows. */
void raise_nofile(void);

/* The message for error @err of the kevent layer's family */
const char *layer_error(int err);

/* Say why a receive of @backend failed with @err. */
void receive_failed(enum kevent_backend backend, int err);

/* Count the messages the monitors ignored since the last call. */
void check_ignored(struct watch *w, const struct monitors *mons);

/* Say, at the end, how many messages were ignored, if any. */
void report_ignored(struct watch *w, const struct monitors *mons);

#endif /* KEVENT_WATCH_SOURCES_H */
