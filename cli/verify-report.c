#include <stdio.h>
#include "text.h"
#include "wrapper.h"
#include "../lib/abbrev.h"
#include "../lib/quote.h"
#include "verify-report.h"
#include "color.h"
#include "report.h"

void rolling_verify_print_failure(const char *name, const struct rolling_verify_failure *f)
{
	char hex[GIT_OID_HEXSZ + 1];

	error("%s: %s: %s: expected %s, found %s", qtext(name),
	      git_oid_tostr(hex, sizeof(hex), &f->commit), rolling_verify_check_name(f->check),
	      qtext(f->expected), qtext(f->found));
}

void rolling_verify_print_failures(const struct rolling_verify_report *report)
{
	const struct rolling_verify_result *r = report->result;
	size_t i;

	for (i = 0; i < r->failures_nr; i++)
		rolling_verify_print_failure(report->name, &r->failures[i]);
	if (r->truncated)
		error("%s: stopped after %d failures", qtext(report->name), ROLLING_VERIFY_MAX_FAILURES);
}

static void print_extent(const struct rolling_verify_report *report)
{
	const struct rolling_verify_result *r = report->result;
	char a[ROLLING_ABBREV_BUFSZ];

	printf("%s: %zu step%s", qtext(report->name), r->steps_nr, r->steps_nr == 1 ? "" : "s");
	if (report->since && r->since_found && r->since_release)
		printf(" since %s (%s)\n", qtext(r->since_release->name),
		       rolling_abbrev(a, report->repo, report->since));
	else if (report->since && r->since_found)
		/* A commit of the chain that is neither a step nor a release. */
		printf(" since %s\n", rolling_abbrev(a, report->repo, report->since));
	else if (r->has_base)
		printf(" from base %s (%s)\n", qtext(r->base_release->name),
		       rolling_abbrev(a, report->repo, &r->base));
	else
		printf(", no base release reached\n");
}

void rolling_verify_print_report(const struct rolling_verify_report *report)
{
	const struct rolling_verify_result *r = report->result;
	char a[ROLLING_ABBREV_BUFSZ], from[ROLLING_SERIES_BUFSZ], to[ROLLING_SERIES_BUFSZ];
	struct strbuf quoted = STRBUF_INIT;
	const char *name;
	size_t i;

	/* Held apart from qtext()'s ring: the loop below turns it over. */
	rolling_quote_line(&quoted, report->name);
	name = xstrbuf(&quoted);

	printf("%s: tip %s (%s)\n", name, r->tip_release ? qtext(r->tip_release->name) :
	       "is not a rolling merge or a release", rolling_abbrev(a, report->repo, &r->tip));
	print_extent(report);
	for (i = 0; i < r->switches_nr; i++) {
		const struct rolling_verify_switch *s = &r->switches[i];

		printf("%s: series %s -> %s at %s (%s -> %s)\n", name,
		       rolling_series_format(from, &s->from->version.series),
		       rolling_series_format(to, &s->to->version.series),
		       rolling_abbrev(a, report->repo, &s->merge), qtext(s->from->name), qtext(s->to->name));
	}
	printf("%s: ", name);
	if (r->failures_nr) {
		rolling_color_printf(report->color, ROLLING_COLOR_RED, "FAILED");
		printf(" (%zu failure%s%s)\n", r->failures_nr, r->failures_nr == 1 ? "" : "s",
		       r->truncated ? ", stopped early" : "");
		strbuf_release(&quoted);
		return;
	}
	rolling_color_printf(report->color, ROLLING_COLOR_GREEN, "verified");
	if (report->rebuild)
		printf(", merges rebuilt bit for bit");
	if (report->signatures)
		printf(", %zu release signature%s good", r->signatures_good,
		       r->signatures_good == 1 ? "" : "s");
	printf("\n");
	strbuf_release(&quoted);
}
