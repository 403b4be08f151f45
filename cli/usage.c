#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "usage.h"

/*
 * "<prefix>: <message>\n" on stderr, after flushing stdout so that the
 * two streams stay in order on a terminal.  The one writer of every
 * "warning:", "error:", "hint:" and "fatal:" line.
 */
static void vreport(const char *prefix, const char *fmt, va_list ap) ROLLING_PRINTF(2, 0);

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

static void report(const char *prefix, const char *fmt, ...) ROLLING_PRINTF(2, 3);

static void report(const char *prefix, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(prefix, fmt, ap);
	va_end(ap);
}

void print_warning(const char *message)
{
	report("warning", "%s", message);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("fatal", fmt, ap);
	va_end(ap);
	exit(128);
}

void die_last_error(void)
{
	die("%s", rolling_last_error());
}

void die_error_context(const char *fmt, ...)
{
	char *what;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&what, fmt, ap) < 0)
		what = NULL;
	va_end(ap);
	die("%s: %s", what ? what : "?", rolling_last_error());
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error", fmt, ap);
	va_end(ap);
	return -1;
}

void hint(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("hint", fmt, ap);
	va_end(ap);
}

void usage_with_options(const char *const *usage, const struct rolling_option *options)
{
	rolling_print_usage(stderr, usage, options);
	exit(129);
}

static void show_manual(const char *command)
{
	char page[256];

	snprintf(page, sizeof(page), "rolling-%s", command);
	fflush(stdout);
	execlp("git", "git", "help", page, (char *)NULL);
	die("cannot run git help: %m");
}

int parse_options_or_usage(int argc, const char **argv, const char *command,
			   const struct rolling_option *options, const char *const *usage)
{
	int nr = rolling_parse_options(argc, argv, options);

	if (nr == ROLLING_PARSE_HELP_SHORT) {
		rolling_print_usage(stdout, usage, options);
		exit(129);
	}
	if (nr == ROLLING_PARSE_HELP_LONG)
		show_manual(command);
	if (nr == ROLLING_PARSE_COMPLETION) {
		rolling_print_completion(stdout, options);
		exit(0);
	}
	if (nr < 0) {
		error("%s", rolling_last_error());
		usage_with_options(usage, options);
	}
	return nr;
}
