/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kevent-watch: values with a unit, in a form people read at a glance.
 */
#ifndef KEVENT_WATCH_UNITS_H
#define KEVENT_WATCH_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Room for any readable form, NUL included. */
#define UNIT_READABLE_MAX 48

/*
 * Parse @len bytes at @s as a decimal integer: an optional '-', then
 * digits, nothing else, within int64_t. Return: true and the value in *@ret.
 */
bool value_to_int64(const char *s, size_t len, int64_t *ret);

/*
 * The readable form of @value (@len bytes) in @unit, written NUL-terminated
 * to @buf (UNIT_READABLE_MAX bytes):
 *   mdegC          degrees Celsius, one decimal: "25.0 °C", "-0.5 °C"
 *   bytes          from 10 KiB on: KiB, MiB, ... EiB, one decimal: "8.0 MiB"
 *   percent        "85%"
 *   uV mV, uA mA, uW mW, uJ mJ, uAh mAh, uWh mWh, Hz kHz MHz, us ms
 *                  the largest SI prefix that keeps at least 1, three
 *                  decimals: "12.345 V", "2.400 GHz" (seconds: up to s);
 *                  none when that is the unit's own prefix (500 mV)
 * Division rounds half away from zero, in integer arithmetic; a result that
 * rounds to zero has no minus sign. @utf8: the symbols may be non-ASCII
 * (°C); otherwise they are ASCII (degC).
 * Return: the length of the readable form, or 0 when there is none: a unit
 * not in the table, a value that is not entirely an integer (see
 * value_to_int64()), or a value the raw form already shows readably.
 */
size_t unit_readable(const char *unit, const char *value, size_t len, bool utf8,
		     char buf[static UNIT_READABLE_MAX]);

/* Is @codeset (as nl_langinfo(CODESET) names it) UTF-8? */
bool codeset_is_utf8(const char *codeset);

/*
 * Can the user's locale (LC_ALL, LC_CTYPE, LANG) show UTF-8 text? The
 * locale of LC_CTYPE is set from the environment to find out, then set
 * back: the rest of the program keeps its byte-wise behaviour.
 */
bool locale_is_utf8(void);

#endif /* KEVENT_WATCH_UNITS_H */
