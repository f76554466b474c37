// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The stock sources' state: what the kernel's uevents and rtnetlink link
 * messages say, turned into attribute events.
 *
 * Power supplies and network devices send their whole state in each
 * message, so the last values seen are kept, per device, and a message
 * becomes one event per attribute whose value changed. hwmon alarms, CPU
 * hotplug and block device resizes name what changed themselves. No socket
 * here: the monitor feeds the messages, and the unit tests synthetic ones.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "kevent-private.h"

/* One property of a power supply whose name is a registered attribute. */
struct psy_prop {
	char *attr; /* lower case: "capacity" */
	char *value;
};

struct psy_dev {
	char *path;
	struct psy_prop *props;
	size_t n_props;
	unsigned int generation;
};

#define LINK_ADDR_MAX (3 * 32)

struct link_dev {
	int ifindex;
	char name[IFNAMSIZ];
	char *path;
	const char *operstate; /* NULL: not sent */
	int carrier; /* -1: not sent */
	int64_t mtu; /* -1: not sent */
	char address[LINK_ADDR_MAX]; /* "": not sent */
	unsigned int generation;
};

struct kevent_stock_state {
	struct psy_dev *psys;
	size_t n_psys;
	struct link_dev *links;
	size_t n_links;
	unsigned int generation; /* of the last resynchronisation */
	struct kevent_event **queue;
	size_t q_head, q_len, q_size;
	int (*net_path)(const char *name, char **ret_path);
};

/* The words of /sys/class/net/NAME/operstate, by IF_OPER_* value */
static const char *const operstates[] = {
	[IF_OPER_UNKNOWN] = "unknown",
	[IF_OPER_NOTPRESENT] = "notpresent",
	[IF_OPER_DOWN] = "down",
	[IF_OPER_LOWERLAYERDOWN] = "lowerlayerdown",
	[IF_OPER_TESTING] = "testing",
	[IF_OPER_DORMANT] = "dormant",
	[IF_OPER_UP] = "up",
};

const char *kevent_operstate_name(unsigned int operstate)
{
	if (operstate >= sizeof(operstates) / sizeof(operstates[0]))
		return "unknown";
	return operstates[operstate];
}

/* The device's path below /sys: /sys/class/net/NAME resolved. */
static int net_path_sysfs(const char *name, char **ret_path)
{
	char link[PATH_MAX], *real;

	snprintf(link, sizeof(link), "/sys/class/net/%s", name);
	real = realpath(link, NULL);
	if (!real)
		return -errno;
	if (strncmp(real, "/sys/", 5) != 0) {
		free(real);
		return -EXDEV;
	}
	*ret_path = strdup(real + 4);
	free(real);
	return *ret_path ? 0 : -ENOMEM;
}

struct kevent_stock_state *kevent_stock_state_new(void)
{
	struct kevent_stock_state *st = calloc(1, sizeof(*st));

	if (st)
		st->net_path = net_path_sysfs;
	return st;
}

void kevent_stock_state_set_net_path(struct kevent_stock_state *st,
				     int (*net_path)(const char *name,
						     char **ret_path))
{
	st->net_path = net_path ? net_path : net_path_sysfs;
}

static void psy_dev_clear(struct psy_dev *d)
{
	size_t i;

	for (i = 0; i < d->n_props; i++) {
		free(d->props[i].attr);
		free(d->props[i].value);
	}
	free(d->props);
	free(d->path);
}

struct kevent_stock_state *
kevent_stock_state_free(struct kevent_stock_state *st)
{
	size_t i;

	if (!st)
		return NULL;
	for (i = 0; i < st->n_psys; i++)
		psy_dev_clear(&st->psys[i]);
	free(st->psys);
	for (i = 0; i < st->n_links; i++)
		free(st->links[i].path);
	free(st->links);
	while (st->q_len)
		kevent_event_unref(kevent_stock_state_pop(st));
	free(st->queue);
	free(st);
	return NULL;
}

