/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libkevent internals, shared by the library's files and its unit tests.
 */
#ifndef KEVENT_PRIVATE_H
#define KEVENT_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <kevent/kevent.h>

#define KEVENT_EXPORT __attribute__((visibility("default")))

/* Largest attribute value kevent_attr_read() returns. */
#define KEVENT_VALUE_MAX (64 * 1024)

/* Buffer for a request (they are small). */
#define KEVENT_REQUEST_BUF_SIZE 1024

/* Receive buffer for one netlink datagram. */
#define KEVENT_RECV_BUF_SIZE (64 * 1024)
/* Datagrams a monitor takes with one recvmmsg(). */
#define KEVENT_RECV_BATCH 16

/* Socket buffer a monitor asks for. */
#define KEVENT_SOCKET_RCVBUF (8 * 1024 * 1024)

/* How long a request waits for the kernel's answer. */
#define KEVENT_REQUEST_TIMEOUT_SEC 5

#define KEVENT_MAX_GROUPS 32

/* Times kevent_sources_foreach() asks for a dump the kernel interrupts. */
#define KEVENT_DUMP_ATTEMPTS 4

struct kevent_event {
	unsigned int refcount;
	uint64_t seq;
	uint64_t timestamp;
	enum kevent_class cls;
	uint32_t attr_id;
	uint32_t coalesced;
	uint64_t class_seq; /* 0: not sent */
	uint64_t lost; /* set by the monitor that received the event */
	enum kevent_event_source source;
	const char *path;
	const char *attr;
	const char *subsystem; /* from a uevent, or NULL */
	char strings[]; /* path, attr (and subsystem), NUL-terminated */
};

struct genl_group {
	char name[GENL_NAMSIZ];
	uint32_t id;
};

struct genl_family {
	uint16_t id;
	uint32_t version;
	unsigned int n_groups;
	struct genl_group groups[KEVENT_MAX_GROUPS];
};

struct mnl_socket;

/* A blocking generic netlink socket for requests, with a receive timeout. */
int kevent_request_socket_open(struct mnl_socket **ret_nl);

/* The kernel's uevent group (libudev's is 2) */
#define KEVENT_UEVENT_GROUP_KERNEL 1

/*
 * A raw netlink socket of @protocol, non-blocking, with a large receive
 * buffer, bound to the multicast @groups (a uevent socket passes its
 * credentials). Return: the descriptor, or -errno.
 */
int kevent_netlink_open(int protocol, uint32_t groups);

/*
 * Feed the @len bytes of one reply datagram at @buf, answers to the request
 * of sequence number @seq on the socket of port id @portid, to @cb.
 * Return: 1 while more is to come, 0 when the kernel said done (NLMSG_DONE
 * or an acknowledgement) or @cb stopped, or the negative errno of an error
 * (the kernel's, in NLMSG_ERROR or NLMSG_DONE, or @cb's, -EINTR for an
 * interrupted dump).
 */
int kevent_reply_run(const void *buf, size_t len, unsigned int seq,
		     unsigned int portid, int (*cb)(const struct nlmsghdr *nlh,
						     void *data),
		     void *data);

/* CTRL_CMD_GETFAMILY: -ENOENT when the family is not registered. */
int kevent_genl_family_resolve(struct mnl_socket *nl, const char *name,
			       struct genl_family *ret_family);

/*
 * The kevent family speaks the version of the ABI the library knows,
 * KEVENT_FAMILY_VERSION. Return: 0, or -EPROTONOSUPPORT.
 */
int kevent_family_check(const struct genl_family *family);

/* Is @p, an absolute path, below /sys (not /sys itself)? */
bool kevent_below_sys(const char *p);

/*
 * The file @name (a path, relative or not) for --poll and --sample: its
 * real path, which must be below /sys, in *ret_real, and the kobject path
 * below /sys and the attribute name it stands for, validated, in *ret_path
 * and *ret_attr (each to free()). Return: 0, -EXDEV (not below /sys),
 * -EINVAL (a name that fails validation), -ENOMEM, or realpath()'s errno.
 */
int kevent_sysfs_file_resolve(const char *name, char **ret_real,
			      char **ret_path, char **ret_attr);

