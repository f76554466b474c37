// SPDX-License-Identifier: GPL-2.0
/*
 * kevent: the generic netlink family, its event messages and requests.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/capability.h>
#include <linux/error-injection.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/ktime.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/sock.h>

#include "kevent_internal.h"
#include "kevent_nl_gen.h"

/* The multicast group of a class is the class's own number */
#define KEVENT_ASSERT_GROUP(name) \
	static_assert((int)KEVENT_NLGRP_##name == (int)KEVENT_CLASS_##name)
KEVENT_ASSERT_GROUP(GENERAL);
KEVENT_ASSERT_GROUP(STORAGE);
KEVENT_ASSERT_GROUP(POWER);
KEVENT_ASSERT_GROUP(FS);
KEVENT_ASSERT_GROUP(HOTPLUG);
KEVENT_ASSERT_GROUP(NET);
static_assert((int)KEVENT_NLGRP_NET == (int)KEVENT_CLASS_MAX);

/*
 * Serialises events, so that they leave in the order of their numbers, and
 * protects the numbers: one counter for all events, and one per class, which
 * lets a listener of some classes see that it missed events of those. Held
 * only to number, record and hand over an event whose message is built
 * already: nothing under it allocates but the listeners' copies
 * (GFP_NOWAIT), or sleeps.
 */
static DEFINE_SPINLOCK(kevent_emit_lock);
static u64 kevent_seq;
static u64 kevent_class_seq[__KEVENT_CLASS_MAX];

/**
 * kevent_event_size - room an event message's attributes take
 * @path: kobject path below /sys
 * @name: attribute name; NULL for a name of the registry: room for the
 *	longest, which spares formatting a template's name twice
 *
 * Return: the payload size to ask genlmsg_new() for.
 */
size_t kevent_event_size(const char *path, const char *name)
{
	return nla_total_size_64bit(sizeof(u64)) +	/* SEQ */
	       nla_total_size_64bit(sizeof(u64)) +	/* CLASS_SEQ */
	       nla_total_size_64bit(sizeof(u64)) +	/* TIMESTAMP */
	       nla_total_size(sizeof(u32)) +		/* CLASS */
	       nla_total_size(strlen(path) + 1) +	/* PATH */
	       nla_total_size(name ? strlen(name) + 1 :	/* ATTR_NAME */
			      KEVENT_ATTR_NAME_MAX) +
	       nla_total_size(sizeof(u32)) +		/* ATTR_ID */
	       nla_total_size(sizeof(u32));		/* COALESCED */
}
EXPORT_SYMBOL_IF_KUNIT(kevent_event_size);

/* @name: the attribute's name if the registry does not list it, else NULL */
static int kevent_put_attr(struct sk_buff *msg, const char *path,
			   const char *name, u32 attr_id, u32 channel,
			   enum kevent_class class)
{
	char buf[KEVENT_ATTR_NAME_MAX];

	if (!name)
		name = kevent_registry_name(attr_id, channel, buf);

	if (nla_put_u32(msg, KEVENT_A_CLASS, class) ||
	    nla_put_string(msg, KEVENT_A_PATH, path) ||
	    nla_put_string(msg, KEVENT_A_ATTR_NAME, name) ||
	    nla_put_u32(msg, KEVENT_A_ATTR_ID, attr_id))
		return -EMSGSIZE;

	return 0;
}

/**
 * kevent_put_event - add the attributes of an event message
 * @msg: the message, its generic netlink header put
 * @rec: the event
 *
 * The same attributes go out in the multicast and in the replay dump.
 *
 * Return: 0, or -EMSGSIZE if @msg has no room for them.
 */
int kevent_put_event(struct sk_buff *msg, const struct kevent_record *rec)
{
	if (nla_put_u64_64bit(msg, KEVENT_A_SEQ, rec->seq, KEVENT_A_PAD) ||
	    nla_put_u64_64bit(msg, KEVENT_A_CLASS_SEQ, rec->class_seq,
			      KEVENT_A_PAD) ||
	    nla_put_u64_64bit(msg, KEVENT_A_TIMESTAMP, rec->timestamp,
			      KEVENT_A_PAD) ||
	    kevent_put_attr(msg, rec->path->path, rec->path->name,
			    rec->attr_id, rec->channel, rec->class) ||
	    nla_put_u32(msg, KEVENT_A_COALESCED, rec->coalesced))
		return -EMSGSIZE;

	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kevent_put_event);

/*
 * A message for an event of @path. Fault injection (fail_function) can make
 * it fail, as the tests do: the event then counts as failed, and its
 * sequence numbers are a gap the listeners see.
 */
static noinline struct sk_buff *
kevent_event_msg_new(const struct kevent_path *path)
{
	return genlmsg_new(kevent_event_size(path->path, path->name),
			   GFP_KERNEL);
}

ALLOW_ERROR_INJECTION(kevent_event_msg_new, NULL);

/* Fill @msg with @rec's event; false if it has no room */
static bool kevent_event_msg_fill(struct sk_buff *msg,
				  const struct kevent_record *rec)
{
	void *hdr;

	hdr = genlmsg_put(msg, 0, 0, &kevent_nl_family, 0, KEVENT_CMD_EVENT);
	if (!hdr)
		return false;

	if (kevent_put_event(msg, rec)) {
		genlmsg_cancel(msg, hdr);
		return false;
	}

	genlmsg_end(msg, hdr);
	return true;
}

/**
 * kevent_emit - send an event to the multicast group of its class
 * @path: kobject path below /sys, and the attribute's name if the registry
 *	does not list it; the replay ring takes a reference
 * @attr_id: registry id of the attribute, %KEVENT_ATTR_ID_NONE with a name
 *	in @path
 * @channel: channel number of a name of a template of the registry, else
 *	%KEVENT_NO_CHANNEL
 * @class: class of the event, the multicast group it is sent to
 * @coalesced: number of notifications folded into this event
 * @restricted: the attribute is not readable by others, see
 *	kevent_attr_restricted()
 *
 * Every event takes a sequence number, and one in its class, and is
 * recorded in the replay ring, even when nobody listens and the message is
 * not built; it then counts as sent. An event that cannot be sent still uses
 * its numbers, so that listeners see a gap.
 *
 * An event counts as failed when its message cannot be built or copied for
 * its listeners. A listener whose receive buffer is full misses it and
 * learns so itself (ENOBUFS); that is its own overrun, not a failure of the
 * event, even when it asked for broadcast errors.
 *
 * The message is allocated first, with no lock held. Numbering, recording
 * and handing the message to the listeners happen under a spinlock, without
 * allocating but the listeners' copies (GFP_NOWAIT) and without sleeping:
 * an emitter in reclaim, or a listener that does not read, holds up no
 * other emitter.
 *
 * Context: Process context.
 * Return: the event's timestamp, CLOCK_BOOTTIME nanoseconds.
 */
u64 kevent_emit(struct kevent_path *path, u32 attr_id, u32 channel,
		enum kevent_class class, u32 coalesced, bool restricted)
{
	struct kevent_record rec = {
		.path = path,
		.attr_id = attr_id,
		.channel = channel,
		.class = class,
		.coalesced = coalesced,
		.restricted = restricted,
	};
	struct kevent_path *dropped;
	struct sk_buff *msg = NULL;
	bool listened;
	int ret;

	might_sleep();

	/*
	 * A listener that joins between here and the broadcast misses this
	 * event, as one that joined just after it would.
	 */
	listened = genl_has_listeners(&kevent_nl_family, &init_net, class);
	if (listened)
		msg = kevent_event_msg_new(path);

	spin_lock(&kevent_emit_lock);

	rec.seq = ++kevent_seq;
	rec.class_seq = ++kevent_class_seq[class];
	rec.timestamp = ktime_get_boottime_ns();
	dropped = kevent_replay_record(&rec);

	if (!listened) {
		atomic64_inc(&kevent_stat_sent);
	} else if (msg && kevent_event_msg_fill(msg, &rec)) {
		/*
		 * -ESRCH: the listeners left meanwhile. -ENOBUFS: some
		 * listener missed the event, a full one or, with GFP_NOWAIT,
		 * one the copy failed for; the others have it, and
		 * netlink_overrun() told each that missed it.
		 */
		ret = genlmsg_multicast(&kevent_nl_family, msg, 0, class,
					GFP_NOWAIT);
		msg = NULL;
		if (ret && ret != -ESRCH && ret != -ENOBUFS)
			atomic64_inc(&kevent_stat_failed);
		else
			atomic64_inc(&kevent_stat_sent);
	} else {
		atomic64_inc(&kevent_stat_failed);
	}

	spin_unlock(&kevent_emit_lock);

	nlmsg_free(msg);
	kevent_path_put(dropped);

	return rec.timestamp;
}

/**
 * kevent_emit_lost - account for events that could not be taken in
 * @count: how many
 *
 * The sequence number, and that of every class, skip @count: every
 * listener sees a gap at its next event, and knows it missed that many at
 * most (an overrun). Their classes are not known: each class skips them.
 *
 * Context: Process context.
 */
void kevent_emit_lost(unsigned int count)
{
	int class;

	spin_lock(&kevent_emit_lock);
	kevent_seq += count;
	for (class = 0; class < __KEVENT_CLASS_MAX; class++)
		kevent_class_seq[class] += count;
	spin_unlock(&kevent_emit_lock);
	atomic64_add(count, &kevent_stat_failed);
}

/*
 * The family answers requests from the initial network namespace only:
 * its events go there alone, and the paths it names are those of that
 * namespace's sysfs.
 */
static int kevent_nl_check_net(struct sk_buff *skb,
			       struct netlink_ext_ack *extack)
{
	if (net_eq(sock_net(skb->sk), &init_net))
		return 0;

	NL_SET_ERR_MSG(extack,
		       "kevent answers in the initial network namespace only");
	return -EOPNOTSUPP;
}

int kevent_nl_get_sources_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	struct nlattr *filter = kevent_dumpit_attrs(info)[KEVENT_A_CLASS];
	bool capable = netlink_capable(cb->skb, CAP_SYS_ADMIN);
	unsigned long last = cb->args[0];
	struct kevent_source *src;
	bool full = false;
	void *hdr;
	int ret;

	ret = kevent_nl_check_net(cb->skb, cb->extack);
	if (ret)
		return ret;

	mutex_lock(&kevent_sources_lock);
	cb->seq = kevent_sources_gen;

	list_for_each_entry(src, &kevent_sources, node) {
		if (src->id <= last)
			continue;

		if ((filter && nla_get_u32(filter) != src->class) ||
		    (!capable && kevent_attr_restricted(src->kn))) {
			last = src->id;
			continue;
		}

		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &kevent_nl_family,
				  NLM_F_MULTI, KEVENT_CMD_GET_SOURCES);
		if (!hdr) {
			full = true;
			break;
		}
		genl_dump_check_consistent(cb, hdr);

		if (kevent_put_attr(skb, src->path->path, NULL, src->attr_id,
				    src->channel,
				    src->class)) {
			genlmsg_cancel(skb, hdr);
			full = true;
			break;
		}
		genlmsg_end(skb, hdr);
		last = src->id;
	}

	mutex_unlock(&kevent_sources_lock);

	cb->args[0] = last;

	/* A source too large for an empty message would never be sent */
	if (full && !skb->len)
		return -EMSGSIZE;

	return skb->len;
}