size_t kevent_stock_state_pending(const struct kevent_stock_state *st)
{
	return st->q_len;
}

struct kevent_event *kevent_stock_state_pop(struct kevent_stock_state *st)
{
	struct kevent_event *ev;

	if (!st->q_len)
		return NULL;
	ev = st->queue[st->q_head];
	st->q_head = (st->q_head + 1) % st->q_size;
	st->q_len--;
	return ev;
}

static int queue_push(struct kevent_stock_state *st, struct kevent_event *ev)
{
	struct kevent_event **q;
	size_t size, i;

	if (st->q_len == st->q_size) {
		size = st->q_size ? 2 * st->q_size : 16;
		q = malloc(size * sizeof(*q));
		if (!q)
			return -ENOMEM;
		for (i = 0; i < st->q_len; i++)
			q[i] = st->queue[(st->q_head + i) % st->q_size];
		free(st->queue);
		st->queue = q;
		st->q_size = size;
		st->q_head = 0;
	}
	st->queue[(st->q_head + st->q_len) % st->q_size] = ev;
	st->q_len++;
	return 0;
}

/* Queue an event; a path or name that fails validation is no event. */
static int emit(struct kevent_stock_state *st, enum kevent_event_source source,
		uint64_t seq, const char *path, const char *attr,
		enum kevent_class cls, const char *subsystem)
{
	struct kevent_event *ev;
	int r;

	r = kevent_event_new_stock_class(source, seq, path, attr, cls,
					 subsystem, &ev);
	if (r == -EINVAL)
		return 0;
	if (r < 0)
		return r;
	r = queue_push(st, ev);
	if (r < 0)
		kevent_event_unref(ev);
	return r;
}

/* The properties of a uevent that the state looks at. */
struct uevent_props {
	const char *action;
	const char *devpath;
	const char *subsystem;
	const char *name;
	const char *resize;
	uint64_t seqnum;
	/* POWER_SUPPLY_* properties: "KEY=VALUE" strings in the buffer */
	const char *psy[64];
	size_t n_psy;
};

/*
 * Split @len bytes of KEY=VALUE properties, separated by NUL (a uevent
 * datagram, after its "ACTION@DEVPATH" header) or newline (a sysfs uevent
 * file), in place.
 */
static void uevent_props_parse(char *buf, size_t len, struct uevent_props *p)
{
	char *s = buf, *end = buf + len, *e;

	while (s < end) {
		e = s;
		while (e < end && *e && *e != '\n')
			e++;
		*e = '\0'; /* the buffer holds len + 1 bytes */
		if (strncmp(s, "ACTION=", 7) == 0)
			p->action = s + 7;
		else if (strncmp(s, "DEVPATH=", 8) == 0)
			p->devpath = s + 8;
		else if (strncmp(s, "SUBSYSTEM=", 10) == 0)
			p->subsystem = s + 10;
		else if (strncmp(s, "NAME=", 5) == 0)
			p->name = s + 5;
		else if (strncmp(s, "RESIZE=", 7) == 0)
			p->resize = s + 7;
		else if (strncmp(s, "SEQNUM=", 7) == 0)
			p->seqnum = strtoull(s + 7, NULL, 10);
		else if (strncmp(s, "POWER_SUPPLY_", 13) == 0 &&
			 strchr(s, '=') &&
			 p->n_psy < sizeof(p->psy) / sizeof(p->psy[0]))
			p->psy[p->n_psy++] = s + 13;
		s = e + 1;
	}
}

static struct psy_dev *psy_find(struct kevent_stock_state *st,
				const char *path)
{
	size_t i;

	for (i = 0; i < st->n_psys; i++)
		if (strcmp(st->psys[i].path, path) == 0)
			return &st->psys[i];
	return NULL;
}

static void psy_remove(struct kevent_stock_state *st, const char *path)
{
	struct psy_dev *d = psy_find(st, path);

	if (!d)
		return;
	psy_dev_clear(d);
	*d = st->psys[--st->n_psys];
}

