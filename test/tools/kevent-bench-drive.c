// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-bench-drive - drive the demo sensor's bench control and time what
 * a consumer of its events prints, for the benchmarks (scripts/bench)
 *
 * Usage: CONSUMER | kevent-bench-drive (--knob FILE | --knob-cmd PROG)
 *                 --attr-file FILE
 *                 [--pid PID] [--match STR] [--value-key STR]
 *                 [--expect N] [--idle SEC] [--timeout SEC]
 *                 (--burst "METHOD N" |
 *                  --paced METHOD COUNT MS [--samples FILE])
 *
 * The consumer's output comes on stdin; a line that contains STR (--match,
 * default: every line) is one event it reported. --value-key names what
 * precedes the value on such a line (such as "value":" for kevent-watch
 * --json, or = for "PATH ATTR=VALUE"; an empty key: the line is the value);
 * without it, lines carry no value. --knob is the bench control, written
 * "METHOD N"; --knob-cmd PROG, in its place, a program run as PROG METHOD N
 * (waited for; a status other than 0 fails the run), for notifications
 * that come from user space, such as link changes. --attr-file is the
 * attribute either changes, read once at the start.
 * --pid is the consumer's process: the run starts once it waits for events,
 * and its CPU time and memory are reported.
 *
 * --burst "METHOD N": one write of N notifications, from a child process,
 *   while this one reads. It ends once N events came (--expect N), or else
 *   once the final value (start + N) was seen; then, or if neither happens,
 *   after --idle seconds (default 2) without a line once the burst is over,
 *   or at --timeout (default 600). elapsed_ns runs from the write to the
 *   event that ended it (the last event, when it ended idle).
 * --paced METHOD COUNT MS: COUNT writes of "METHOD 1", MS milliseconds
 *   apart; each waits (up to 2 s, else counted as missed) for the event
 *   that shows the new value, or the next event when lines carry none, and
 *   its latency is the time from before the write to that line. A step
 *   before them, not counted, warms the consumer up. --samples FILE adds
 *   each latency, in nanoseconds, as a line to FILE.
 *
 * Prints key=value lines: events, values, last_value, final, final_seen
 * (1, 0 or - without values), end (expect, final, idle or timeout),
 * elapsed_ns, burst_ns, cpu_ns (the consumer's CPU time during the run, from
 * /proc/PID/schedstat), rss_kb, hwm_kb; for --paced also missed,
 * lat_median_ns, lat_p99_ns, lat_max_ns. Exit status 0, 1 on a failure
 * (message on stderr), 2 on a usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PROG "kevent-bench-drive"
#define LINE_MAX_LEN (1 << 16)

struct opts {
	const char *knob;
	const char *knob_cmd;
	const char *attr_file;
	const char *match;
	const char *value_key;
	pid_t pid;
	long expect;
	double idle;
	double timeout;
	const char *burst;
	const char *paced_method;
	const char *samples;
	long paced_count;
	long paced_ms;
};

struct reader {
	char buf[LINE_MAX_LEN * 2];
	size_t len;
	size_t off;
	bool eof;
};

static struct opts o = { .match = "", .idle = 2, .timeout = 600 };
static struct reader rd;

static void fail(const char *fmt, const char *arg)
{
	fprintf(stderr, PROG ": ");
	fprintf(stderr, fmt, arg, strerror(errno));
	fputc('\n', stderr);
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static long long read_number(const char *file)
{
	char buf[64];
	ssize_t n;
	int fd;

	fd = open(file, O_RDONLY);
	if (fd < 0)
		fail("cannot open %s: %s", file);
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0)
		fail("cannot read %s: %s", file);
	close(fd);
	buf[n] = '\0';
	return strtoll(buf, NULL, 10);
}

static void knob_write(const char *method, long n)
{
	char cmd[128];
	int fd, len, status;
	pid_t pid;

	len = snprintf(cmd, sizeof(cmd), "%s %ld", method, n);
	if (o.knob_cmd) {
		snprintf(cmd, sizeof(cmd), "%ld", n);
		pid = fork();
		if (pid < 0)
			fail("fork%s: %s", "");
		if (pid == 0) {
			execl(o.knob_cmd, o.knob_cmd, method, cmd, (char *)NULL);
			fprintf(stderr, PROG ": cannot run %s: %s\n", o.knob_cmd,
				strerror(errno));
			_exit(127);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0) {
			fprintf(stderr, PROG ": %s %s failed\n", o.knob_cmd,
				cmd);
			exit(1);
		}
		return;
	}
	fd = open(o.knob, O_WRONLY);
	if (fd < 0)
		fail("cannot open %s: %s", o.knob);
	if (write(fd, cmd, len) != len)
		fail("cannot write to %s: %s", o.knob);
	close(fd);
}

