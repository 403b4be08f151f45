#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "usage.h"
#include "wrapper.h"

/*
 * "<prefix>: <message>\n" on stderr, or "<prefix>: <message>: <cause>\n"
 * with a cause, after flushing stdout so that the two streams stay in
 * order on a terminal.  The one writer of every "warning:", "error:",
 * "hint:" and "fatal:" line.  It allocates nothing, so that it can say
 * that memory ran out.
 */
static void vreport_cause(const char *prefix, const char *fmt, va_list ap, const char *cause)
	ROLLING_PRINTF(2, 0);

static void vreport_cause(const char *prefix, const char *fmt, va_list ap, const char *cause)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", prefix);
	vfprintf(stderr, fmt, ap);
	if (cause)
		fprintf(stderr, ": %s", cause);
	fputc('\n', stderr);
}

static void vreport(const char *prefix, const char *fmt, va_list ap) ROLLING_PRINTF(2, 0);

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	vreport_cause(prefix, fmt, ap, NULL);
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
	va_list ap;

	va_start(ap, fmt);
	vreport_cause("fatal", fmt, ap, rolling_last_error());
	va_end(ap);
	exit(128);
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
	char *page = xasprintf("rolling-%s", command);

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