/*
 * "CAPACITY=42" of POWER_SUPPLY_CAPACITY=42: the attribute "capacity" if
 * it is registered, in @attr of @size bytes. Return: the value, or NULL.
 */
static const char *psy_prop_attr(const char *kv, char *attr, size_t size)
{
	const char *eq = strchr(kv, '=');
	size_t i, n = eq - kv;

	if (n == 0 || n >= size)
		return NULL;
	for (i = 0; i < n; i++) {
		if (kv[i] >= 'A' && kv[i] <= 'Z')
			attr[i] = kv[i] - 'A' + 'a';
		else if ((kv[i] >= '0' && kv[i] <= '9') || kv[i] == '_')
			attr[i] = kv[i];
		else
			return NULL;
	}
	attr[n] = '\0';
	return kevent_attribute_id(attr) < 0 ? NULL : eq + 1;
}

/*
 * The properties of power supply @path now: one event per registered
 * attribute whose value is not the last one seen, unless @seed (the first
 * sight of the device, or a resynchronisation) or the device was not known.
 */
static int psy_update(struct kevent_stock_state *st, const char *path,
		      const struct uevent_props *p, bool seed)
{
	char attr[KEVENT_ATTR_NAME_MAX];
	struct psy_prop *props, *prop;
	struct psy_dev *d, *ds;
	const char *value;
	char *v;
	size_t i, j;
	int r;

	d = psy_find(st, path);
	if (!d) {
		ds = realloc(st->psys, (st->n_psys + 1) * sizeof(*ds));
		if (!ds)
			return -ENOMEM;
		st->psys = ds;
		d = &st->psys[st->n_psys];
		*d = (struct psy_dev){ .path = strdup(path) };
		if (!d->path)
			return -ENOMEM;
		st->n_psys++;
		seed = true;
	}
	d->generation = st->generation;
	for (i = 0; i < p->n_psy; i++) {
		value = psy_prop_attr(p->psy[i], attr, sizeof(attr));
		if (!value)
			continue;
		prop = NULL;
		for (j = 0; j < d->n_props; j++)
			if (strcmp(d->props[j].attr, attr) == 0)
				prop = &d->props[j];
		if (prop && strcmp(prop->value, value) == 0)
			continue;
		v = strdup(value);
		if (!v)
			return -ENOMEM;
		if (prop) {
			free(prop->value);
			prop->value = v;
		} else {
			props = realloc(d->props,
					(d->n_props + 1) * sizeof(*props));
			if (!props) {
				free(v);
				return -ENOMEM;
			}
			d->props = props;
			prop = &d->props[d->n_props];
			*prop = (struct psy_prop){ .attr = strdup(attr),
						   .value = v };
			if (!prop->attr) {
				free(v);
				return -ENOMEM;
			}
			d->n_props++;
		}
		if (seed)
			continue;
		r = emit(st, KEVENT_EVENT_SOURCE_UEVENT, p->seqnum, path, attr,
			 KEVENT_CLASS_POWER, "power_supply");
		if (r < 0)
			return r;
	}
	return 0;
}

static bool streq(const char *a, const char *b)
{
	return a && strcmp(a, b) == 0;
}

