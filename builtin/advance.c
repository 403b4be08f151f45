/*
 * git rolling advance: make the pending rolling steps of each branch,
 * one content-free merge per release, and move the branch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <git2.h>
#include "../lib/usage.h"
#include "../lib/setup.h"
#include "../lib/branch.h"
#include "../lib/color.h"
#include "../lib/ident.h"
#include "../lib/merge.h"
#include "../lib/repo.h"
#include "../lib/update.h"

static const char *const advance_usage[] = {
	"git rolling advance [-n | --dry-run] [--series <series>] [--porcelain] [-q] [<branch>...]",
	NULL,
};

struct advance_options {
	int dry_run;
	const char *series;
	int porcelain;
	int quiet;
	int color;
};

/* A branch to advance, with everything checked before any is moved. */
struct pending {
	struct rolling_branch b;
	struct rolling_ident ident;
	git_oid tip;
	const struct rolling_release *current;
	const struct rolling_series_info *target;
};

static const char *series_name(char *buf, const struct rolling_series *s)
{
	return rolling_series_format(buf, ROLLING_SERIES_BUFSZ, s);
}

/*
 * Which series to head for: the one asked for on the command line, else
 * the policy's, but never one behind where the branch already is.
 */
static const struct rolling_series_info *target_series(struct pending *p, const char *asked)
{
	const struct rolling_tags *tags = &p->b.tags;
	const struct rolling_series_info *current =
		rolling_tags_find_series(tags, &p->current->version.series);
	const struct rolling_series_info *target;
	char key[1024], a[ROLLING_SERIES_BUFSZ], c[ROLLING_SERIES_BUFSZ];
	struct rolling_series s;

	if (asked) {
		if (rolling_series_parse(&s, asked, tags->forms, "--series") < 0)
			die_last_error();
		if (!(target = rolling_tags_find_series(tags, &s)))
			die("series %s has no release tag", asked);
		if (rolling_series_cmp(&s, &current->series) < 0)
			die("%s: series %s is older than the current series %s:"
			    " a rolling branch never goes back",
			    p->b.config.branch, asked, series_name(c, &current->series));
		return target;
	}
	if (rolling_policy_series(&target, &p->b.policy, tags) < 0)
		return current;
	if (rolling_series_cmp(&target->series, &current->series) < 0) {
		if (p->b.policy.has_pin)
			rolling_warning("%s: %s is %s, behind the current series %s; staying on %s",
					p->b.config.branch,
					rolling_config_key(key, sizeof(key), p->b.config.branch, "pin"),
					series_name(a, &target->series),
					series_name(c, &current->series),
					series_name(c, &current->series));
		return current;
	}
	return target;
}

static void prepare(struct pending *p, git_repository *repo, const char *branch,
		    const char *asked_series)
{
	char key[1024];

	if (rolling_branch_load(&p->b, repo, branch) < 0 ||
	    rolling_ident_for(&p->ident, repo, p->b.config.ident,
			      rolling_config_key(key, sizeof(key), branch, "ident")) < 0 ||
	    rolling_branch_tip(&p->tip, repo, branch) < 0)
		die_last_error();
	if (rolling_tip_release(&p->current, repo, &p->tip, &p->b.tags, &p->b.patterns) < 0)
		die("%s: %s", branch, rolling_last_error());
	p->target = target_series(p, asked_series);
}

/*
 * The porcelain format is stable for scripts: one line per step,
 *   step <branch> <from-release> <to-release> <merge-id> <from-series> <to-series>
 * and for a branch with nothing to do
 *   current <branch> <release> <tip-id> <series>
 */
static void report_step(const struct pending *p, const struct rolling_release *from,
			const struct rolling_release *to, const git_oid *merge,
			const struct advance_options *o)
{
	char hex[GIT_OID_HEXSZ + 1], a[ROLLING_SERIES_BUFSZ], b[ROLLING_SERIES_BUFSZ];
	char text[3 * ROLLING_SERIES_BUFSZ], colored[sizeof(text) + 16];

	series_name(a, &from->version.series);
	series_name(b, &to->version.series);
	if (o->porcelain) {
		printf("step %s %s %s %s %s %s\n", p->b.config.branch, from->name, to->name,
		       git_oid_tostr(hex, sizeof(hex), merge), a, b);
		return;
	}
	printf("%s: %s -> %s (%s)", p->b.config.branch, from->name, to->name,
	       git_oid_tostr(hex, 13, merge));
	if (strcmp(a, b)) {
		snprintf(text, sizeof(text), "series %s -> %s", a, b);
		printf(", %s", rolling_colored(colored, sizeof(colored), o->color,
						ROLLING_COLOR_YELLOW, text));
	}
	printf("%s\n", o->dry_run ? " [dry run]" : "");
}

