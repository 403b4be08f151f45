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
#include "../lib/branch.h"
#include "../cli/color.h"
#include "../lib/ident.h"
#include "../lib/merge.h"
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
	git_oid tip;
	const struct rolling_release *current;
	const struct rolling_series_info *target;
	struct rolling_plan plan;
	struct rolling_ref_move *moves;    /* one per step of the plan */
	char **messages;                   /* their reflog messages */
};

static void load(struct pending *p, git_repository *repo, const char *branch)
{
	if (rolling_branch_load(&p->b, repo, branch) < 0 ||
	    rolling_branch_ident(&p->ident, repo, &p->b) < 0 ||
	    rolling_branch_tip(&p->tip, repo, branch) < 0)
		die_last_error();
	if (rolling_tip_release(&p->current, repo, &p->tip, &p->b.tags, &p->b.patterns) < 0)
		die_error_context("%s", branch);
}

/* The series to head for: the one asked for on the command line, else the policy's. */
static void choose_target(struct pending *p, const char *asked)
{
	const struct rolling_tags *tags = &p->b.tags;
	struct rolling_series series;
	struct strbuf key = STRBUF_INIT;
	char pin[ROLLING_SERIES_BUFSZ], here[ROLLING_SERIES_BUFSZ];
	int pin_behind, err;

	if (asked && rolling_series_parse(&series, asked, tags->forms, "--series") < 0)
		die_last_error();
	err = rolling_policy_target(&p->target, &pin_behind, &p->b.policy, tags, p->current,
				    asked ? &series : NULL);
	if (err == ROLLING_ENOTFOUND)
		die_last_error();
	if (err < 0)
		die_error_context("%s", p->b.config.branch);
	if (pin_behind == ROLLING_PIN_UNRELEASED)
		rolling_warning("%s: %s is %s, which has no release yet; staying on %s",
				p->b.config.branch,
				rolling_config_key(&key, p->b.config.branch, "pin"),
				rolling_series_format(pin, &p->b.policy.pin),
				rolling_series_format(here, &p->target->series));
	else if (pin_behind)
		rolling_warning("%s: %s is %s, behind the current series %s; staying on %s",
				p->b.config.branch,
				rolling_config_key(&key, p->b.config.branch, "pin"),
				rolling_series_format(pin, &p->b.policy.pin),
				rolling_series_format(here, &p->target->series),
				rolling_series_format(here, &p->target->series));
	strbuf_release(&key);
}

/* The releases to merge, and the merges written (with --dry-run, only their ids). */
static void plan(git_repository *repo, struct pending *p, const struct advance_options *o)
{
	git_oid tip = p->tip, *merges;
	size_t i;

	if (rolling_plan_steps(&p->plan, &p->b.tags, p->current, p->target,
			       p->b.policy.steps) < 0)
		die_error_context("%s", p->b.config.branch);
	merges = xcalloc(p->plan.nr + 1, sizeof(*merges));
	if (rolling_merge_create_plan(&tip, merges, repo, &p->plan, &p->ident,
				      p->b.config.signoff, o->dry_run) < 0)
		die_error_context("%s", p->b.config.branch);
	p->moves = xcalloc(p->plan.nr, sizeof(*p->moves));
	p->messages = xcalloc(p->plan.nr, sizeof(*p->messages));
	for (i = 0; i < p->plan.nr; i++) {
		p->moves[i].to = merges[i];
		p->moves[i].message = p->messages[i] = xasprintf("rolling: merge %s",
								 p->plan.steps[i]->name);
	}
	free(merges);
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

	rolling_series_format(a, &from->version.series);
	rolling_series_format(b, &to->version.series);
	if (o->porcelain) {
		printf("step %s %s %s %s %s %s\n", p->b.config.branch, from->name, to->name,
		       git_oid_tostr(hex, sizeof(hex), merge), a, b);
		return;
	}
	printf("%s: %s -> %s (%s)", qtext(p->b.config.branch), qtext(from->name), qtext(to->name),
	       git_oid_tostr(hex, 13, merge));
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
		printf("current %s %s %s %s\n", p->b.config.branch, p->current->name,
		       git_oid_tostr(hex, sizeof(hex), &p->tip),
		       rolling_series_format(series, &p->current->version.series));
	else
		printf("%s: up to date at %s\n", qtext(p->b.config.branch),
		       qtext(p->current->name));
}

static void report(const struct pending *p, const struct advance_options *o)
{
	const struct rolling_release *from = p->current;
	size_t i;

	if (o->quiet)
		return;
	if (!p->plan.nr)
		report_current(p, o);
	for (i = 0; i < p->plan.nr; i++) {
		report_step(p, from, p->plan.steps[i], &p->moves[i].to, o);
		from = p->plan.steps[i];
	}
}

static void move(git_repository *repo, const struct pending *p, const struct advance_options *o)
{
	if (o->dry_run || !p->plan.nr)
		return;
	if (rolling_branch_move(repo, p->b.config.branch, &p->tip, p->moves, p->plan.nr) < 0)
		die_last_error();
}

static void free_pending(struct pending *p)
{
	size_t i;

	for (i = 0; p->messages && i < p->plan.nr; i++)
		free(p->messages[i]);
	free(p->messages);
	free(p->moves);
	rolling_plan_free(&p->plan);
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
	for (i = 0; i < nr; i++) {
		load(&pending[i], repo, branches[i]);
		choose_target(&pending[i], o.series);
	}
	for (i = 0; i < nr; i++)
		plan(repo, &pending[i], &o);
	for (i = 0; i < nr; i++) {
		move(repo, &pending[i], &o);
		report(&pending[i], &o);
	}
	for (i = 0; i < nr; i++)
		free_pending(&pending[i]);
	free(pending);
	rolling_config_free_branches(branches, nr);
	git_repository_free(repo);
	return 0;
}

ROLLING_MAIN(cmd_advance)
