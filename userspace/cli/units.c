// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-watch: values with a unit, in a form people read at a glance.
 *
 * The raw value and unit stay in every line; the readable form follows
 * them in the text output only. Integer arithmetic throughout, so that the
 * same value always reads the same, down to the last decimal.
 */
#include <inttypes.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "units.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

enum unit_kind {
	UNIT_CELSIUS, /* millidegrees Celsius */
	UNIT_BINARY, /* bytes */
	UNIT_PERCENT,
	UNIT_SI, /* a symbol with an SI prefix */
	UNIT_SECTORS, /* 512-byte sectors, shown as bytes */
};

struct unit_def {
	const char *name; /* as attributes.txt writes it */
	enum unit_kind kind;
	int exp; /* UNIT_SI: power of ten of the unit (-3 for mV) */
	int max_exp; /* UNIT_SI: power of ten of the largest prefix shown */
	const char *symbol; /* UNIT_SI: the symbol without its prefix */
};

/*
 * Every unit of attributes.txt, and those of the kernel's hwmon
 * (Documentation/hwmon/sysfs-interface.rst: mV, mA, uW, uJ, mdegC),
 * power_supply (uV, uA, uW, uAh, uWh) and cpufreq (kHz) attributes.
 */
static const struct unit_def unit_defs[] = {
	{ "mdegC", UNIT_CELSIUS, 0, 0, NULL },
	{ "bytes", UNIT_BINARY, 0, 0, NULL },
	{ "percent", UNIT_PERCENT, 0, 0, NULL },
	{ "sectors", UNIT_SECTORS, 0, 0, NULL },
	{ "uV", UNIT_SI, -6, 18, "V" },
	{ "mV", UNIT_SI, -3, 18, "V" },
	{ "uA", UNIT_SI, -6, 18, "A" },
	{ "mA", UNIT_SI, -3, 18, "A" },
	{ "uW", UNIT_SI, -6, 18, "W" },
	{ "mW", UNIT_SI, -3, 18, "W" },
	{ "uJ", UNIT_SI, -6, 18, "J" },
	{ "mJ", UNIT_SI, -3, 18, "J" },
	{ "uAh", UNIT_SI, -6, 18, "Ah" },
	{ "mAh", UNIT_SI, -3, 18, "Ah" },
	{ "uWh", UNIT_SI, -6, 18, "Wh" },
	{ "mWh", UNIT_SI, -3, 18, "Wh" },
	{ "Hz", UNIT_SI, 0, 18, "Hz" },
	{ "kHz", UNIT_SI, 3, 18, "Hz" },
	{ "MHz", UNIT_SI, 6, 18, "Hz" },
	{ "us", UNIT_SI, -6, 0, "s" },
	{ "ms", UNIT_SI, -3, 0, "s" },
};

/* Prefixes from 10^-6 to 10^18, a power of 1000 apart. */
static const char *const si_prefixes[] = {
	"u", "m", "", "k", "M", "G", "T", "P", "E",
};

static const char *const binary_prefixes[] = {
	"KiB", "MiB", "GiB", "TiB", "PiB", "EiB",
};

/* Bytes below this count are read at a glance (an MTU, a page) as they are */
#define BINARY_FROM 10240

bool value_to_int64(const char *s, size_t len, int64_t *ret)
{
	uint64_t mag = 0, limit = INT64_MAX;
	bool neg = false;
	unsigned int d;
	size_t i = 0;

	if (len > 0 && s[0] == '-') {
		neg = true;
		limit = (uint64_t)INT64_MAX + 1;
		i = 1;
	}
	if (i == len)
		return false;
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		d = s[i] - '0';
		if (mag > (limit - d) / 10)
			return false;
		mag = mag * 10 + d;
	}
	if (!neg)
		*ret = (int64_t)mag;
	else if (mag > INT64_MAX)
		*ret = INT64_MIN;
	else
		*ret = -(int64_t)mag;
	return true;
}

/*
 * @mag / @div with @scale (10 or 1000) steps of decimals, rounded half up:
 * the integer part in *@ret_int, the decimals in *@ret_frac (below @scale).
 * Either @scale divides @div, or @div is at most 2^60 (bytes).
 */
static void divide_round(uint64_t mag, uint64_t div, uint64_t scale,
			 uint64_t *ret_int, uint64_t *ret_frac)
{
	uint64_t r = mag % div, step, rest;

	*ret_int = mag / div;
	if (div % scale == 0) {
		step = div / scale;
		rest = r % step;
		*ret_frac = r / step + (rest >= step - rest);
	} else {
		*ret_frac = (r * scale + div / 2) / div;
	}
	if (*ret_frac == scale) {
		(*ret_int)++;
		*ret_frac = 0;
	}
}