/*
 * Open @real, a path resolved by kevent_sysfs_file_resolve(), read-only
 * and without blocking, into *ret_fd. Return: 0, -EXDEV (not a file of
 * sysfs), -EISDIR, or open()'s or fstat()'s errno.
 */
int kevent_sysfs_file_open(const char *real, int *ret_fd);

/*
 * The kernel answers the family on @nl: 0, or -ENOENT outside the initial
 * network namespace (where it answers EOPNOTSUPP), or another errno.
 */
int kevent_family_answers(struct mnl_socket *nl, uint16_t family_id);

/* Counters the library knows: one more than the last enum kevent_stat. */
#define KEVENT_STAT_COUNT (KEVENT_STAT_UNRECORDED + 1)

/*
 * Fill @values, indexed by enum kevent_stat, with the counters of a
 * KEVENT_CMD_GET_STATS answer; those it lacks are left as they are.
 * Return: 0, or -EPROTO for a counter of the wrong size.
 */
int kevent_stats_parse(const struct nlmsghdr *nlh,
		       uint64_t values[KEVENT_STAT_COUNT]);

/* Group id of @name in @family, or 0 if the family has no such group. */
uint32_t kevent_genl_family_group(const struct genl_family *family,
				  const char *name);

/*
 * Parse and validate a KEVENT_CMD_EVENT message (@need_seq true) or a
 * KEVENT_CMD_GET_SOURCES record (@need_seq false) of @len bytes.
 * Return: 0 and a new event, -EBADMSG for an invalid message, -ENOMEM.
 */
/* An absent attribute, or one with exactly @size bytes of payload. */
bool kevent_attr_has_size(const struct nlattr *attr, size_t size);

/*
 * The string of a NUL-terminated string attribute without embedded NULs, at
 * most @max bytes including the NUL; NULL if it is not one.
 */
const char *kevent_attr_get_string(const struct nlattr *attr, size_t max);

int kevent_event_parse(const struct nlmsghdr *nlh, size_t len, bool need_seq,
		       struct kevent_event **ret_event);

/* What a message of the kevent family, received on its groups, is. */
enum kevent_msg_kind {
	KEVENT_MSG_EVENT, /* KEVENT_CMD_EVENT: parse it */
	KEVENT_MSG_OTHER, /* a command of a newer kernel: ignore it */
	KEVENT_MSG_MALFORMED, /* too short for its headers: drop and count it */
};

/* Kind of the message @nlh, of which @len bytes were received. */
enum kevent_msg_kind kevent_message_kind(const struct nlmsghdr *nlh,
					 size_t len);

/*
 * A kobject path relative to /sys: starts with '/', shorter than
 * KEVENT_PATH_MAX, and no component is empty, "." or "..".
 */
bool kevent_path_is_valid(const char *path);

/* An attribute name: 1 to KEVENT_ATTR_NAME_MAX - 1 bytes, no '/', not "."
 * or "..". */
bool kevent_attr_name_is_valid(const char *name);

/*
 * A new event of a stock source (uevent, poll), timestamped now, with the
 * class kevent_path_class() gives @attr of @path.
 * @subsystem may be NULL. Return: 0, -EINVAL for an invalid path or
 * attribute name, -ENOMEM.
 */
int kevent_event_new_stock(enum kevent_event_source source, uint64_t seq,
			   const char *path, const char *attr,
			   const char *subsystem,
			   struct kevent_event **ret_event);

/* The same, in class @cls rather than that of @attr in the registry. */
int kevent_event_new_stock_class(enum kevent_event_source source,
				 uint64_t seq, const char *path,
				 const char *attr, enum kevent_class cls,
				 const char *subsystem,
				 struct kevent_event **ret_event);

/*
 * The state of the stock sources (stock_state.c): the last values seen of
 * power supplies and network devices, and the events that messages made,
 * queued in order.
 */
struct kevent_stock_state;

struct kevent_stock_state *kevent_stock_state_new(void);
struct kevent_stock_state *
kevent_stock_state_free(struct kevent_stock_state *st);

/*
 * How the state finds the path of network device @name: by default
 * /sys/class/net/NAME resolved (NULL restores it). Where that fails, the
 * path is /devices/virtual/net/NAME.
 */
