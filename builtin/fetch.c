/*
 * git rolling fetch: fetch rolling branches into a quarantine, verify
 * their new steps, and only then let any ref see them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <git2.h>
#include "../cli/text.h"
#include "../cli/usage.h"
#include "../cli/main.h"
#include "../cli/color.h"
#include "../cli/verify-report.h"
#include "../lib/abbrev.h"
#include "../lib/fetch-plan.h"
#include "../lib/lockfile.h"
#include "../lib/quarantine.h"
#include "../lib/refs.h"
#include "../lib/repo.h"
#include "../lib/push-log-config.h"
#include "../cli/push-log-report.h"

static const char *const fetch_usage[] = {
	"git rolling fetch [--[no-]signatures] [--allow-rewind] [-q]\n"
	"                         [--preset <name> | --release-pattern <regex> --mainline-pattern <regex>]\n"
	"                         <remote> [<branch>...]",
	NULL,
};

struct fetch_options {
	struct rolling_scheme_options scheme;
	int signatures;          /* -1: as configured */
	int allow_rewind;
	int quiet;
	int color;
};

/* --- into the quarantine ------------------------------------------------ */

/* die() exits: the quarantine must not outlive the process even then. */
static struct rolling_quarantine *active_quarantine;

static void remove_quarantine(void)
{
	if (active_quarantine)
		rolling_quarantine_destroy(active_quarantine);
	active_quarantine = NULL;
}

static void create_quarantine(struct rolling_quarantine *q, git_repository *repo)
{
	if (rolling_quarantine_create(q, repo) < 0)
		die_last_error();
	active_quarantine = q;
	atexit(remove_quarantine);
	if (rolling_quarantine_add_to(q, repo) < 0)
		die_last_error();
}

/* --- verification ------------------------------------------------------- */

/*
 * With rolling.<branch>.pushLog: the tip the server offers must be the
 * one the push log says was published (verify --push-log's checks),
 * before any ref moves.  Returns 1 when a check failed.
 */
static int check_push_log(struct rolling_fetch_plan *p, const struct rolling_fetch_branch *f,
			  const struct fetch_options *o)
{
	struct rolling_push_log_config cfg;
	struct rolling_push_log_options po;
	struct rolling_push_log_result r;
	int failed;

	if (rolling_push_log_config_for_remote(&cfg, p->repo, p->remote, f->branch) < 0)
		die_error_context("%s", f->name);
	if (!cfg.log) {
		rolling_push_log_config_release(&cfg);
		return 0;
	}
	if (rolling_push_log_config_defaults(&cfg, p->repo, "rolling.<branch>.pushLogRepo",
					     "rolling.<branch>.pushLogRef") < 0)
		die_error_context("%s", f->name);
	rolling_push_log_config_options(&po, &cfg);
	if (rolling_push_log_check(&r, p->repo, &f->tip, &po) < 0)
		die_error_context("%s: push log %s", f->name, po.log);
	rolling_push_log_print_failures(f->name, &r);
	if (!o->quiet)
		rolling_push_log_print_report(f->name, &po, &r);
	failed = r.failures_nr != 0;
	rolling_push_log_result_release(&r);
	rolling_push_log_config_release(&cfg);
	return failed;
}

/* Verify every changed branch and report; returns how many failed. */
static size_t verify_all(struct rolling_fetch_plan *p, const struct rolling_quarantine *q,
			 const struct fetch_options *o)
{
	/* git verify-tag, run for --signatures, must see the quarantined tags. */
	char *quarantine = realpath(q->path, NULL);
	size_t i, failed = 0;

	if (!quarantine)
		die("cannot read the quarantine %s: %s", q->path, strerror(errno));
	for (i = 0; i < p->nr; i++) {
		struct rolling_fetch_branch *f = &p->branches[i];
		struct rolling_verify_report report = { p->repo, f->name, &f->result, &p->tags, NULL, 0,
							p->signatures, o->color };

		if (rolling_fetch_branch_unchanged(f))
			continue;
		if (rolling_fetch_plan_verify(p, f, o->allow_rewind, quarantine) < 0)
			die_error_context("%s", f->name);
		report.since = f->has_verified && !f->rewound ? &f->verified : NULL;
		rolling_verify_print_failures(&report);
		if (!o->quiet || f->result.failures_nr)
			rolling_verify_print_report(&report);
		failed += (f->result.failures_nr != 0) | check_push_log(p, f, o);
	}
	free(quarantine);
	return failed;
}

/* --- the report --------------------------------------------------------- */

