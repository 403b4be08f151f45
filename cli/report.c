#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "report.h"

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