/*
 * Is the consumer asleep in a call that waits for events? Not read(): the
 * dynamic loader sleeps in it as it reads a library.
 */
static bool consumer_waits(void)
{
	char file[64];
	long nr;
	FILE *f;

	snprintf(file, sizeof(file), "/proc/%d/syscall", (int)o.pid);
	f = fopen(file, "r");
	if (!f)
		return false;
	if (fscanf(f, "%ld", &nr) != 1)
		nr = -1;
	fclose(f);
	switch (nr) {
	case 7: case 45: case 47: case 232: case 270: case 271:
	case 281: case 299:
		return true;
	}
	return false;
}

static uint64_t consumer_cpu_ns(void)
{
	char file[64];
	unsigned long long ns = 0;
	FILE *f;

	snprintf(file, sizeof(file), "/proc/%d/schedstat", (int)o.pid);
	f = fopen(file, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%llu", &ns) != 1)
		ns = 0;
	fclose(f);
	return ns;
}

static void consumer_memory(long *rss, long *hwm)
{
	char file[64], line[256];
	FILE *f;

	*rss = *hwm = -1;
	snprintf(file, sizeof(file), "/proc/%d/status", (int)o.pid);
	f = fopen(file, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "VmRSS: %ld", rss);
		sscanf(line, "VmHWM: %ld", hwm);
	}
	fclose(f);
}

/*
 * The next line of stdin, waiting up to @wait_ns; NULL on a timeout or at
 * the end of the input.
 */
static char *next_line(uint64_t wait_ns)
{
	uint64_t deadline = now_ns() + wait_ns;
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	char *nl, *line;
	uint64_t t;
	ssize_t n;

	for (;;) {
		nl = memchr(rd.buf + rd.off, '\n', rd.len - rd.off);
		if (nl) {
			*nl = '\0';
			line = rd.buf + rd.off;
			rd.off = nl + 1 - rd.buf;
			return line;
		}
		if (rd.eof)
			return NULL;
		if (rd.off) {
			memmove(rd.buf, rd.buf + rd.off, rd.len - rd.off);
			rd.len -= rd.off;
			rd.off = 0;
		}
		if (rd.len == sizeof(rd.buf)) {
			/* A line too long to be an event: drop it */
			rd.len = 0;
		}
		t = now_ns();
		if (t >= deadline)
			return NULL;
		if (poll(&pfd, 1, (deadline - t) / 1000000 + 1) < 0) {
			if (errno == EINTR)
				continue;
			fail("poll%s: %s", "");
		}
		if (!pfd.revents)
			continue;
		n = read(STDIN_FILENO, rd.buf + rd.len, sizeof(rd.buf) - rd.len);
		if (n < 0 && errno != EINTR)
			fail("read%s: %s", "");
		if (n == 0)
			rd.eof = true;
		if (n > 0)
			rd.len += n;
	}
}

/* The value on @line, if lines carry values and this one has one */
static bool line_value(const char *line, long long *ret)
{
	const char *p;
	char *end;

	if (!o.value_key)
		return false;
	if (*o.value_key) {
		p = strstr(line, o.value_key);
		if (!p)
			return false;
		p += strlen(o.value_key);
	} else {
		p = line;
	}
	*ret = strtoll(p, &end, 10);
	return end != p;
}

static bool is_event(const char *line)
{
	return strstr(line, o.match) != NULL;
}

static void wait_ready(void)
{
	uint64_t end = now_ns() + 30ULL * 1000000000;

	if (!o.pid)
		return;
	while (!consumer_waits()) {
		if (kill(o.pid, 0) < 0 || now_ns() > end) {
			fprintf(stderr, PROG ": the consumer did not start\n");
			exit(1);
		}
		usleep(20000);
	}
}

static void report_consumer(uint64_t cpu0)
{
	long rss, hwm;

	if (!o.pid)
		return;
	consumer_memory(&rss, &hwm);
	printf("cpu_ns=%" PRIu64 "\nrss_kb=%ld\nhwm_kb=%ld\n",
	       consumer_cpu_ns() - cpu0, rss, hwm);
}