static uint64_t pow10_u64(unsigned int n)
{
	uint64_t p = 1;

	while (n--)
		p *= 10;
	return p;
}

/* The sign of a result: none when it rounded to zero. */
static const char *sign(bool neg, uint64_t i, uint64_t frac)
{
	return neg && (i || frac) ? "-" : "";
}

static size_t celsius(bool neg, uint64_t mag, bool utf8, char *buf)
{
	uint64_t i, frac;

	divide_round(mag, 1000, 10, &i, &frac);
	return snprintf(buf, UNIT_READABLE_MAX, "%s%" PRIu64 ".%" PRIu64 " %s",
			sign(neg, i, frac), i, frac, utf8 ? "°C" : "degC");
}

static size_t binary(bool neg, uint64_t mag, char *buf)
{
	unsigned int k = ARRAY_SIZE(binary_prefixes);
	uint64_t i, frac;

	if (mag < BINARY_FROM)
		return 0;
	while (k > 1 && mag < (uint64_t)1 << (10 * k))
		k--;
	divide_round(mag, (uint64_t)1 << (10 * k), 10, &i, &frac);
	/* 1048575 bytes: 1024.0 KiB is 1.0 MiB */
	if (i == 1024 && k < ARRAY_SIZE(binary_prefixes)) {
		i = 1;
		k++;
	}
	return snprintf(buf, UNIT_READABLE_MAX, "%s%" PRIu64 ".%" PRIu64 " %s",
			sign(neg, i, frac), i, frac, binary_prefixes[k - 1]);
}

static size_t si(const struct unit_def *u, bool neg, uint64_t mag, char *buf)
{
	uint64_t div = 1, i, frac;
	int exp;

	/* The largest prefix with at least 1 of it; 10^19 > INT64_MAX */
	for (exp = u->max_exp; exp > u->exp; exp -= 3) {
		if (exp - u->exp > 18)
			continue;
		div = pow10_u64(exp - u->exp);
		if (mag >= div)
			break;
	}
	if (exp <= u->exp)
		return 0;
	divide_round(mag, div, 1000, &i, &frac);
	/* 999999500 uW: 999.9995 W is 1.000 kW */
	if (i == 1000 && exp < u->max_exp) {
		i = 1;
		exp += 3;
	}
	return snprintf(buf, UNIT_READABLE_MAX,
			"%s%" PRIu64 ".%03" PRIu64 " %s%s", sign(neg, i, frac),
			i, frac, si_prefixes[(exp + 6) / 3], u->symbol);
}

size_t unit_readable(const char *unit, const char *value, size_t len, bool utf8,
		     char buf[static UNIT_READABLE_MAX])
{
	const struct unit_def *u = NULL;
	uint64_t mag;
	size_t i, n = 0;
	int64_t v;

	buf[0] = '\0';
	if (!unit || !value || !value_to_int64(value, len, &v))
		return 0;
	for (i = 0; i < ARRAY_SIZE(unit_defs); i++) {
		if (strcmp(unit_defs[i].name, unit) == 0) {
			u = &unit_defs[i];
			break;
		}
	}
	if (!u)
		return 0;
	/* |INT64_MIN| fits in a uint64_t */
	mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

	switch (u->kind) {
	case UNIT_CELSIUS:
		n = celsius(v < 0, mag, utf8, buf);
		break;
	case UNIT_BINARY:
		n = binary(v < 0, mag, buf);
		break;
	case UNIT_PERCENT:
		n = snprintf(buf, UNIT_READABLE_MAX, "%" PRId64 "%%", v);
		break;
	case UNIT_SI:
		n = si(u, v < 0, mag, buf);
		break;
	case UNIT_SECTORS:
		n = mag <= UINT64_MAX / 512 ? binary(v < 0, mag * 512, buf) : 0;
		break;
	}
	if (n >= UNIT_READABLE_MAX)
		n = 0;
	if (n == 0)
		buf[0] = '\0';
	return n;
}

bool codeset_is_utf8(const char *codeset)
{
	return codeset && (strcasecmp(codeset, "UTF-8") == 0 ||
			   strcasecmp(codeset, "UTF8") == 0);
}

bool locale_is_utf8(void)
{
	const char *cur = setlocale(LC_CTYPE, NULL);
	char *saved = cur ? strdup(cur) : NULL;
	bool utf8 = false;

	/* A locale that is not installed cannot be trusted with UTF-8 */
	if (setlocale(LC_CTYPE, ""))
		utf8 = codeset_is_utf8(nl_langinfo(CODESET));
	setlocale(LC_CTYPE, saved ? saved : "C");
	free(saved);
	return utf8;
}