void kevent_stock_state_set_net_path(struct kevent_stock_state *st,
				     int (*net_path)(const char *name,
						     char **ret_path));

/*
 * A uevent datagram of @len bytes as the kernel sends it ("ACTION@DEVPATH",
 * then KEY=VALUE strings, each NUL-terminated): queue the events it makes.
 * hwmon change with an attribute-shaped NAME: attribute NAME, class power;
 * power_supply add: the values seeded, no event; change: one event per
 * POWER_SUPPLY_<NAME> whose lower-cased name is a registered attribute and
 * whose value changed (a device not seen before is seeded), class power;
 * power_supply remove: forgotten; cpu online or offline: attribute online,
 * class hotplug; block change with RESIZE=1: attribute size, class
 * storage. Anything else is ignored. Return: 0, or -ENOMEM.
 */
int kevent_stock_state_uevent(struct kevent_stock_state *st, const void *msg,
			      size_t len);

/*
 * Seed the values of power supply @path from the text of its sysfs uevent
 * file (POWER_SUPPLY_*=VALUE lines): no event. Return: 0, or -ENOMEM.
 */
int kevent_stock_state_psy_seed(struct kevent_stock_state *st,
				const char *path, const char *text, size_t len);

/*
 * An rtnetlink message of @len bytes: RTM_NEWLINK of AF_UNSPEC queues one
 * event per operstate, carrier, mtu, address that changed since the last
 * message of its ifindex (class net, subsystem net), unless @seed; a device
 * not seen before is seeded. RTM_DELLINK forgets the device. Anything else
 * is ignored. Return: 0, or -ENOMEM.
 */
int kevent_stock_state_link(struct kevent_stock_state *st,
			    const struct nlmsghdr *nlh, size_t len, bool seed);

/*
 * Re-reading the whole state after a loss: the devices that the messages
 * and seeds between begin and end do not mention are forgotten at the end.
 */
void kevent_stock_state_resync_begin(struct kevent_stock_state *st);
void kevent_stock_state_resync_end(struct kevent_stock_state *st);

/* Events queued, and the oldest of them (the caller's reference), or NULL */
size_t kevent_stock_state_pending(const struct kevent_stock_state *st);
struct kevent_event *kevent_stock_state_pop(struct kevent_stock_state *st);

/* The word of /sys/class/net/NAME/operstate for IF_OPER_* @operstate */
const char *kevent_operstate_name(unsigned int operstate);

/*
 * Does a change uevent of @subsystem with property NAME=@name name an
 * attribute of its device, as hwmon_notify_event() sends?
 */
bool kevent_uevent_names_attr(const char *subsystem, const char *name);

/*
 * Loss detection over the per-class sequence numbers (KEVENT_A_CLASS_SEQ) of
 * the events a monitor receives. The kernel numbers every event of a class,
 * sent or not, from 1: a number more than one above the last one seen means
 * that the events in between were lost.
 */
struct kevent_gaps {
	uint64_t last[__KEVENT_CLASS_MAX]; /* highest seen; 0: no baseline */
	bool resync; /* after an overflow: no baseline until the queue is dry */
};

/*
 * Account an event of class @cls with class sequence number @class_seq (0:
 * the kernel sent none) and return how many events of the class were lost
 * before it. An older event (a replayed one, or a duplicate) is no gap and
 * leaves the baseline where it is.
 */
uint64_t kevent_gaps_account(struct kevent_gaps *gaps, enum kevent_class cls,
			     uint64_t class_seq);

/*
 * The socket overflowed (-ENOBUFS): that loss is reported already. Forget
 * the baselines, and take no new one until kevent_gaps_idle(): the messages
 * still queued are older than the loss, and the first one after them would
 * otherwise show the same loss again as a gap.
 */
void kevent_gaps_overflow(struct kevent_gaps *gaps);

/* The socket has nothing pending: what was queued at the overflow is read. */
void kevent_gaps_idle(struct kevent_gaps *gaps);

/*
 * The sample source's decision (sample.c). Is the @len bytes at @s a whole
 * decimal integer ([blanks][+-]digits[blanks or newline]) of int64_t?
 */
