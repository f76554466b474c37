// SPDX-License-Identifier: GPL-2.0
/*
 * kevent: the replay ring, the last events sent, for listeners that start
 * late (KEVENT_CMD_GET_REPLAY).
 *
 * Every event is recorded, whether or not anybody listens, in the order of
 * its sequence number. The ring holds at most @replay events; the oldest
 * is dropped to make room. An entry has a fixed size and holds a reference
 * to its event's path, which the event's source or sender allocated: the
 * ring records an event without allocating, under a spinlock, and its
 * memory is bounded by @replay entries and paths of at most
 * KEVENT_PATH_MAX bytes.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "kevent_internal.h"

/* Largest ring the module parameter allows */
#define KEVENT_REPLAY_MAX	65536

static int kevent_replay_param_set(const char *val,
				   const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 0, KEVENT_REPLAY_MAX);
}

static const struct kernel_param_ops kevent_replay_param_ops = {
	.set	= kevent_replay_param_set,
	.get	= param_get_uint,
};

static unsigned int replay = 256;
module_param_cb(replay, &kevent_replay_param_ops, &replay, 0444);
MODULE_PARM_DESC(replay,
		 "Events kept for late listeners (0 to 65536, 0 disables, default 256)");

/*
 * Protects the ring. Entries are added in order of their sequence numbers
 * (kevent_emit() serialises them), so the ring is sorted from @head on.
 * Taken in process context only, inside kevent_emit()'s lock.
 */
static DEFINE_SPINLOCK(kevent_replay_lock);
static struct kevent_record *kevent_replay_ring;
static unsigned int kevent_replay_size;
static unsigned int kevent_replay_head;	/* the oldest entry */
static unsigned int kevent_replay_count;
/* Sequence number of the newest event dropped to make room, 0 for none */
static u64 kevent_replay_evicted;

/* The entry at position @pos, counted from the start of the array, mod size */
static struct kevent_record *kevent_replay_entry(unsigned int pos)
{
	return &kevent_replay_ring[pos % kevent_replay_size];
}

/**
 * kevent_replay_init - allocate the ring
 *
 * Context: Process context, module init.
 * Return: 0, or -ENOMEM.
 */
int __init kevent_replay_init(void)
{
	kevent_replay_size = replay;
	if (!kevent_replay_size)
		return 0;

	kevent_replay_ring = kvcalloc(kevent_replay_size,
				      sizeof(*kevent_replay_ring), GFP_KERNEL);
	if (!kevent_replay_ring)
		return -ENOMEM;

	return 0;
}

/**
 * kevent_replay_exit - free the ring and the paths it holds
 *
 * Context: Process context, module exit, after the family is unregistered.
 */
void kevent_replay_exit(void)
{
	unsigned int i;

	for (i = 0; i < kevent_replay_size; i++)
		kevent_path_put(kevent_replay_ring[i].path);
	kvfree(kevent_replay_ring);
	kevent_replay_ring = NULL;
	kevent_replay_size = 0;
	kevent_replay_count = 0;
	kevent_replay_evicted = 0;
}

/**
 * kevent_replay_record - remember an event
 * @rec: the event; its sequence number is greater than that of any event
 *	recorded before. The entry takes a reference to its path.
 *
 * Allocates nothing and does not sleep: kevent_emit() records its events
 * under its spinlock.
 *
 * Context: Process context, any lock held but a raw spinlock.
 * Return: the path of the entry dropped to make room, or NULL; the caller
 * puts it, outside its locks.
 */
struct kevent_path *kevent_replay_record(const struct kevent_record *rec)
{
	struct kevent_record *entry;
	struct kevent_path *dropped;

	if (!kevent_replay_size)
		return NULL;

	spin_lock(&kevent_replay_lock);

	if (kevent_replay_count < kevent_replay_size) {
		entry = kevent_replay_entry(kevent_replay_head +
					    kevent_replay_count);
		kevent_replay_count++;
	} else {
		/* Full: the oldest entry makes room */
		entry = kevent_replay_entry(kevent_replay_head);
		kevent_replay_evicted = entry->seq;
		kevent_replay_head = (kevent_replay_head + 1) %
				     kevent_replay_size;
	}

	dropped = entry->path;
	*entry = *rec;
	entry->path = kevent_path_get(rec->path);

	spin_unlock(&kevent_replay_lock);

	return dropped;
}

/**
 * kevent_replay_memory - memory the ring takes
 * @ret_count: the number of events it holds
 *
 * Context: Process context.
 * Return: the bytes allocated for the ring, and for the paths it holds
 * references to (a path several entries share counts for each).
 */
size_t kevent_replay_memory(unsigned int *ret_count)
{
	size_t bytes = 0;
	unsigned int i;

	spin_lock(&kevent_replay_lock);
	if (kevent_replay_ring)
		bytes = kevent_replay_size * sizeof(*kevent_replay_ring);
	for (i = 0; i < kevent_replay_count; i++)
		bytes += ksize(kevent_replay_entry(kevent_replay_head + i)->path);
	*ret_count = kevent_replay_count;
	spin_unlock(&kevent_replay_lock);

	return bytes;
}

/**
 * kevent_replay_foreach - visit the events held, oldest first
 * @after: visit only the events with a sequence number greater than this
 * @fn: called for each event under the ring's lock; a non-zero return stops
 * @data: passed to @fn
 * @ret_evicted: set, before @fn is first called, to whether events with a
 *	sequence number greater than @after were dropped to make room
 *
 * Context: Process context; @fn must not sleep or record events.
 * Return: what @fn returned last, 0 if it was not called.
 */
int kevent_replay_foreach(u64 after,
			  int (*fn)(const struct kevent_record *rec,
				    void *data),
			  void *data, bool *ret_evicted)
{
	unsigned int lo = 0, hi, mid;
	int ret = 0;

	spin_lock(&kevent_replay_lock);
	*ret_evicted = kevent_replay_evicted > after;

	/* The ring is sorted: find the first event newer than @after */
	hi = kevent_replay_count;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (kevent_replay_entry(kevent_replay_head + mid)->seq <= after)
			lo = mid + 1;
		else
			hi = mid;
	}

	for (; lo < kevent_replay_count; lo++) {
		ret = fn(kevent_replay_entry(kevent_replay_head + lo), data);
		if (ret)
			break;
	}

	spin_unlock(&kevent_replay_lock);

	return ret;
}
