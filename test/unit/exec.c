// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of --exec (its environment, running and reporting the
 * command) and of the usage errors of every option.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "exec.h"
#include "options.h"
#include "output.h"
#include "unit.h"

/* The arguments are a usage error whose message starts with @opt. */
static bool usage_error_of(const char *opt, const char *const *args)
{
	struct watch_options o;
	char err[256] = "";
	bool ok;

	ok = unit_parse_args(&o, err, sizeof(err), args) == -1 &&
	     strncmp(err, opt, strlen(opt)) == 0 && !strchr(err, '\n');
	if (!ok)
		printf("  (message was \"%s\", not of %s)\n", err, opt);
	watch_options_free(&o);
	return ok;
}

UNIT_TEST(test_options_bad_values)
{
	CHECK(usage_error_of("--count", ARGS("--count", "-1")));
	CHECK(usage_error_of("--count", ARGS("--count", "0")));
	CHECK(usage_error_of("--count", ARGS("--count", "")));
	CHECK(usage_error_of("--count", ARGS("-n", "x")));
	CHECK(usage_error_of("--timeout", ARGS("--timeout", "x")));
	CHECK(usage_error_of("--timeout", ARGS("--timeout", "")));
	CHECK(usage_error_of("--timeout", ARGS("-t", "-1")));
	CHECK(usage_error_of("--exec", ARGS("--exec", "")));
	CHECK(usage_error_of("--exec", ARGS("--exec", " \t")));
	CHECK(usage_error_of("--exec-timeout",
			     ARGS("--exec", "true", "--exec-timeout", "x")));
	CHECK(usage_error_of("--exec-timeout",
			     ARGS("--exec", "true", "--exec-timeout", "-1")));
	CHECK(usage_error_of("--exec-timeout",
			     ARGS("--exec", "true", "--exec-timeout=")));
	CHECK(usage_error_of("--exec-timeout needs --exec",
			     ARGS("--exec-timeout", "1")));
	CHECK(usage_error_of("--attr", ARGS("--attr", "")));
	CHECK(usage_error_of("--path", ARGS("--path", "")));
	CHECK(usage_error_of("--subsystem", ARGS("--subsystem", "")));
	CHECK(usage_error_of("--class", ARGS("--class", "nosuch")));
	CHECK(usage_error_of("--class", ARGS("--class", "")));
	CHECK(usage_error_of("--class", ARGS("-c", "power,")));
	CHECK(usage_error_of("--format", ARGS("--format", "%x")));
	CHECK(usage_error_of("--format", ARGS("--format", "")));
	CHECK(usage_error_of("--format", ARGS("--format", "%")));
	CHECK(usage_error_of("--format", ARGS("--format", "\\q")));
	CHECK(usage_error_of("--rcvbuf", ARGS("--rcvbuf", "0")));
	CHECK(usage_error_of("--replay", ARGS("--replay=x")));
	CHECK(usage_error_of("--poll", ARGS("--poll", "")));
	CHECK(usage_error_of("--poll", ARGS("--poll", "/sys/a", "")));
	CHECK(usage_error_of("--json", ARGS("--json=1")));
	CHECK(usage_error_of("unknown option '--nosuch'", ARGS("--nosuch")));
	/* A missing value, for each option that takes one */
	CHECK(usage_error_of("--exec: missing value", ARGS("--exec")));
	CHECK(usage_error_of("--exec-timeout: missing value",
			     ARGS("--exec", "true", "--exec-timeout")));
	CHECK(usage_error_of("--format: missing value", ARGS("--format")));
	CHECK(usage_error_of("--class: missing value", ARGS("--class")));
	CHECK(usage_error_of("--attr: missing value", ARGS("--attr")));
	CHECK(usage_error_of("--path: missing value", ARGS("--path")));
	CHECK(usage_error_of("--subsystem: missing value",
			     ARGS("--subsystem")));
	CHECK(usage_error_of("--count: missing value", ARGS("-n")));
	CHECK(usage_error_of("--timeout: missing value", ARGS("--timeout")));
	CHECK(usage_error_of("--rcvbuf: missing value", ARGS("--rcvbuf")));
}

