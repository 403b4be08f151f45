#ifndef ROLLING_VERIFY_REPORT_H
#define ROLLING_VERIFY_REPORT_H

#include "../lib/verify.h"

/*
 * The human report of one verification, shared by `verify` and
 * `fetch` so that a failure reads the same wherever it is found.
 */
struct rolling_verify_report {
	git_repository *repo;                     /* for the ids' abbreviations */
	const char *name;                         /* the branch or revision as named */
	const struct rolling_verify_result *result;
	const struct rolling_tags *tags;
	const git_oid *since;                     /* NULL: a full verification */
	int rebuild, signatures;
	int color;
};

/*
 * One failure on standard error, as every command words it:
 *   error: <name>: <commit>: <check>: expected <what>, found <what>
 */
void rolling_verify_print_failure(const char *name, const struct rolling_verify_failure *f);

/* Each failure of the report, then whether verification stopped early. */
void rolling_verify_print_failures(const struct rolling_verify_report *report);

/* The tip, the extent, the series switches and the verdict on standard output. */
void rolling_verify_print_report(const struct rolling_verify_report *report);

#endif
