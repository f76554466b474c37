/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unit tests' checks, and registration of test functions kept in files
 * of their own: UNIT_TEST(test_name) { ... } in any test/unit/NAME.c runs
 * after the tests of unit.c.
 *
 * A test is one function; a check (CHECK, CHECK_STR) one assertion in it.
 * A test passes when none of its checks failed. A test that cannot run
 * here calls unit_skip() with the reason and returns: it counts as skipped,
 * not passed.
 */
#ifndef KEVENT_UNIT_H
#define KEVENT_UNIT_H

#include <stdio.h>
#include <string.h>

/* Checks passed and failed so far, in every test */
extern unsigned int unit_passed, unit_failed;

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (cond) {                                                    \
			unit_passed++;                                         \
		} else {                                                       \
			unit_failed++;                                         \
			printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
		}                                                              \
	} while (0)

#define CHECK_STR(got, want)                                                 \
	do {                                                                 \
		const char *g_ = (got), *w_ = (want);                        \
		if (g_ && w_ && strcmp(g_, w_) == 0) {                       \
			unit_passed++;                                       \
		} else {                                                     \
			unit_failed++;                                       \
			printf("FAIL %s:%d: %s\n  got:  \"%s\"\n", __FILE__, \
			       __LINE__, #got, g_ ? g_ : "(null)");          \
			printf("  want: \"%s\"\n", w_ ? w_ : "(null)");      \
		}                                                            \
	} while (0)

struct record;
struct watch_options;

/*
 * Parse "kevent-watch ARGS..." (@args NULL-terminated, at most 14) with
 * watch_options_parse(); return its result.
 */
int unit_parse_args(struct watch_options *o, char *err, size_t errlen,
		    const char *const *args);

/* A NULL-terminated argument list for unit_parse_args() */
#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* An event record of the demo sensor's temperature, defined in unit.c */
extern const struct record unit_event_record;

struct unit_test {
	const char *name;
	void (*run)(void);
	struct unit_test *next;
};

void unit_register(struct unit_test *test);
void unit_run(const char *name, void (*fn)(void));
void unit_run_registered(void);
void unit_skip(const char *reason);

/* Run the test function @fn of this file */
#define UNIT_RUN(fn) unit_run(#fn, fn)

#define UNIT_TEST(fn)                                                      \
	static void fn(void);                                              \
	static struct unit_test unit_test_##fn = { #fn, fn, NULL };        \
	__attribute__((constructor)) static void unit_register_##fn(void) \
	{                                                                  \
		unit_register(&unit_test_##fn);                            \
	}                                                                  \
	static void fn(void)

#endif /* KEVENT_UNIT_H */