UNIT_TEST(test_options_exec)
{
	struct watch_options o;
	char err[256];
	int64_t ms;

	CHECK(unit_parse_args(&o, err, sizeof(err), ARGS("--json")) == 0 && !o.exec &&
	      o.exec_timeout_ms == EXEC_TIMEOUT_DEFAULT_MS);
	watch_options_free(&o);
	CHECK(unit_parse_args(&o, err, sizeof(err),
		    ARGS("--exec", "echo $KEVENT_VALUE", "--exec-timeout",
			 "0.5")) == 0 &&
	      o.exec && strcmp(o.exec, "echo $KEVENT_VALUE") == 0 &&
	      o.exec_timeout_ms == 500);
	watch_options_free(&o);
	CHECK(unit_parse_args(&o, err, sizeof(err),
		    ARGS("--exec=true", "--exec-timeout=0", "--json")) == 0 &&
	      o.exec && o.exec_timeout_ms == 0 && o.json);
	watch_options_free(&o);
	/* Non-empty patterns and names are still taken */
	CHECK(unit_parse_args(&o, err, sizeof(err),
		    ARGS("--attr", "*", "--path", "/d*", "--subsystem",
			 "hwmon")) == 0 &&
	      o.n_attr_globs == 1 && o.n_path_globs == 1 &&
	      o.n_subsystems == 1);
	watch_options_free(&o);

	CHECK(parse_seconds("--exec-timeout", "2.25", &ms, err, sizeof(err)) ==
		      0 &&
	      ms == 2250);
	/* The syntax of --sample's interval, as every time option's */
	CHECK(parse_seconds("--exec-timeout", "1s", &ms, err, sizeof(err)) ==
		      0 &&
	      ms == 1000);
	CHECK(parse_seconds("--exec-timeout", "1x", &ms, err, sizeof(err)) ==
		      -1 &&
	      strncmp(err, "--exec-timeout: invalid value '1x'", 34) == 0);
}

/* The value of @name in @env, or NULL. */
static const char *env_get(char **env, const char *name)
{
	size_t len = strlen(name);

	for (; env && *env; env++)
		if (strncmp(*env, name, len) == 0 && (*env)[len] == '=')
			return *env + len + 1;
	return NULL;
}

static size_t env_count(char **env, const char *name)
{
	size_t n = 0, len = strlen(name);

	for (; env && *env; env++)
		if (strncmp(*env, name, len) == 0 && (*env)[len] == '=')
			n++;
	return n;
}