static int burst(void)
{
	char method[64];
	long n, events = 0, values = 0;
	long long start, final, value, last = -1;
	uint64_t t0, t_end = 0, t_burst = 0, cpu0, deadline, wait;
	const char *end = "timeout";
	bool final_seen = false;
	int status, pfd[2];
	pid_t child;
	char *line;

	if (sscanf(o.burst, "%63s %ld", method, &n) != 2 || n <= 0) {
		fprintf(stderr, PROG ": --burst wants \"METHOD N\"\n");
		return 2;
	}
	start = read_number(o.attr_file);
	final = start + n;
	wait_ready();
	cpu0 = o.pid ? consumer_cpu_ns() : 0;

	/* The child writes; its end on the pipe says how long it took */
	if (pipe(pfd))
		fail("pipe%s: %s", "");
	t0 = now_ns();
	child = fork();
	if (child < 0)
		fail("fork%s: %s", "");
	if (child == 0) {
		close(pfd[0]);
		knob_write(method, n);
		t_burst = now_ns();
		_exit(write(pfd[1], &t_burst, sizeof(t_burst)) !=
		      sizeof(t_burst));
	}
	close(pfd[1]);

	deadline = t0 + (uint64_t)(o.timeout * 1e9);
	for (;;) {
		if (!t_burst && waitpid(child, &status, WNOHANG) == child) {
			if (!WIFEXITED(status) || WEXITSTATUS(status) ||
			    read(pfd[0], &t_burst, sizeof(t_burst)) !=
				    sizeof(t_burst)) {
				fprintf(stderr, PROG ": the burst failed\n");
				return 1;
			}
		}
		if (now_ns() >= deadline)
			break;
		/* Idle only counts once the burst is over */
		wait = t_burst ? (uint64_t)(o.idle * 1e9) : 50000000;
		line = next_line(wait);
		if (!line) {
			if (t_burst && (!rd.eof || events)) {
				end = "idle";
				break;
			}
			if (rd.eof) {
				fprintf(stderr, PROG ": the consumer ended\n");
				return 1;
			}
			continue;
		}
		if (!is_event(line))
			continue;
		events++;
		t_end = now_ns();
		if (line_value(line, &value)) {
			values++;
			last = value;
			if (value == final && !final_seen) {
				final_seen = true;
				if (o.expect <= 0) {
					end = "final";
					break;
				}
			}
		}
		if (o.expect > 0 && events >= o.expect) {
			end = "expect";
			break;
		}
	}
	/* After the end: count what still comes, and wait for the burst */
	if (strcmp(end, "final") == 0) {
		uint64_t t_final = t_end;

		while ((line = next_line((uint64_t)(o.idle * 1e9))))
			if (is_event(line)) {
				events++;
				if (line_value(line, &value)) {
					values++;
					last = value;
				}
			}
		t_end = t_final;
	}
	if (!t_burst) {
		if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
		    WEXITSTATUS(status) ||
		    read(pfd[0], &t_burst, sizeof(t_burst)) != sizeof(t_burst)) {
			fprintf(stderr, PROG ": the burst failed\n");
			return 1;
		}
	}
	printf("events=%ld\nvalues=%ld\n", events, values);
	if (o.value_key)
		printf("last_value=%lld\nfinal=%lld\nfinal_seen=%d\n", last,
		       final, final_seen);
	else
		printf("last_value=-\nfinal=%lld\nfinal_seen=-\n", final);
	printf("end=%s\nelapsed_ns=%" PRIu64 "\nburst_ns=%" PRIu64 "\n", end,
	       t_end ? t_end - t0 : 0, t_burst - t0);
	report_consumer(cpu0);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Add the @n latencies of @lat to the --samples file, one a line */
static void write_samples(const uint64_t *lat, long n)
{
	FILE *f;
	long i;

	f = fopen(o.samples, "a");
	if (!f)
		fail("cannot open %s: %s", o.samples);
	for (i = 0; i < n; i++)
		fprintf(f, "%" PRIu64 "\n", lat[i]);
	if (fclose(f) != 0)
		fail("cannot write %s: %s", o.samples);
}

