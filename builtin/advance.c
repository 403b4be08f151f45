/*
 * git rolling advance: make the pending rolling steps of each branch,
 * one content-free merge per release, and move the branch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <git2.h>
#include "../cli/usage.h"
#include "../cli/main.h"
#include "../cli/wrapper.h"
#include "../lib/abbrev.h"
#include "../lib/branch.h"
#include "../lib/branch-plan.h"
#include "../cli/color.h"
#include "../lib/ident.h"
#include "../lib/repo.h"
#include "../lib/branch-move.h"
#include "../lib/worktree.h"
#include "../cli/text.h"

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

/*
 * A branch to advance.  Every branch is loaded and planned, its merges
 * written, before any branch moves: a branch that cannot advance stops
 * the command while the others are still where they were.
 */
struct pending {
	struct rolling_branch b;
	struct rolling_ident ident;
	struct rolling_branch_plan plan;
	struct rolling_ref_move *moves;    /* one per step of the plan */
	char **messages;                   /* their reflog messages */
};

static void load(struct pending *p, git_repository *repo, const char *branch)
{
	if (rolling_branch_load(&p->b, repo, branch) < 0 ||
	    rolling_branch_ident(&p->ident, repo, &p->b) < 0)
		die_last_error();
	if (rolling_branch_plan_read(&p->plan, repo, &p->b) < 0) {
		if (git_oid_is_zero(&p->plan.tip))
			die_last_error();
		die_error_context("%s", branch);
	}
}

static void warn_pinned(const struct pending *p)
{
	const struct rolling_branch_plan *plan = &p->plan;
	char pin[ROLLING_SERIES_BUFSZ], here[ROLLING_SERIES_BUFSZ];
	struct strbuf key = STRBUF_INIT;

	if (!plan->pin_stay)
		return;
	rolling_config_key(&key, p->b.config.branch, "pin");
	rolling_series_format(pin, &p->b.policy.pin);
	rolling_series_format(here, &plan->target->series);
	if (plan->pin_stay == ROLLING_PIN_UNRELEASED)
		rolling_warning("%s: %s is %s, which has no release yet; staying on %s",
				p->b.config.branch, key.buf, pin, here);
	else if (plan->pin_stay)
		rolling_warning("%s: %s is %s, behind the current series %s; staying on %s",
				p->b.config.branch, key.buf, pin, here, here);
	strbuf_release(&key);
}

/*
 * Where the branch heads (the series asked for on the command line,
 * else the policy's), the releases to merge, and their merges written
 * (with --dry-run, only their ids).
 */
static void plan(git_repository *repo, struct pending *p, const struct advance_options *o)
{
	struct rolling_series asked;
	size_t i;
	int err;

	if (o->series && rolling_series_parse(&asked, o->series, p->b.tags.forms, "--series") < 0)
		die_last_error();
	err = rolling_branch_plan_steps(&p->plan, repo, &p->b, &p->b.tags,
					o->series ? &asked : NULL, &p->ident, !o->dry_run);
	if (err == ROLLING_ENOTFOUND && !p->plan.target)
		die_last_error();
	if (err < 0)
		die_error_context("%s", p->b.config.branch);
	warn_pinned(p);
	p->moves = xcalloc(p->plan.steps.nr, sizeof(*p->moves));
	p->messages = xcalloc(p->plan.steps.nr, sizeof(*p->messages));
	for (i = 0; i < p->plan.steps.nr; i++) {
		p->moves[i].to = p->plan.merges[i];
		p->moves[i].message = p->messages[i] =
			xasprintf("rolling: merge %s", p->plan.steps.steps[i]->name);
	}
}

/*
 * The porcelain format is stable for scripts: one line per step,
 *   step <branch> <from-release> <to-release> <merge-id> <from-series> <to-series>
 * and for a branch with nothing to do
 *   current <branch> <release> <tip-id> <series>
 */