/**
 * struct kevent_replay_dump - state of a replay dump, in &netlink_callback.ctx
 * @last: sequence number of the last event sent, at first the request's
 */
struct kevent_replay_dump {
	u64 last;
};

static_assert(sizeof(struct kevent_replay_dump) <=
	      sizeof_field(struct netlink_callback, ctx));

/**
 * struct kevent_replay_fill - one part of a replay dump
 * @skb: the message being filled
 * @cb: the dump
 * @capable: the listener may see the events of restricted attributes
 * @evicted: events newer than the last one sent have left the ring; set
 *	before the first event is filled in
 * @resumed: the part follows another, and the loss is not looked at yet
 */
struct kevent_replay_fill {
	struct sk_buff *skb;
	struct netlink_callback *cb;
	bool capable;
	bool evicted;
	bool resumed;
};

/*
 * Events newer than the last one sent that left the ring since the part
 * before are lost to the dump: it is marked interrupted (NLM_F_DUMP_INTR)
 * from the first message of this part on. A gap in the ring that was there
 * already (events lost before they were numbered) is no loss of the dump.
 */
static void kevent_replay_check_lost(struct kevent_replay_fill *fill)
{
	if (fill->resumed && fill->evicted)
		fill->cb->seq++;
	fill->resumed = false;
}