bool kevent_sample_parse_number(const char *s, size_t len, int64_t *ret);

/*
 * Has a sampled value changed: from the @old_len bytes at @old (or the
 * read error @old_err, 0: none) to the @cur_len bytes at @cur (or
 * @new_err)? Errors: when they differ. Two integers, with @delta not 0:
 * when they are @delta or more apart. Otherwise: when the bytes differ.
 */
bool kevent_sample_changed(int old_err, const char *old, size_t old_len,
			   int new_err, const char *cur, size_t cur_len,
			   uint64_t delta);

/*
 * Stop watching the files of @monitor that went away (a read fails with
 * ENODEV), without an event: they may be added again.
 */
void kevent_poll_monitor_prune(struct kevent_poll_monitor *monitor);

/* Class of a registered attribute name, or KEVENT_CLASS_UNKNOWN. */
enum kevent_class kevent_attribute_class(const char *name);

/*
 * Whether @name is the name of registry entry @entry, or one of the names
 * of a template (temp1_alarm of temp*_alarm), as the kernel matches them.
 */
bool kevent_registry_name_matches(const char *entry, const char *name);

/*
 * Ask the kevent layer for its registry (KEVENT_CMD_GET_ATTRIBUTES) and
 * feed each entry's message to @cb. Returns 0, or a negative errno
 * (-ENOENT: no layer here).
 */
int kevent_registry_request(int (*cb)(const struct nlmsghdr *nlh, void *data),
			    void *data);

/*
 * The entry of @name in the running kernel's registry, asked for once per
 * process: its id, and its unit (NULL for none) and class in *@ret_unit and
 * *@ret_class if they are not NULL. -ENOENT if the kernel's registry lacks
 * the name or there is no layer; -EINVAL if @name is NULL. The unit lives
 * as long as the process.
 */
int kevent_kernel_attribute(const char *name, const char **ret_unit,
			    enum kevent_class *ret_class);

/*
 * Class of the events of attribute @name of the kobject at @path (below
 * /sys, from its leading '/'), as the kernel gives it: that of the
 * subsystem the kobject belongs to (a power supply's online is power, a
 * CPU's hotplug), else that of @name in the registry, else
 * KEVENT_CLASS_UNKNOWN.
 */
enum kevent_class kevent_path_class(const char *path, const char *name);

struct sock_filter;

/* Most attributes one filter lets through, and the length of its program. */
#define KEVENT_FILTER_MAX_IDS 64
#define KEVENT_FILTER_LEN(n_ids) ((n_ids) + 12)

/*
 * Build the socket filter that drops kevent events (of family @family_id)
 * whose attribute id is none of the @n_ids @ids, and passes every other
 * message, into @prog of @max instructions.
 * Return: the number of instructions, or -EINVAL if @n_ids is 0 or above
 * KEVENT_FILTER_MAX_IDS, or @max is below KEVENT_FILTER_LEN(@n_ids).
 */
int kevent_filter_build(uint16_t family_id, const uint32_t *ids, size_t n_ids,
			struct sock_filter *prog, size_t max);

/*
 * kevent_attr_open() below the directory @rootfd instead of /sys, on the
 * file system of @rootfd only (the caller checks that it is sysfs), with
 * O_NONBLOCK set.
 */
int kevent_attr_open_at(int rootfd, const char *path, const char *attr);

/* kevent_attr_read() below the directory @rootfd instead of /sys, likewise. */
int kevent_attr_read_at(int rootfd, const char *path, const char *attr,
			char **ret_value, size_t *ret_len);

/*
 * The subsystem of @path below @rootfd, through openat2(): the last component
 * of its subsystem link. Return: 0 and a string, -ENOMEM, -ENOSYS without
 * openat2(), or another -errno when the directory cannot be opened or has no
 * link (kevent_device_get_subsystem() asks libudev then, which knows the
 * implicit names and the errors).
 */
int kevent_device_get_subsystem_at(int rootfd, const char *path,
				   char **ret_subsystem);

/*
 * For tests: resolve sysfs paths with the walk of one component at a time
 * (@force), or again with openat2() where the kernel has it (the default).
 */
void kevent_sysfs_force_walk(bool force);

#endif /* KEVENT_PRIVATE_H */