int kevent_stock_state_uevent(struct kevent_stock_state *st, const void *msg,
			      size_t len)
{
	struct uevent_props p = { 0 };
	const char *header = msg;
	size_t hlen;
	char *buf;
	int r = 0;

	/* "ACTION@DEVPATH": what the kernel sends; libudev's start "libudev" */
	hlen = strnlen(header, len);
	if (hlen == len || !memchr(header, '@', hlen))
		return 0;
	buf = malloc(len - hlen);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, header + hlen + 1, len - hlen - 1);
	buf[len - hlen - 1] = '\0';
	uevent_props_parse(buf, len - hlen - 1, &p);
	if (!p.action || !p.devpath || !p.subsystem)
		goto out;

	if (strcmp(p.subsystem, "hwmon") == 0) {
		if (streq(p.action, "change") &&
		    kevent_uevent_names_attr(p.subsystem, p.name))
			r = emit(st, KEVENT_EVENT_SOURCE_UEVENT, p.seqnum,
				 p.devpath, p.name, KEVENT_CLASS_POWER,
				 p.subsystem);
	} else if (strcmp(p.subsystem, "power_supply") == 0) {
		if (streq(p.action, "remove"))
			psy_remove(st, p.devpath);
		else
			r = psy_update(st, p.devpath, &p,
				       streq(p.action, "add"));
	} else if (strcmp(p.subsystem, "cpu") == 0) {
		if (streq(p.action, "online") || streq(p.action, "offline"))
			r = emit(st, KEVENT_EVENT_SOURCE_UEVENT, p.seqnum,
				 p.devpath, "online", KEVENT_CLASS_HOTPLUG,
				 p.subsystem);
	} else if (strcmp(p.subsystem, "block") == 0) {
		if (streq(p.action, "change") && streq(p.resize, "1"))
			r = emit(st, KEVENT_EVENT_SOURCE_UEVENT, p.seqnum,
				 p.devpath, "size", KEVENT_CLASS_STORAGE,
				 p.subsystem);
	}
out:
	free(buf);
	return r;
}

int kevent_stock_state_psy_seed(struct kevent_stock_state *st,
				const char *path, const char *text, size_t len)
{
	struct uevent_props p = { 0 };
	char *buf;
	int r;

	buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, text, len);
	buf[len] = '\0';
	uevent_props_parse(buf, len, &p);
	r = psy_update(st, path, &p, true);
	free(buf);
	return r;
}

void kevent_stock_state_resync_begin(struct kevent_stock_state *st)
{
	st->generation++;
}

void kevent_stock_state_resync_end(struct kevent_stock_state *st)
{
	size_t i = 0;

	/* What the re-reading did not find is gone. */
	while (i < st->n_psys) {
		if (st->psys[i].generation != st->generation) {
			psy_dev_clear(&st->psys[i]);
			st->psys[i] = st->psys[--st->n_psys];
		} else {
			i++;
		}
	}
	i = 0;
	while (i < st->n_links) {
		if (st->links[i].generation != st->generation) {
			free(st->links[i].path);
			st->links[i] = st->links[--st->n_links];
		} else {
			i++;
		}
	}
}

static struct link_dev *link_find(struct kevent_stock_state *st, int ifindex)
{
	size_t i;

	for (i = 0; i < st->n_links; i++)
		if (st->links[i].ifindex == ifindex)
			return &st->links[i];
	return NULL;
}

/* As the kernel prints a hardware address: lower-case hex, colons */
static void format_address(const uint8_t *a, size_t len, char *buf)
{
	size_t i;

	if (len > LINK_ADDR_MAX / 3)
		len = LINK_ADDR_MAX / 3;
	for (i = 0; i < len; i++)
		sprintf(buf + 3 * i, "%02x%s", a[i], i + 1 < len ? ":" : "");
}

struct link_msg {
	const char *name;
	const char *operstate;
	int carrier;
	int64_t mtu;
	char address[LINK_ADDR_MAX];
};

static int link_attr_cb(const struct nlattr *a, void *data)
{
	struct link_msg *lm = data;
	size_t len = mnl_attr_get_payload_len(a);

	switch (mnl_attr_get_type(a)) {
	case IFLA_IFNAME:
		if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0 &&
		    len <= IFNAMSIZ)
			lm->name = mnl_attr_get_str(a);
		break;
	case IFLA_OPERSTATE:
		if (mnl_attr_validate(a, MNL_TYPE_U8) == 0)
			lm->operstate =
				kevent_operstate_name(mnl_attr_get_u8(a));
		break;
	case IFLA_CARRIER:
		if (mnl_attr_validate(a, MNL_TYPE_U8) == 0)
			lm->carrier = !!mnl_attr_get_u8(a);
		break;
	case IFLA_MTU:
		if (mnl_attr_validate(a, MNL_TYPE_U32) == 0)
			lm->mtu = mnl_attr_get_u32(a);
		break;
	case IFLA_ADDRESS:
		if (len > 0)
			format_address(mnl_attr_get_payload(a), len,
				       lm->address);
		break;
	}
	return MNL_CB_OK;
}

