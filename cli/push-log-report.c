#include <stdio.h>
#include <string.h>
#include "push-log-report.h"
#include "report.h"
#include "text.h"

void rolling_push_log_print_failures(const char *name, const struct rolling_push_log_result *r)
{
	size_t i;

	for (i = 0; i < r->failures_nr; i++)
		error("%s: push log: %s: %s", qtext(name),
		      rolling_push_log_check_name(r->failures[i].check),
		      qtext(r->failures[i].message));
}

static const char *short_ref(const char *ref)
{
	return !strncmp(ref, "refs/heads/", 11) ? ref + 11 : ref;
}

void rolling_push_log_print_report(const char *name, const struct rolling_push_log_options *o,
				   const struct rolling_push_log_result *r)
{
	char hex[GIT_OID_HEXSZ + 1], date[32];
	int unbroken = 1;
	size_t i;

	for (i = 0; i < r->failures_nr; i++) {
		if (r->failures[i].check == ROLLING_PUSH_LOG_RECORD ||
		    r->failures[i].check == ROLLING_PUSH_LOG_GROWS)
			return;
		if (r->failures[i].check == ROLLING_PUSH_LOG_UNBROKEN)
			unbroken = 0;
	}
	if (r->published)
		printf("%s: published by %s (%s) on %s, push %u.git %.12s\n", qtext(name),
		       qtext(r->signer), qtext(r->fingerprint),
		       rolling_push_log_date(date, sizeof(date), r->tip_entry.time),
		       r->tip_entry.epoch, git_oid_tostr(hex, sizeof(hex), &r->tip_entry.commit));
	if (r->has_newest && !r->later && r->tip_found)
		printf("%s: the newest push to %s the push log records\n", qtext(name),
		       qtext(short_ref(o->ref)));
	else if (r->has_newest && r->later && !o->require_latest)
		fprintf(stderr, "warning: %s: the push log records %zu later push%s to %s, newest"
			" %.12s on %s: this copy is behind\n", qtext(name), r->later,
			r->later == 1 ? "" : "es", qtext(short_ref(o->ref)),
			git_oid_tostr(hex, sizeof(hex), &r->newest.new_id),
			rolling_push_log_date(date, sizeof(date), r->newest.time));
	if (r->has_checked && unbroken)
		printf("%s: push chain unbroken from %.12s, %zu push%s\n", qtext(name),
		       git_oid_tostr(hex, sizeof(hex), &r->checked), r->chain_nr,
		       r->chain_nr == 1 ? "" : "es");
}