static int paced(void)
{
	long i, events = 0, missed = 0, n = 0;
	long long expected, value;
	uint64_t *lat, t0, t, deadline, cpu0;
	struct timespec ts;
	char *line;
	bool got;

	lat = calloc(o.paced_count, sizeof(*lat));
	if (!lat)
		fail("out of memory%s: %s", "");
	expected = read_number(o.attr_file);
	wait_ready();
	cpu0 = o.pid ? consumer_cpu_ns() : 0;

	/* Step -1 warms the consumer up (first use of its code paths) */
	for (i = -1; i < o.paced_count; i++) {
		expected++;
		t0 = now_ns();
		knob_write(o.paced_method, 1);
		deadline = t0 + 2000000000ULL;
		got = false;
		while (!got && (t = now_ns()) < deadline) {
			line = next_line(deadline - t);
			if (!line) {
				if (rd.eof) {
					fprintf(stderr,
						PROG ": the consumer ended\n");
					return 1;
				}
				break;
			}
			if (!is_event(line))
				continue;
			events++;
			if (!o.value_key ||
			    (line_value(line, &value) && value >= expected))
				got = true;
		}
		if (i < 0)
			events = 0;
		else if (got)
			lat[n++] = now_ns() - t0;
		else
			missed++;
		/* Let the events of this step pass before the next one */
		t = now_ns() - t0;
		if (t < (uint64_t)o.paced_ms * 1000000) {
			t = (uint64_t)o.paced_ms * 1000000 - t;
			ts.tv_sec = t / 1000000000;
			ts.tv_nsec = t % 1000000000;
			nanosleep(&ts, NULL);
		}
		/* Lines of the step that came late are not the next one's */
		while ((line = next_line(0)))
			if (is_event(line))
				events++;
	}
	if (o.samples)
		write_samples(lat, n);
	qsort(lat, n, sizeof(*lat), cmp_u64);
	printf("events=%ld\nmissed=%ld\n", events, missed);
	if (n)
		printf("lat_median_ns=%" PRIu64 "\nlat_p99_ns=%" PRIu64
		       "\nlat_max_ns=%" PRIu64 "\n",
		       lat[n / 2], lat[(n * 99 + 99) / 100 - 1], lat[n - 1]);
	report_consumer(cpu0);
	free(lat);
	return 0;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: CONSUMER | " PROG " (--knob FILE | --knob-cmd PROG)\n"
		"       --attr-file FILE [--pid PID]\n"
		"       [--match STR] [--value-key STR] [--expect N] [--idle SEC]\n"
		"       [--timeout SEC] (--burst \"METHOD N\" |\n"
		"       --paced METHOD COUNT MS [--samples FILE])\n");
	return 2;
}

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool more = i + 1 < argc;

		if (strcmp(a, "--knob") == 0 && more)
			o.knob = argv[++i];
		else if (strcmp(a, "--knob-cmd") == 0 && more)
			o.knob_cmd = argv[++i];
		else if (strcmp(a, "--attr-file") == 0 && more)
			o.attr_file = argv[++i];
		else if (strcmp(a, "--pid") == 0 && more)
			o.pid = atoi(argv[++i]);
		else if (strcmp(a, "--match") == 0 && more)
			o.match = argv[++i];
		else if (strcmp(a, "--value-key") == 0 && more)
			o.value_key = argv[++i];
		else if (strcmp(a, "--expect") == 0 && more)
			o.expect = atol(argv[++i]);
		else if (strcmp(a, "--idle") == 0 && more)
			o.idle = atof(argv[++i]);
		else if (strcmp(a, "--timeout") == 0 && more)
			o.timeout = atof(argv[++i]);
		else if (strcmp(a, "--burst") == 0 && more)
			o.burst = argv[++i];
		else if (strcmp(a, "--samples") == 0 && more)
			o.samples = argv[++i];
		else if (strcmp(a, "--paced") == 0 && i + 3 < argc) {
			o.paced_method = argv[++i];
			o.paced_count = atol(argv[++i]);
			o.paced_ms = atol(argv[++i]);
		} else
			return usage();
	}
	if (!o.knob == !o.knob_cmd || !o.attr_file || !!o.burst == !!o.paced_method ||
	    (o.paced_method && o.paced_count <= 0) ||
	    (o.samples && !o.paced_method))
		return usage();
	signal(SIGPIPE, SIG_IGN);
	return o.burst ? burst() : paced();
}