static void report_current(const struct pending *p, const struct advance_options *o)
{
	char hex[GIT_OID_HEXSZ + 1], series[ROLLING_SERIES_BUFSZ];

	if (o->porcelain)
		printf("current %s %s %s %s\n", p->b.config.branch, p->current->name,
		       git_oid_tostr(hex, sizeof(hex), &p->tip),
		       series_name(series, &p->current->version.series));
	else
		printf("%s: up to date at %s\n", p->b.config.branch, p->current->name);
}

/*
 * A test seam, as git's GIT_TEST_* variables are: run a command after
 * the merges are written and before the branch moves, so that the test
 * suite can be the concurrent writer the compare-and-swap guards against.
 */
static void run_test_seam(void)
{
	const char *command = getenv("GIT_ROLLING_TEST_BEFORE_UPDATE");

	if (command && *command && system(command) != 0)
		die("GIT_ROLLING_TEST_BEFORE_UPDATE failed");
}

static void advance(git_repository *repo, struct pending *p, const struct advance_options *o)
{
	struct rolling_ref_move moves[2];
	struct rolling_plan plan;
	const struct rolling_release *from = p->current;
	git_oid tip = p->tip;
	size_t i;

	if (rolling_plan_steps(&plan, &p->b.tags, p->current, p->target) < 0)
		die("%s: %s", p->b.config.branch, rolling_last_error());
	if (!plan.nr) {
		if (!o->quiet)
			report_current(p, o);
		return;
	}
	for (i = 0; i < plan.nr; i++) {
		if (rolling_merge_create(&moves[i].to, repo, &tip, plan.steps[i], &p->ident,
					 p->b.config.signoff, o->dry_run) < 0)
			die_last_error();
		snprintf(moves[i].message, sizeof(moves[i].message), "rolling: merge %s",
			 plan.steps[i]->name);
		tip = moves[i].to;
	}
	if (!o->dry_run) {
		run_test_seam();
		if (rolling_branch_move(repo, p->b.config.branch, &p->tip, moves, plan.nr) < 0)
			die("%s", rolling_last_error());
	}
	if (o->quiet)
		return;
	for (i = 0; i < plan.nr; i++) {
		report_step(p, from, plan.steps[i], &moves[i].to, o);
		from = plan.steps[i];
	}
}

static void free_pending(struct pending *p)
{
	rolling_ident_free(&p->ident);
	rolling_branch_free(&p->b);
}

static int cmd_advance(int argc, const char **argv)
{
	struct advance_options o = { 0 };
	const struct rolling_option options[] = {
		OPT__DRY_RUN(&o.dry_run),
		OPT_STRING(0, "series", &o.series, "series",
			   "switch to this series now (never an older one)"),
		OPT_SWITCH(0, "porcelain", &o.porcelain, "print steps in a stable format for scripts"),
		OPT__QUIET(&o.quiet),
		OPT_END(),
	};
	git_repository *repo;
	struct pending *pending;
	char **branches = NULL;
	size_t nr, i;

	argc = parse_options_or_usage(argc, argv, "advance", options, advance_usage);
	if (rolling_repo_open(&repo) < 0)
		die_last_error();
	if (rolling_repo_warn_hazards(repo) < 0 || rolling_want_color(&o.color, repo) < 0)
		die_last_error();
	if (rolling_config_branches_or_named(&branches, &nr, repo, argv, (size_t)argc) < 0)
		die("%s; see git rolling init", rolling_last_error());
	if (o.series && nr != 1)
		die("--series needs exactly one branch");
	if (!(pending = calloc(nr, sizeof(*pending))))
		die("out of memory");
	/* Check every branch before moving any. */
	for (i = 0; i < nr; i++)
		prepare(&pending[i], repo, branches[i], o.series);
	for (i = 0; i < nr; i++)
		advance(repo, &pending[i], &o);
	for (i = 0; i < nr; i++)
		free_pending(&pending[i]);
	free(pending);
	rolling_config_free_branches(branches, nr);
	git_repository_free(repo);
	return 0;
}

ROLLING_MAIN(cmd_advance)