UNIT_TEST(test_exec_env)
{
	char *base[] = { "PATH=/bin", "KEVENT_VALUE=stale", "KEVENT_OTHER=kept",
			 "KEVENT_SEQ", NULL };
	struct record r = {
		.type = RECORD_EVENT,
		.source = "kevent",
		.seq = 42,
		.time_ns = 12500000000ULL,
		.cls = "power",
		.path = "/devices/platform/kevent-demo.0",
		.attr = "temperature",
		.value = "47000\n",
		.value_len = 5,
		.unit = "mdegC",
		.subsystem = "platform",
		.coalesced = 3,
	};
	char **env;

	env = exec_env_new(&r, base);
	CHECK(env != NULL);
	CHECK_STR(env_get(env, "PATH"), "/bin");
	CHECK_STR(env_get(env, "KEVENT_OTHER"), "kept");
	CHECK(env_count(env, "KEVENT_VALUE") == 1);
	CHECK_STR(env_get(env, "KEVENT_TYPE"), "event");
	CHECK_STR(env_get(env, "KEVENT_SOURCE"), "kevent");
	CHECK_STR(env_get(env, "KEVENT_SEQ"), "42");
	CHECK_STR(env_get(env, "KEVENT_TIME"), "12.500000");
	CHECK_STR(env_get(env, "KEVENT_CLASS"), "power");
	CHECK_STR(env_get(env, "KEVENT_PATH"),
		  "/devices/platform/kevent-demo.0");
	CHECK_STR(env_get(env, "KEVENT_ATTR"), "temperature");
	CHECK_STR(env_get(env, "KEVENT_VALUE"), "47000");
	CHECK_STR(env_get(env, "KEVENT_ERROR"), "");
	CHECK_STR(env_get(env, "KEVENT_UNIT"), "mdegC");
	CHECK_STR(env_get(env, "KEVENT_SUBSYSTEM"), "platform");
	CHECK_STR(env_get(env, "KEVENT_COALESCED"), "3");
	exec_env_free(env);

	/* An unreadable value of a state without unit or subsystem */
	r = (struct record){
		.type = RECORD_STATE,
		.source = "kevent",
		.path = "/devices/platform/kevent-demo.1",
		.attr = "calibration",
		.error = EACCES,
	};
	env = exec_env_new(&r, NULL);
	CHECK(env != NULL);
	CHECK_STR(env_get(env, "KEVENT_TYPE"), "state");
	CHECK_STR(env_get(env, "KEVENT_SEQ"), "");
	CHECK_STR(env_get(env, "KEVENT_CLASS"), "");
	CHECK_STR(env_get(env, "KEVENT_VALUE"), "");
	CHECK_STR(env_get(env, "KEVENT_ERROR"), "EACCES");
	CHECK_STR(env_get(env, "KEVENT_UNIT"), "");
	CHECK_STR(env_get(env, "KEVENT_SUBSYSTEM"), "");
	CHECK_STR(env_get(env, "KEVENT_COALESCED"), "");
	exec_env_free(env);

	/* Not escaped; cut at a NUL byte; no sequence number for poll */
	r = (struct record){
		.type = RECORD_EVENT,
		.source = "poll",
		.no_seq = true,
		.path = "/devices/x",
		.attr = "label",
		.value = "a\tb\\c\0d",
		.value_len = 7,
	};
	env = exec_env_new(&r, NULL);
	CHECK_STR(env_get(env, "KEVENT_VALUE"), "a\tb\\c");
	CHECK_STR(env_get(env, "KEVENT_SEQ"), "");
	CHECK_STR(env_get(env, "KEVENT_COALESCED"), "0");
	exec_env_free(env);
}

static const char *describe(const char *cmd, int64_t timeout_ms,
			    enum exec_end end, int status)
{
	static struct sbuf sb;
	struct exec_result res = { .end = end, .status = status };

	sbuf_free(&sb);
	if (!exec_describe(&sb, cmd, timeout_ms, &res)) {
		sbuf_free(&sb);
		return "(nothing)";
	}
	return sbuf_str(&sb);
}

UNIT_TEST(test_exec_describe)
{
	CHECK_STR(describe("exit 3", 10000, EXEC_EXITED, 3),
		  "--exec: 'exit 3' exited with status 3");
	CHECK_STR(describe("true", 10000, EXEC_EXITED, 0), "(nothing)");
	CHECK_STR(describe("true", 10000, EXEC_STOPPED, 0), "(nothing)");
	CHECK_STR(describe("kill -9 $$", 10000, EXEC_SIGNALED, SIGKILL),
		  "--exec: 'kill -9 $$' killed by signal SIGKILL");
	CHECK_STR(describe("sleep 100", 1000, EXEC_TIMED_OUT, 0),
		  "--exec: 'sleep 100' timed out after 1 s, killed");
	CHECK_STR(describe("sleep 100", 1500, EXEC_TIMED_OUT, 0),
		  "--exec: 'sleep 100' timed out after 1.5 s, killed");
	CHECK_STR(describe("sleep 100", 250, EXEC_TIMED_OUT, 0),
		  "--exec: 'sleep 100' timed out after 0.25 s, killed");
	CHECK_STR(
		describe("a\nb", 1000, EXEC_FAILED, EAGAIN),
		"--exec: cannot run 'a\\nb': Resource temporarily unavailable");
	describe(NULL, 0, EXEC_STOPPED, 0);
}

static uint64_t ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Run @cmd with @env, or with a PATH only. */
static struct exec_result run(const char *cmd, int64_t timeout_ms,
			      volatile sig_atomic_t *stop)
{
	static char *env[] = { "PATH=/usr/bin:/bin", "KEVENT_ATTR=label",
			       NULL };
	volatile sig_atomic_t none = 0;
	struct exec_result res;

	exec_run(cmd, env, timeout_ms, stop ? stop : &none, &res);
	return res;
}

