// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-watch: the attributes it reads, kept open, so that an event's
 * value costs one pread() rather than an open, a read and a close, and the
 * subsystem of its device is looked up once, not for every event.
 *
 * A descriptor of a sysfs attribute reads the attribute it was opened on
 * for as long as that exists; once it is removed (its device went away),
 * kernfs fails every read through it with ENODEV. So an entry, with the
 * subsystem it holds, is trusted while its descriptor reads, and dropped
 * when it does not: the path is then opened afresh, and a device created
 * again at the same path is read, and its subsystem looked up, anew.
 *
 * An open that failed is kept too, for ATTR_CACHE_FAILED_MS, with its
 * error and the subsystem: a storm of events of an attribute the user may
 * not read (EACCES) costs one open a while, not one an event. A file that
 * is not there (ENOENT, ENODEV) is not kept: a device added again may have
 * it at the next event.
 *
 * The table is direct-mapped: (path, attribute) hashes to one slot, and a
 * newcomer closes the entry it finds there. Lookups cost one hash and one
 * string comparison, and the descriptors held stay bounded.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <kevent/kevent.h>

#include "attr_cache.h"

struct attr_cache_entry {
	char *path; /* NULL: the slot is free */
	char *attr;
	int fd; /* -1 with a path: the open or a read failed */
	int err; /* the open's, given until @expires_ms; 0: a read's ENODEV */
	uint64_t expires_ms;
	bool fresh; /* opened by the current lookup */
	bool subsystem_known;
	char *subsystem; /* NULL: none */
};

struct attr_cache {
	size_t mask; /* slots - 1, slots a power of two */
	struct attr_cache_entry slots[];
};

/* FNV-1a of @path, a NUL and @attr */
static uint32_t entry_hash(const char *path, const char *attr)
{
	uint32_t h = 2166136261u;
	const unsigned char *p;

	for (p = (const unsigned char *)path; *p; p++)
		h = (h ^ *p) * 16777619u;
	h *= 16777619u;
	for (p = (const unsigned char *)attr; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h;
}

static void entry_drop(struct attr_cache_entry *e)
{
	if (e->fd >= 0)
		close(e->fd);
	free(e->path);
	free(e->attr);
	free(e->subsystem);
	*e = (struct attr_cache_entry){ .fd = -1 };
}

static void cache_clear(struct attr_cache *c)
{
	size_t i;

	for (i = 0; i <= c->mask; i++)
		entry_drop(&c->slots[i]);
}

/* ATTR_CACHE_MAX slots, or fewer: at most a quarter of RLIMIT_NOFILE */
static size_t cache_slots(void)
{
	struct rlimit rl;
	size_t n = ATTR_CACHE_MAX;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		while (n > 1 && n > rl.rlim_cur / 4)
			n /= 2;
	return n;
}

struct attr_cache *attr_cache_new(void)
{
	size_t i, n = cache_slots();
	struct attr_cache *c;

	c = malloc(sizeof(*c) + n * sizeof(c->slots[0]));
	if (!c)
		return NULL;
	c->mask = n - 1;
	for (i = 0; i < n; i++)
		c->slots[i] = (struct attr_cache_entry){ .fd = -1 };
	return c;
}

void attr_cache_free(struct attr_cache *c)
{
	if (!c)
		return;
	cache_clear(c);
	free(c);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Is the failed open's error @err one to keep? Not a file that is not
 * there, nor a want of descriptors or memory: the next event may not meet
 * them.
 */
static bool open_error_kept(int err)
{
	switch (err) {
	case -ENOENT:
	case -ENODEV:
	case -ENOTDIR:
	case -EMFILE:
	case -ENFILE:
	case -ENOMEM:
	case -EINTR:
	case -EAGAIN:
		return false;
	}
	return true;
}

int attr_cache_get(struct attr_cache *c, const char *path, const char *attr,
		   struct attr_cache_entry **ret_entry)
{
	struct attr_cache_entry *e;
	char *p, *a;
	int fd;

	*ret_entry = NULL;
	e = &c->slots[entry_hash(path, attr) & c->mask];
	if (e->path && strcmp(e->path, path) == 0 &&
	    strcmp(e->attr, attr) == 0) {
		if (e->fd >= 0) {
			e->fresh = false;
			*ret_entry = e;
			return 0;
		}
		if (e->err && now_ms() < e->expires_ms) {
			*ret_entry = e;
			return e->err;
		}
	}

	fd = kevent_attr_open(path, attr);
	if (fd == -EMFILE || fd == -ENFILE) {
		cache_clear(c);
		fd = kevent_attr_open(path, attr);
	}
	if (fd < 0 && !open_error_kept(fd))
		return fd;
	p = strdup(path);
	a = strdup(attr);
	if (!p || !a) {
		free(p);
		free(a);
		if (fd >= 0)
			close(fd);
		return fd < 0 ? fd : -ENOMEM;
	}
	entry_drop(e);
	*e = (struct attr_cache_entry){
		.path = p,
		.attr = a,
		.fd = fd,
		.fresh = true,
	};
	if (fd < 0) {
		e->fd = -1;
		e->err = fd;
		e->expires_ms = now_ms() + ATTR_CACHE_FAILED_MS;
	}
	*ret_entry = e;
	return fd < 0 ? fd : 0;
}

const char *attr_cache_subsystem(struct attr_cache_entry *e)
{
	int r;

	if (!e->subsystem_known) {
		r = kevent_device_get_subsystem(e->path, &e->subsystem);
		if (r < 0)
			e->subsystem = NULL;
		/* Not for good: memory may be there next time. */
		e->subsystem_known = r != -ENOMEM;
	}
	return e->subsystem;
}

int attr_cache_read(struct attr_cache_entry *e, char **ret_value,
		    size_t *ret_len)
{
	bool stale;
	int r;

	r = kevent_attr_read_fd(e->fd, ret_value, ret_len);
	if (r == -ENODEV) {
		/*
		 * Only the descriptor goes: the caller may still hold the
		 * subsystem, which stays until the next lookup of this slot
		 * opens the path afresh.
		 */
		stale = !e->fresh;
		close(e->fd);
		e->fd = -1;
		return stale ? -ESTALE : -ENODEV;
	}
	return r;
}