/* Path of @d, resolved again when its name changed. */
static int link_set_name(struct kevent_stock_state *st, struct link_dev *d,
			 const char *name)
{
	char *path = NULL;
	int r;

	if (d->path && strcmp(d->name, name) == 0)
		return 0;
	r = st->net_path(name, &path);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		/* Gone or renamed again since: where a virtual device is */
		if (asprintf(&path, "/devices/virtual/net/%s", name) < 0)
			return -ENOMEM;
	}
	free(d->path);
	d->path = path;
	snprintf(d->name, sizeof(d->name), "%s", name);
	return 0;
}

static int link_emit(struct kevent_stock_state *st, const struct link_dev *d,
		     const char *attr)
{
	return emit(st, KEVENT_EVENT_SOURCE_RTNETLINK, 0, d->path, attr,
		    KEVENT_CLASS_NET, "net");
}

int kevent_stock_state_link(struct kevent_stock_state *st,
			    const struct nlmsghdr *nlh, size_t len, bool seed)
{
	struct link_msg lm = { .carrier = -1, .mtu = -1 };
	const struct ifinfomsg *ifi;
	struct link_dev *d, *ds;
	bool changed[4] = { 0 };
	static const char *const attrs[4] = { "operstate", "carrier", "mtu",
					      "address" };
	int i, r;

	if (len < sizeof(*nlh) || nlh->nlmsg_len > len ||
	    nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*ifi)))
		return 0;
	if (nlh->nlmsg_type != RTM_NEWLINK && nlh->nlmsg_type != RTM_DELLINK)
		return 0;
	ifi = mnl_nlmsg_get_payload(nlh);
	/* Bridge ports' messages (AF_BRIDGE) are about the port, not the device */
	if (ifi->ifi_family != AF_UNSPEC || ifi->ifi_index <= 0)
		return 0;
	d = link_find(st, ifi->ifi_index);
	if (nlh->nlmsg_type == RTM_DELLINK) {
		if (d) {
			free(d->path);
			*d = st->links[--st->n_links];
		}
		return 0;
	}
	if (mnl_attr_parse(nlh, sizeof(*ifi), link_attr_cb, &lm) < 0 ||
	    !lm.name)
		return 0;
	if (!d) {
		ds = realloc(st->links, (st->n_links + 1) * sizeof(*ds));
		if (!ds)
			return -ENOMEM;
		st->links = ds;
		d = &st->links[st->n_links];
		*d = (struct link_dev){ .ifindex = ifi->ifi_index,
					.carrier = -1,
					.mtu = -1 };
		st->n_links++;
		seed = true; /* a new device: its values are no change */
	}
	d->generation = st->generation;
	r = link_set_name(st, d, lm.name);
	if (r < 0)
		return r;

	if (lm.operstate && d->operstate != lm.operstate) {
		changed[0] = d->operstate != NULL;
		d->operstate = lm.operstate;
	}
	if (lm.carrier >= 0 && d->carrier != lm.carrier) {
		changed[1] = d->carrier >= 0;
		d->carrier = lm.carrier;
	}
	if (lm.mtu >= 0 && d->mtu != lm.mtu) {
		changed[2] = d->mtu >= 0;
		d->mtu = lm.mtu;
	}
	if (lm.address[0] && strcmp(d->address, lm.address) != 0) {
		changed[3] = d->address[0] != '\0';
		memcpy(d->address, lm.address, sizeof(d->address));
	}
	if (seed)
		return 0;
	for (i = 0; i < 4; i++) {
		if (!changed[i])
			continue;
		r = link_emit(st, d, attrs[i]);
		if (r < 0)
			return r;
	}
	return 0;
}
