// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The attribute filter: a classic BPF program on the monitor's socket, run
 * by the kernel before a multicast event is queued, so that a listener is
 * not woken for events of attributes it would discard.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/filter.h>

#include "kevent-private.h"

#define STMT(code, k) ((struct sock_filter)BPF_STMT(code, k))
#define JUMP(code, k, jt, jf) ((struct sock_filter)BPF_JUMP(code, k, jt, jf))

/*
 * Where a netlink message keeps what the program looks at. The loads of
 * classic BPF are big-endian, netlink's fields are in host order: a field
 * is compared with its value passed through ntohs()/ntohl().
 */
#define OFF_NLMSG_TYPE offsetof(struct nlmsghdr, nlmsg_type)
#define OFF_GENL_CMD NLMSG_HDRLEN
#define OFF_ATTRS (NLMSG_HDRLEN + GENL_HDRLEN)

/*
 * The program, with n the number of ids (jump offsets are counted from the
 * next instruction):
 *
 *	0	ldh [nlmsg_type]
 *	1	jeq #family, 0, accept		n + 9
 *	2	ldb [genl cmd]
 *	3	jeq #KEVENT_CMD_EVENT, 0, accept	n + 7
 *	4	ld #attributes
 *	5	ldx #KEVENT_A_ATTR_ID
 *	6	ld #nlattr			A = offset of the attribute, or 0
 *	7	jeq #0, accept			n + 3
 *	8	tax
 *	9	ld [x + 4]			the id
 *	10+i	jeq #id[i], accept		n - i
 *	10+n	ret #0				drop
 *	11+n	ret #-1				accept the whole message
 */
int kevent_filter_build(uint16_t family_id, const uint32_t *ids, size_t n_ids,
			struct sock_filter *prog, size_t max)
{
	size_t n = 0, i;

	if (n_ids == 0 || n_ids > KEVENT_FILTER_MAX_IDS ||
	    max < KEVENT_FILTER_LEN(n_ids))
		return -EINVAL;

	/* Anything but a kevent event passes: controller notifications. */
	prog[n++] = STMT(BPF_LD | BPF_H | BPF_ABS, OFF_NLMSG_TYPE);
	prog[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, ntohs(family_id), 0,
			 n_ids + 9);
	prog[n++] = STMT(BPF_LD | BPF_B | BPF_ABS, OFF_GENL_CMD);
	prog[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, KEVENT_CMD_EVENT, 0,
			 n_ids + 7);

	/* A = offset of the KEVENT_A_ATTR_ID attribute, 0 if there is none */
	prog[n++] = STMT(BPF_LD | BPF_IMM, OFF_ATTRS);
	prog[n++] = STMT(BPF_LDX | BPF_IMM, KEVENT_A_ATTR_ID);
	prog[n++] = STMT(BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + SKF_AD_NLATTR);
	/* No id: let the library see the message, and refuse it there. */
	prog[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, n_ids + 3, 0);
	prog[n++] = STMT(BPF_MISC | BPF_TAX, 0);
	prog[n++] = STMT(BPF_LD | BPF_W | BPF_IND, NLA_HDRLEN);
	for (i = 0; i < n_ids; i++)
		prog[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, ntohl(ids[i]),
				 n_ids - i, 0);
	prog[n++] = STMT(BPF_RET | BPF_K, 0);
	prog[n++] = STMT(BPF_RET | BPF_K, 0xffffffff);
	return n;
}