static void report_step(git_repository *repo, const struct pending *p,
			const struct rolling_release *from,
			const struct rolling_release *to, const git_oid *merge,
			const struct advance_options *o)
{
	char hex[GIT_OID_HEXSZ + 1], a[ROLLING_SERIES_BUFSZ], b[ROLLING_SERIES_BUFSZ];

	rolling_series_format(a, &from->version.series);
	rolling_series_format(b, &to->version.series);
	if (o->porcelain) {
		printf("step %s %s %s %s %s %s\n", p->b.config.branch, from->name, to->name,
		       git_oid_tostr(hex, sizeof(hex), merge), a, b);
		return;
	}
	printf("%s: %s -> %s (%s)", qtext(p->b.config.branch), qtext(from->name), qtext(to->name),
	       rolling_abbrev(hex, repo, merge));
	if (strcmp(a, b)) {
		printf(", ");
		rolling_color_printf(o->color, ROLLING_COLOR_YELLOW, "series %s -> %s", a, b);
	}
	printf("%s\n", o->dry_run ? " [dry run]" : "");
}

static void report_current(const struct pending *p, const struct advance_options *o)
{
	char hex[GIT_OID_HEXSZ + 1], series[ROLLING_SERIES_BUFSZ];

	if (o->porcelain)
		printf("current %s %s %s %s\n", p->b.config.branch, p->plan.current->name,
		       git_oid_tostr(hex, sizeof(hex), &p->plan.tip),
		       rolling_series_format(series, &p->plan.current->version.series));
	else
		printf("%s: up to date at %s\n", qtext(p->b.config.branch),
		       qtext(p->plan.current->name));
}

static void report(git_repository *repo, const struct pending *p,
		   const struct advance_options *o)
{
	const struct rolling_plan *steps = &p->plan.steps;
	const struct rolling_release *from = p->plan.current;
	size_t i;

	if (o->quiet)
		return;
	if (!steps->nr)
		report_current(p, o);
	for (i = 0; i < steps->nr; i++) {
		report_step(repo, p, from, steps->steps[i], &p->moves[i].to, o);
		from = steps->steps[i];
	}
}

static void move(git_repository *repo, const struct pending *p, const struct advance_options *o)
{
	if (o->dry_run || !p->plan.steps.nr)
		return;
	if (rolling_branch_move(repo, p->b.config.branch, &p->plan.tip, p->moves,
			       p->plan.steps.nr) < 0)
		die_last_error();
}

static void free_pending(struct pending *p)
{
	size_t i;

	for (i = 0; p->messages && i < p->plan.steps.nr; i++)
		free(p->messages[i]);
	free(p->messages);
	free(p->moves);
	rolling_branch_plan_release(&p->plan);
	rolling_ident_release(&p->ident);
	rolling_branch_release(&p->b);
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
	/*
	 * A run killed in this work tree is finished or undone first: its
	 * branch may already be at the new tip, with nothing left to plan.
	 */
	if (!o.dry_run && !git_repository_is_bare(repo) && rolling_worktree_recover(repo) < 0)
		die_last_error();
	if (rolling_config_branches_or_named(&branches, &nr, repo, argv, (size_t)argc) < 0)
		die("%s; see git rolling init", rolling_last_error());
	if (o.series && nr != 1)
		die("--series needs exactly one branch");
	pending = xcalloc(nr, sizeof(*pending));
	/* Check every branch and write every merge before moving any. */
	for (i = 0; i < nr; i++)
		load(&pending[i], repo, branches[i]);
	for (i = 0; i < nr; i++)
		plan(repo, &pending[i], &o);
	for (i = 0; i < nr; i++) {
		move(repo, &pending[i], &o);
		report(repo, &pending[i], &o);
	}
	for (i = 0; i < nr; i++)
		free_pending(&pending[i]);
	free(pending);
	rolling_config_free_branches(branches, nr);
	rolling_repo_free(repo);
	return 0;
}

ROLLING_MAIN(cmd_advance)