int kevent_nl_get_replay_start(struct netlink_callback *cb)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	struct kevent_replay_dump *ctx = (struct kevent_replay_dump *)cb->ctx;
	struct nlattr *after = kevent_dumpit_attrs(info)[KEVENT_A_SEQ];

	ctx->last = after ? nla_get_u64(after) : 0;
	/* Changed when events are lost within the dump: NLM_F_DUMP_INTR */
	cb->seq = 1;

	return 0;
}

static int kevent_replay_fill_one(const struct kevent_record *entry,
				  void *data)
{
	struct kevent_replay_fill *fill = data;
	struct netlink_callback *cb = fill->cb;
	struct kevent_replay_dump *ctx = (struct kevent_replay_dump *)cb->ctx;
	void *hdr;

	kevent_replay_check_lost(fill);

	if (entry->restricted && !fill->capable) {
		ctx->last = entry->seq;
		return 0;
	}
	hdr = genlmsg_put(fill->skb, NETLINK_CB(cb->skb).portid,
			  cb->nlh->nlmsg_seq, &kevent_nl_family, NLM_F_MULTI,
			  KEVENT_CMD_GET_REPLAY);
	if (!hdr)
		return -EMSGSIZE;
	genl_dump_check_consistent(cb, hdr);

	if (kevent_put_event(fill->skb, entry)) {
		genlmsg_cancel(fill->skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(fill->skb, hdr);
	ctx->last = entry->seq;

	return 0;
}

int kevent_nl_get_replay_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	struct kevent_replay_dump *ctx = (struct kevent_replay_dump *)cb->ctx;
	struct kevent_replay_fill fill = {
		.skb = skb,
		.cb = cb,
		.capable = netlink_capable(cb->skb, CAP_SYS_ADMIN),
		/* A part after the first one follows a full message */
		.resumed = cb->prev_seq != 0,
	};
	int ret;

	/* Here, not in the start: 6.1 loses the message of a start's error */
	ret = kevent_nl_check_net(cb->skb, cb->extack);
	if (ret)
		return ret;

	ret = kevent_replay_foreach(ctx->last, kevent_replay_fill_one, &fill,
				    &fill.evicted);
	/* No event left to send: the loss marks the end of the dump */
	kevent_replay_check_lost(&fill);
	/* An event too large for an empty message would never be sent */
	if (ret && !skb->len)
		return ret;

	return skb->len;
}

/* One entry of the registry in a message of the get-attributes dump */
static int kevent_put_registry_entry(struct sk_buff *skb,
				     struct netlink_callback *cb, u32 attr_id)
{
	enum kevent_class class;
	const char *name, *unit;
	void *hdr;

	if (kevent_registry_entry(attr_id, &name, &unit, &class))
		return -ENOENT;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &kevent_nl_family, NLM_F_MULTI,
			  KEVENT_CMD_GET_ATTRIBUTES);
	if (!hdr)
		return -EMSGSIZE;

	if (nla_put_string(skb, KEVENT_A_ATTR_NAME, name) ||
	    nla_put_u32(skb, KEVENT_A_ATTR_ID, attr_id) ||
	    nla_put_u32(skb, KEVENT_A_CLASS, class) ||
	    (unit && nla_put_string(skb, KEVENT_A_UNIT, unit))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}

	genlmsg_end(skb, hdr);
	return 0;
}

