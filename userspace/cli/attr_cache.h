/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kevent-watch: the attributes it reads, kept open.
 */
#ifndef KEVENT_WATCH_ATTR_CACHE_H
#define KEVENT_WATCH_ATTR_CACHE_H

#include <stdbool.h>
#include <stddef.h>

/* At most this many descriptors, and a quarter of RLIMIT_NOFILE. */
#define ATTR_CACHE_MAX 256
/* How long the error of an open that failed is given again, unopened */
#define ATTR_CACHE_FAILED_MS 1000

struct attr_cache;
struct attr_cache_entry;

/*
 * A cache of ATTR_CACHE_MAX entries or fewer, as RLIMIT_NOFILE allows.
 * Return: the cache, or NULL when out of memory.
 */
struct attr_cache *attr_cache_new(void);

/* Close every descriptor and free @c; NULL is accepted. */
void attr_cache_free(struct attr_cache *c);

/*
 * attr_cache_get() - the entry of @attr of @path
 * @ret_entry: the entry, or NULL when nothing is kept; valid until the next
 *	call on @c
 *
 * Finds the entry, or opens the attribute with kevent_attr_open() for a
 * new one, which replaces the entry that used its slot. When the process
 * has no descriptor left (EMFILE, ENFILE), every cached descriptor is
 * closed and the open tried once more. An open that failed with an error
 * other than a missing file or a want of resources is kept, unopened, for
 * ATTR_CACHE_FAILED_MS: until then its lookups give its error at once.
 *
 * Return: 0, or the negative errno of the open, with the entry set when it
 * is kept (its subsystem can be asked for; it cannot be read).
 */
int attr_cache_get(struct attr_cache *c, const char *path, const char *attr,
		   struct attr_cache_entry **ret_entry);

/*
 * The subsystem of the entry's device, looked up the first time only: a
 * device keeps its subsystem while the descriptor reads it. NULL when it
 * has none.
 */
const char *attr_cache_subsystem(struct attr_cache_entry *e);

/*
 * attr_cache_read() - the current value of the entry's attribute
 *
 * One pread() from offset 0 (kevent_attr_read_fd()).
 *
 * Return: 0 with *@ret_value to free(); -ESTALE when the descriptor, opened
 * before this lookup, reads an attribute that was removed since: the entry
 * is dropped, and attr_cache_get() opens whatever is at the path now, a
 * new device perhaps; or the negative errno of the read. A read that fails
 * with -ENODEV drops the entry too. A dropped entry closes its descriptor
 * only: its subsystem stays valid until the next attr_cache_get().
 */
int attr_cache_read(struct attr_cache_entry *e, char **ret_value,
		    size_t *ret_len);

#endif /* KEVENT_WATCH_ATTR_CACHE_H */
