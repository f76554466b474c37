/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The family's uAPI header, kernel/uapi/kevent.h, where the generated
 * kevent_nl_gen.[ch] include it: as <uapi/linux/kevent.h>, its place in a
 * kernel tree. The module is built with kernel/include on the include path.
 */
#include "../../../uapi/kevent.h"