int kevent_nl_get_attributes_dumpit(struct sk_buff *skb,
				    struct netlink_callback *cb)
{
	u32 attr_id = cb->args[0];
	int ret;

	ret = kevent_nl_check_net(cb->skb, cb->extack);
	if (ret)
		return ret;

	/*
	 * The operation has no policy, so the core parses nothing of the
	 * request: any byte after the header is an attribute it does not take.
	 */
	if (nlmsg_len(cb->nlh) > GENL_HDRLEN) {
		NL_SET_ERR_MSG(cb->extack, "GET_ATTRIBUTES takes no attribute");
		return -EINVAL;
	}

	/* The registry is built in: it cannot change during the dump */
	while (!(ret = kevent_put_registry_entry(skb, cb, attr_id)))
		attr_id++;
	cb->args[0] = attr_id;

	/* An entry too large for an empty message would never be sent */
	if (ret == -EMSGSIZE && !skb->len)
		return ret;

	return skb->len;
}

int kevent_nl_get_stats_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	unsigned int sources;
	void *hdr;
	int ret;

	ret = kevent_nl_check_net(skb, info->extack);
	if (ret)
		return ret;

	/*
	 * The operation has no policy, so the core parses nothing of the
	 * request: any byte after the header is an attribute it does not take.
	 */
	if (genlmsg_len(info->genlhdr)) {
		NL_SET_ERR_MSG(info->extack, "GET_STATS takes no attribute");
		return -EINVAL;
	}

	mutex_lock(&kevent_sources_lock);
	sources = kevent_sources_count;
	mutex_unlock(&kevent_sources_lock);

	msg = genlmsg_new(4 * nla_total_size_64bit(sizeof(u64)) +
			  nla_total_size(sizeof(u32)), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	hdr = genlmsg_put_reply(msg, info, &kevent_nl_family, 0,
				KEVENT_CMD_GET_STATS);
	if (!hdr)
		goto out_free_msg;

	if (nla_put_u64_64bit(msg, KEVENT_A_STAT_SENT,
			      atomic64_read(&kevent_stat_sent), KEVENT_A_PAD) ||
	    nla_put_u64_64bit(msg, KEVENT_A_STAT_COALESCED,
			      atomic64_read(&kevent_stat_coalesced),
			      KEVENT_A_PAD) ||
	    nla_put_u64_64bit(msg, KEVENT_A_STAT_FAILED,
			      atomic64_read(&kevent_stat_failed),
			      KEVENT_A_PAD) ||
	    /* Part of the ABI: the replay ring records every event now */
	    nla_put_u64_64bit(msg, KEVENT_A_STAT_UNRECORDED, 0, KEVENT_A_PAD) ||
	    nla_put_u32(msg, KEVENT_A_STAT_SOURCES, sources))
		goto out_cancel_msg;

	genlmsg_end(msg, hdr);

	return genlmsg_reply(msg, info);

out_cancel_msg:
	genlmsg_cancel(msg, hdr);
out_free_msg:
	nlmsg_free(msg);

	return -EMSGSIZE;
}