/* Has process @pid gone (or become a zombie, a matter of being reaped)? */
static bool gone(pid_t pid)
{
	char path[64], buf[256], *p;
	uint64_t end = ms_now() + 5000;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	while (ms_now() < end) {
		f = fopen(path, "re");
		if (!f)
			return true;
		p = fgets(buf, sizeof(buf), f);
		fclose(f);
		p = p ? strrchr(buf, ')') : NULL;
		if (p && p[1] == ' ' && p[2] == 'Z')
			return true;
		usleep(20000);
	}
	return false;
}

UNIT_TEST(test_exec_run)
{
	char dir[] = "/tmp/kevent-unit-XXXXXX", cmd[256], path[128];
	volatile sig_atomic_t stop = SIGTERM;
	struct exec_result res;
	uint64_t start;
	FILE *f;
	int pid = 0;

	res = run("exit 3", 0, NULL);
	CHECK(res.end == EXEC_EXITED && res.status == 3);
	res = run("true", 5000, NULL);
	CHECK(res.end == EXEC_EXITED && res.status == 0);
	res = run("kill -9 $$", 5000, NULL);
	CHECK(res.end == EXEC_SIGNALED && res.status == SIGKILL);
	/* The environment is the one given; standard input is /dev/null */
	res = run("[ \"$KEVENT_ATTR\" = label ] && ! read -r line", 5000, NULL);
	CHECK(res.end == EXEC_EXITED && res.status == 0);
	/* Its own process group */
	res = run("[ \"$(ps -o pgid= -p $$)\" -eq $$ ]", 5000, NULL);
	CHECK(res.end == EXEC_EXITED && res.status == 0);

	/*
	 * Past the timeout, the command is killed promptly. Whether SIGTERM
	 * comes before or after the shell started, the outcome is the same.
	 */
	start = ms_now();
	res = run("sleep 30", 200, NULL);
	CHECK(res.end == EXEC_TIMED_OUT);
	CHECK(ms_now() - start < 200 + EXEC_GRACE_MS + 5000);

	/*
	 * The commands below ask for their own end, with SIGTERM to
	 * kevent-watch (the test), once they are set up: a timer could fire
	 * before the shell has run its first line (under valgrind the child
	 * is slow to reach execve()), and a shell killed then has neither
	 * started its background job nor set its trap.
	 */
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/pid", dir);
	snprintf(cmd, sizeof(cmd),
		 "sleep 30 & echo $! > %s; kill -TERM $PPID; wait", path);
	stop = 0;
	start = ms_now();
	res = run(cmd, 0, &stop);
	CHECK(res.end == EXEC_STOPPED && stop == SIGTERM);
	CHECK(ms_now() - start < EXEC_GRACE_MS + 5000);
	/* The whole group is killed */
	f = fopen(path, "re");
	CHECK(f && fscanf(f, "%d", &pid) == 1 && pid > 0);
	if (f)
		fclose(f);
	CHECK(pid > 0 && gone(pid));
	/* One that ignores SIGTERM gets SIGKILL after the grace */
	stop = 0;
	start = ms_now();
	res = run("trap '' TERM; sleep 30 & kill -TERM $PPID; wait; wait", 0,
		  &stop);
	CHECK(res.end == EXEC_STOPPED && stop == SIGTERM);
	CHECK(ms_now() - start >= EXEC_GRACE_MS);
	CHECK(ms_now() - start < EXEC_GRACE_MS + 5000);

	/* Nothing runs once kevent-watch is stopping */
	stop = SIGTERM;
	snprintf(cmd, sizeof(cmd), "touch %s/ran", dir);
	res = run(cmd, 0, &stop);
	CHECK(res.end == EXEC_STOPPED);
	snprintf(path, sizeof(path), "%s/ran", dir);
	CHECK(access(path, F_OK) < 0);
	unlink(path);
	snprintf(path, sizeof(path), "%s/pid", dir);
	unlink(path);
	rmdir(dir);
}
