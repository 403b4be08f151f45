#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <inttypes.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include "progress.h"
#include "wrapper.h"

#define DEFAULT_DELAY 2
#define DEFAULT_COLUMNS 80

struct rolling_progress {
	char *title;
	uint64_t total;
	uint64_t last_value;
	int started;            /* past the delay: stop writes the final line */
	int last_percent;
	unsigned delay;         /* timer ticks still to wait */
	size_t last_len;        /* of the counters, to blank what a shorter line leaves */
	int split;              /* the title is on a line of its own */
};

/* Set once a second by the timer, as git's progress_update. */
static volatile sig_atomic_t progress_tick;

static void on_alarm(int signo)
{
	(void)signo;
	progress_tick = 1;
}

static void set_timer(int on)
{
	struct itimerval v = { { on, 0 }, { on, 0 } };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on ? on_alarm : SIG_IGN;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &v, NULL);
}

int rolling_progress_wanted(int option, int quiet)
{
	return option >= 0 ? option : !quiet && isatty(2);
}

/* GIT_PROGRESS_DELAY: seconds, as a non-negative integer; else 2. */
static unsigned delay_from_env(void)
{
	const char *value = getenv("GIT_PROGRESS_DELAY");
	char *end;
	unsigned long n;

	if (!value || !*value)
		return DEFAULT_DELAY;
	n = strtoul(value, &end, 10);
	return *end || value[0] == '-' ? DEFAULT_DELAY : (unsigned)n;
}

/* git's term_columns(): $COLUMNS, else the terminal's width, else 80. */
static size_t term_columns(void)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;

	if (env && atoi(env) > 0)
		return (size_t)atoi(env);
	if (!ioctl(1, TIOCGWINSZ, &ws) && ws.ws_col)
		return ws.ws_col;
	return DEFAULT_COLUMNS;
}

/* In the background of its terminal a process keeps quiet (git's is_foreground_fd). */
static int is_foreground(int fd)
{
	pid_t group = tcgetpgrp(fd);

	return group < 0 || group == getpgid(0);
}

static struct rolling_progress *terminal_start(const char *title, uint64_t total)
{
	struct rolling_progress *p;

	p = xcalloc(1, sizeof(*p));
	p->title = xstrdup(title);
	p->total = total;
	p->last_percent = -1;
	p->delay = delay_from_env();
	progress_tick = 0;
	set_timer(1);
	return p;
}

static void show(struct rolling_progress *p, const char *counters, const char *eol, int done)
{
	size_t len = strlen(counters), cols = term_columns();
	int clear = len < p->last_len ? (int)(p->last_len - len + 1) : 0;

	if (p->split) {
		fprintf(stderr, "  %s%*s", counters, clear, eol);
	} else if (!done && cols < strlen(p->title) + len + 2) {
		clear = strlen(p->title) + 1 < cols ? (int)(cols - strlen(p->title) - 1) : 0;
		fprintf(stderr, "%s:%*s\n  %s%s", p->title, clear, "", counters, eol);
		p->split = 1;
	} else {
		fprintf(stderr, "%s: %s%*s", p->title, counters, clear, eol);
	}
	fflush(stderr);
	p->last_len = len;
}

static void display(struct rolling_progress *p, uint64_t n, const char *done)
{
	char counters[96];
	int update = 0;

	if (p->delay && (!progress_tick || --p->delay))
		return;
	p->started = 1;
	p->last_value = n;
	if (p->total) {
		int percent = (int)(n * 100 / p->total);

		if (percent != p->last_percent || progress_tick) {
			p->last_percent = percent;
			snprintf(counters, sizeof(counters), "%3d%% (%" PRIu64 "/%" PRIu64 ")",
				 percent, n, p->total);
			update = 1;
		}
	} else if (progress_tick) {
		snprintf(counters, sizeof(counters), "%" PRIu64, n);
		update = 1;
	}
	if (!update)
		return;
	if (done || is_foreground(2))
		show(p, counters, done ? done : "\r", !!done);
	progress_tick = 0;
}

static void terminal_update(struct rolling_progress *p, uint64_t n)
{
	display(p, n, NULL);
}

static void terminal_stop(struct rolling_progress *p)
{
	set_timer(0);
	/* Only a meter that got past its delay says it is done. */
	if (p->started) {
		progress_tick = 1;
		display(p, p->last_value, ", done.\n");
	}
	free(p->title);
	free(p);
}

const struct rolling_progress_display rolling_terminal_progress = {
	terminal_start, terminal_update, terminal_stop,
};