/*
 * The largest event message: a path of KEVENT_PATH_MAX - 1 bytes and an
 * attribute name of KEVENT_ATTR_NAME_MAX - 1, in one netlink message.
 */
#define KEVENT_EVENT_MSG_MAX						\
	nlmsg_total_size(GENL_HDRLEN +					\
			 3 * nla_total_size_64bit(sizeof(u64)) +	\
			 4 * nla_total_size(sizeof(u32)) +		\
			 nla_total_size(KEVENT_PATH_MAX) +		\
			 nla_total_size(KEVENT_ATTR_NAME_MAX))

/* Whether the family hears of its listeners (kevent_kernfs_bind()) */
bool kevent_nl_hears_binds;

/**
 * kevent_nl_has_listeners - whether a socket listens to a group
 *
 * Context: Any context.
 */
bool kevent_nl_has_listeners(void)
{
	int group;

	for (group = 0; group < kevent_nl_family.n_mcgrps; group++)
		if (genl_has_listeners(&kevent_nl_family, &init_net, group))
			return true;
	return false;
}

#ifdef KEVENT_HAVE_GENL_BIND
static int kevent_nl_bind(int group)
{
	kevent_kernfs_bind();
	return 0;
}

static void kevent_nl_unbind(int group)
{
	kevent_kernfs_unbind();
}
#endif /* KEVENT_HAVE_GENL_BIND */

int __init kevent_netlink_init(void)
{
	/*
	 * Every event fits in a dump part of the smallest size netlink
	 * allocates, so that a dump never stops at an entry too large for it,
	 * and in a receive buffer of one page.
	 */
	BUILD_BUG_ON(KEVENT_EVENT_MSG_MAX > NLMSG_GOODSIZE);

#ifdef KEVENT_HAVE_GENL_BIND
	/*
	 * The hook on kernfs_notify() is armed while a socket listens. The
	 * family is generated from its spec, which has no word for these:
	 * they are set here, before it is registered (it is __ro_after_init).
	 */
	kevent_nl_family.bind = kevent_nl_bind;
	kevent_nl_family.unbind = kevent_nl_unbind;
	kevent_nl_hears_binds = true;
#endif /* KEVENT_HAVE_GENL_BIND */

	return genl_register_family(&kevent_nl_family);
}

void __exit kevent_netlink_exit(void)
{
	genl_unregister_family(&kevent_nl_family);
}
