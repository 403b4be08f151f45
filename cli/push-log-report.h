#ifndef ROLLING_PUSH_LOG_REPORT_H
#define ROLLING_PUSH_LOG_REPORT_H

#include "../lib/push-log.h"

/*
 * What the push log said about a tip, as verify, fetch and pull print
 * it: each failure as "error: <name>: push log: <check>: <message>" on
 * stderr, then (unless quiet) who published the tip and when, whether it
 * is the newest push (a warning when it is not and that is no failure),
 * and the chain checked since the push last checked, on stdout.
 */
void rolling_push_log_print_failures(const char *name, const struct rolling_push_log_result *r);
void rolling_push_log_print_report(const char *name, const struct rolling_push_log_options *o,
				   const struct rolling_push_log_result *r);

#endif
