#ifndef ROLLING_BRANCH_PLAN_H
#define ROLLING_BRANCH_PLAN_H

#include <git2.h>
#include "branch.h"
#include "ident.h"
#include "policy.h"
#include "tags.h"

/*
 * Where a rolling branch stands and what `git rolling advance` would do
 * with it now, as data: the one model that advance, advance --dry-run,
 * status, init (the release a new branch starts at) and init --backfill
 * (advance replayed at each moment a tag appeared) all read, so that
 * they agree by construction.  The commands print it and decide what is
 * fatal; every function here returns 0 or a negative error with a
 * message, and leaves what it found before the error in the plan.
 */
struct rolling_branch_plan {
	git_oid tip;                                 /* the branch's tip */
	const struct rolling_release *current;       /* the release at the tip */
	/*
	 * The series advance heads for: the policy's, never one behind the
	 * branch (rolling_policy_target()); pin_stay says why it stays on
	 * its own series when a pin holds it.
	 */
	const struct rolling_series_info *target;
	int pin_stay;                                /* 0 or ROLLING_PIN_* */
	const struct rolling_series_info *unpinned;  /* the policy's target without a pin */
	int qualifies;                               /* the policy has a series now */
	struct rolling_plan steps;                   /* the releases to merge, in order */
	git_oid *merges;                             /* the merge of each step, when made */
	git_oid new_tip;                             /* the tip after the steps, when made */
};

/*
 * Read the tip of the branch and the release it stands at (ROLLING_ENOTFOUND
 * when the branch does not exist).
 */
int rolling_branch_plan_read(struct rolling_branch_plan *p, git_repository *repo,
			     struct rolling_branch *b);

/*
 * Plan the steps of a branch at p->tip and p->current (from
 * rolling_branch_plan_read(), or set by the caller) against `tags` (the
 * branch's own, or those of a past moment): the target, towards
 * `asked` when a series is named on the command line, and the releases
 * to merge.  With an `ident`, their merges too (p->merges, p->new_tip):
 * written when `write`, else only their ids computed, the ids the
 * merges will have.
 */
int rolling_branch_plan_steps(struct rolling_branch_plan *p, git_repository *repo,
			      const struct rolling_branch *b, const struct rolling_tags *tags,
			      const struct rolling_series *asked,
			      const struct rolling_ident *ident, int write);

/*
 * The release a new branch starts at: `at` when given (it must be a
 * release tag that leads to a commit), else where advance would take a
 * branch that stood nowhere: the newest release of the series the
 * policy follows (*followed; the policy's error, with a message that
 * says why none qualifies yet).
 */
int rolling_branch_plan_start(const struct rolling_release **start,
			      const struct rolling_series_info **followed,
			      struct rolling_branch *b, const char *at);

/*
 * What the next switch waits for (rolling_policy_next_switch()), for a
 * branch whose policy has a series and that is on it: 1 when one is in
 * sight, 0 when not (nor when the branch has a switch due now).
 */
int rolling_branch_plan_next_switch(struct rolling_next_switch *next,
				    const struct rolling_branch_plan *p,
				    struct rolling_branch *b);

/*
 * The releases the branch has not reached and advance would pass over
 * or merge: the newer ones of its series, and in a target series up to
 * its newest.  Puts them in `out` (when not NULL) in version order;
 * returns how many there are.
 */
size_t rolling_branch_plan_unreached(const struct rolling_release **out,
				     const struct rolling_branch_plan *p,
				     const struct rolling_tags *tags);

void rolling_branch_plan_release(struct rolling_branch_plan *p);

#endif