/* Another process moved the refs meanwhile, to what this run accepts. */
static void report_race(git_repository *repo, const struct rolling_fetch_branch *f)
{
	char a[ROLLING_ABBREV_BUFSZ], b[ROLLING_ABBREV_BUFSZ];

	if (f->raced == ROLLING_RACE_SAME)
		fprintf(stderr, "%s: another process updated it meanwhile to %s,"
			" the tip this fetch verified\n", qtext(f->name),
			rolling_abbrev(a, repo, &f->tip));
	else if (f->raced == ROLLING_RACE_DESCENDANT)
		fprintf(stderr, "%s: another process updated it meanwhile to %s, which descends"
			" from %s, the tip this fetch verified, and verifies since it\n", qtext(f->name),
			rolling_abbrev(a, repo, &f->tip), rolling_abbrev(b, repo, &f->verified_tip));
}

static void report_update(git_repository *repo, const struct rolling_fetch_branch *f)
{
	char a[ROLLING_ABBREV_BUFSZ], b[ROLLING_ABBREV_BUFSZ];
	const char *tip = rolling_abbrev(b, repo, &f->tip);

	if (rolling_fetch_branch_unchanged(f) && !f->raced) {
		printf("%s: up to date at %s\n", qtext(f->name), tip);
		return;
	}
	if (f->rewound) {
		rolling_warning("%s: rewound: %s is not on the new chain; accepted after a full"
				" verify (--allow-rewind)", f->name,
				rolling_abbrev(a, repo, &f->was_verified));
		printf("%s: forced update %s...%s\n", qtext(f->name), a, tip);
	} else if (f->had_verified) {
		printf("%s: updated %s..%s\n", qtext(f->name),
		       rolling_abbrev(a, repo, &f->was_verified), tip);
	} else {
		printf("%s: verified for the first time at %s\n", qtext(f->name), tip);
	}
}

/* --- the command -------------------------------------------------------- */

static int cmd_fetch(int argc, const char **argv)
{
	struct fetch_options o = { .signatures = -1 };
	const struct rolling_option options[] = {
		OPT_FETCH_SIGNATURES(&o.signatures),
		OPT_SWITCH(0, "allow-rewind", &o.allow_rewind,
			   "accept a rewound or rewritten branch after a full verify"),
		OPT_TAG_SCHEME_READ(&o.scheme),
		OPT__QUIET(&o.quiet),
		OPT_END(),
	};
	struct rolling_quarantine q;
	struct rolling_fetch_plan p;
	git_repository *repo;
	size_t i, failed;
	int err, fetched;

	argc = parse_options_or_usage(argc, argv, "fetch", options, fetch_usage);
	if (argc < 1)
		usage_with_options(fetch_usage, options);
	if (rolling_repo_open(&repo) < 0 || rolling_want_color(&o.color, repo) < 0)
		die_last_error();
	if (rolling_fetch_plan_init(&p, repo, argv[0], argv + 1, (size_t)argc - 1, o.signatures,
				    &o.scheme) < 0)
		die_last_error();
	create_quarantine(&q, repo);
	/*
	 * One connection to the server: the tips and the tags together
	 * (fetch-plan.h).  git's progress where git would show it.
	 */
	fetched = rolling_fetch_plan_read(&p) >= 0 &&
		  rolling_fetch_plan_fetch(&p, &q, !o.quiet && isatty(2)) >= 0;
	/* git relayed the server's text to the terminal, raw: ours comes after. */
	terminal_reset_after_child();
	if (!fetched || rolling_fetch_plan_needed_tags(&p) < 0 || rolling_fetch_plan_add_tags(&p) < 0)
		die_last_error();

	if ((failed = verify_all(&p, &q, &o))) {
		remove_quarantine();
		error("%s: %zu branch%s failed verification; nothing was updated and"
		      " nothing fetched was kept", p.remote, failed, failed == 1 ? "" : "es");
		rolling_fetch_plan_release(&p);
		rolling_repo_free(repo);
		return 1;
	}
	if (rolling_quarantine_migrate(&q) < 0)
		die_last_error();
	if ((err = rolling_fetch_plan_update_refs(&p)) == ROLLING_EPARTIAL)
		die("%s", rolling_last_error());
	else if (err == ROLLING_ELOCKED)   /* git's advice ends in a sentence of its own */
		die("%s\nnothing was updated", rolling_last_error());
	else if (err < 0)
		die("%s; nothing was updated", rolling_last_error());
	remove_quarantine();
	for (i = 0; i < p.nr; i++) {
		report_race(repo, &p.branches[i]);
		if (!o.quiet || p.branches[i].rewound)
			report_update(repo, &p.branches[i]);
	}
	rolling_fetch_plan_release(&p);
	rolling_repo_free(repo);
	return 0;
}

ROLLING_MAIN(cmd_fetch)
