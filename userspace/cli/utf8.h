/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UTF-8 decoding shared by kevent-watch's escaping and kevent-dbus's
 * values: one definition of what a valid sequence is (RFC 3629)
 */
#ifndef KEVENT_UTF8_H
#define KEVENT_UTF8_H

#include <stddef.h>

/*
 * Length of the valid UTF-8 sequence at @s (1 to 4), its code point in
 * @ret_cp; or 0 if invalid.
 */
static inline size_t utf8_decode(const unsigned char *s, size_t left,
				 unsigned int *ret_cp)
{
	unsigned int cp;
	size_t n, i;

	if (s[0] < 0x80) {
		*ret_cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (left < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates, beyond U+10FFFF. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	*ret_cp = cp;
	return n;
}

#endif
