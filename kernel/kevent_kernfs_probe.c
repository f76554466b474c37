// SPDX-License-Identifier: GPL-2.0
/*
 * kevent: how the module hears of kernfs_notify(), a kprobe on its entry.
 *
 * A kprobe rather than an fprobe: kprobes have kept one interface on every
 * kernel kevent builds for, while an fprobe's entry handler changed its
 * arguments in 6.14, and CONFIG_FPROBE is not in every distribution's
 * kernel. At a function's entry on x86, a kprobe runs on ftrace as an fprobe
 * does, so it costs the same, where the kernel has CONFIG_KPROBES_ON_FTRACE
 * (Debian's do); elsewhere it is an int3, see the handler.
 *
 * The probe is registered disabled and armed only while the family has a
 * listener (kevent_kernfs.c decides): a disabled kprobe on ftrace is an
 * ftrace nop again, and kernfs_notify() costs what it costs without kevent.
 * A probe that is not on ftrace is armed for good (see
 * kevent_kernfs_hook_arms_at_once()).
 * A kernel built with the layer calls kevent_kernfs_note() from
 * kernfs_notify() itself, behind a static key, and has no probe.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernfs.h>
#include <linux/kprobes.h>

#include "kevent_internal.h"

/*
 * Where kprobes do not run on ftrace (a kernel without
 * CONFIG_KPROBES_ON_FTRACE), the probe is an int3 until the kprobe
 * optimizer turns it into a jump, and its handler runs as in an NMI, where
 * no lock that is also taken elsewhere may be. Such a notification is
 * dropped and counted (kevent_kernfs_note_nmi()).
 */
static int kevent_kernfs_pre_handler(struct kprobe *p, struct pt_regs *regs)
{
	if (in_nmi())
		kevent_kernfs_note_nmi();
	else
		kevent_kernfs_note((struct kernfs_node *)
				   regs_get_kernel_argument(regs, 0));
	return 0;
}

static struct kprobe kevent_kernfs_probe = {
	.symbol_name	= "kernfs_notify",
	.pre_handler	= kevent_kernfs_pre_handler,
	.flags		= KPROBE_FLAG_DISABLED,
};

/**
 * kevent_kernfs_hook_register - put the probe on kernfs_notify(), disarmed
 *
 * Context: Process context.
 * Return: 0, or the error of register_kprobe().
 */
int kevent_kernfs_hook_register(void)
{
	return register_kprobe(&kevent_kernfs_probe);
}

/**
 * kevent_kernfs_hook_unregister - take the probe off
 *
 * No handler runs once this returns.
 *
 * Context: Process context.
 */
void kevent_kernfs_hook_unregister(void)
{
	unregister_kprobe(&kevent_kernfs_probe);
}

/**
 * kevent_kernfs_hook_arm - arm or disarm the probe
 * @on: arm it
 *
 * Nothing is done when the probe is so already.
 *
 * Context: Process context, under kevent_kernfs.c's arming lock.
 * Return: 0, or the error of enable_kprobe() or disable_kprobe().
 */
int kevent_kernfs_hook_arm(bool on)
{
	if (on == !kprobe_disabled(&kevent_kernfs_probe))
		return 0;
	return on ? enable_kprobe(&kevent_kernfs_probe) :
		    disable_kprobe(&kevent_kernfs_probe);
}

/**
 * kevent_kernfs_hook_arms_at_once - whether arming the probe takes effect
 *	as it returns
 *
 * On ftrace, an armed kprobe runs its handler in the context of the call.
 * Elsewhere it is an int3, whose handler runs as in an NMI and drops the
 * notification (kevent_kernfs_pre_handler()), until the kprobe optimizer
 * makes it a jump, some time later: each arming would lose what is
 * announced in between, so such a probe is armed for good.
 *
 * Context: Process context, after kevent_kernfs_hook_register().
 */
bool kevent_kernfs_hook_arms_at_once(void)
{
	return kprobe_ftrace(&kevent_kernfs_probe);
}

/**
 * kevent_kernfs_hook_armed - whether the probe is armed
 *
 * Context: Any context.
 */
bool kevent_kernfs_hook_armed(void)
{
	return !kprobe_disabled(&kevent_kernfs_probe);
}
