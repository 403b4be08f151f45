#ifndef ROLLING_BISECT_H
#define ROLLING_BISECT_H

#include <git2.h>
#include "bisect-state.h"
#include "branch.h"
#include "steps.h"

/*
 * A bisection across a rolling branch, in two stages that the user's own
 * `git bisect` runs: stage one bisects the rolling steps with
 * --first-parent, so that every point tested is a released tree; stage
 * two bisects the commits of the one bad step, between the release it
 * merged and the release merged before it.
 *
 * This module decides which branch and which steps are meant, and reads
 * what git's bisection has found; the command drives `git bisect` and
 * talks to the user.  Every function returns 0 (or the documented
 * positive answer) or a negative error with a message.
 */
struct rolling_bisect {
	git_repository *repo;             /* borrowed */
	const char *release_re;           /* borrowed; both NULL for a configured branch */
	const char *mainline_re;
	struct rolling_branch branch;
	struct rolling_steps steps;
	git_oid tip;
	int have_branch;
	char *bisect_start;               /* git's marker of a running bisection */
	char *state_path;                 /* our own state (bisect-state.h), next to it */
};

/*
 * Which branch a command means: `name` if given; else the one configured
 * rolling branch that `rev` is a step of (or that merged the release
 * `rev` names); else, without `rev`, the only configured rolling branch.
 * Exactly one must fit: the error says why not.  Opens it.
 */
int rolling_bisect_choose(struct rolling_bisect *bs, const char *name, const char *rev);

/*
 * The steps from `good` (default: the base) to `bad` (default: the
 * tip); `good` must be the older of the two.
 */
int rolling_bisect_range(size_t *good_index, size_t *bad_index, struct rolling_bisect *bs,
			 const char *good, const char *bad);

/*
 * Learn from git where it keeps its bisection state; refuses a bare
 * repository, a git too old to bisect with --first-parent, and a
 * directory git's bisect refuses to run in (with git's words: git 2.39
 * and older run it only from the top of the work tree).
 */
int rolling_bisect_locate(struct rolling_bisect *bs);

/* Is git bisecting (its marker exists)?  Needs rolling_bisect_locate(). */
int rolling_bisect_running(const struct rolling_bisect *bs);

/*
 * Has git's bisection narrowed down to one commit?  Returns 1 with *bad
 * set to it (refs/bisect/bad), 0 when not, or a negative error.  The
 * candidates are what git itself still considers: refs/bisect/bad but
 * none of the good ones (following only first parents in stage one).
 */
int rolling_bisect_found(git_oid *bad, int first_parent);

/* Is HEAD a step of the branch?  1 with *index set, else 0. */
int rolling_bisect_head_step(size_t *index, struct rolling_bisect *bs);

/*
 * Read the state `start` saved and the branch it names, checking that
 * git's bisection is still the one started: ROLLING_ENOTFOUND (with the
 * message) when there is no rolling bisection.  The state is freed with
 * rolling_bisect_state_release().
 */
int rolling_bisect_resume(struct rolling_bisect *bs, struct rolling_bisect_state *state);

/*
 * Stage one found the first bad step `bad`: check that it is a step
 * after the good one, record stage two in `state`, and give the step's
 * index, from which stage two bisects steps[index - 1].release ..
 * steps[index].release.
 */
int rolling_bisect_enter_stage_two(size_t *index, struct rolling_bisect *bs,
				   struct rolling_bisect_state *state, const git_oid *bad);

/*
 * What `start` remembers (bisect-state.h) for the steps good_index ..
 * bad_index of the chosen branch: stage one, the branch as the user
 * named it (`name`; NULL: the branch chosen), its patterns and the two
 * steps.  Free it with rolling_bisect_state_release(), also after an error.
 */
int rolling_bisect_start_state(struct rolling_bisect_state *state, const struct rolling_bisect *bs,
			       const char *name, size_t good_index, size_t bad_index);

/* Where stage one stands, for the user. */
enum rolling_bisect_stage_one {
	ROLLING_BISECT_WAITING = 0,       /* HEAD is not a step: nothing to say */
	ROLLING_BISECT_TESTING = 1,       /* git checked out step *index for testing */
	ROLLING_BISECT_OVER = 2,          /* git found the first bad step, *index */
	ROLLING_BISECT_OVER_ELSEWHERE = 3 /* git found a first bad commit that is no step */
};

/* One of enum rolling_bisect_stage_one, or a negative error. */
int rolling_bisect_stage_one(size_t *index, struct rolling_bisect *bs);

/*
 * Stage two after the bad step steps[index], when that step switched
 * series: git bisects all the commits between the two releases and
 * first asks to test their merge base.  Returns 1 with *base set when
 * that merge base is not the good release itself, 0 when it is (or the
 * releases have none, or the step did not switch series), or a
 * negative error.
 */
int rolling_bisect_stage_two_base(git_oid *base, struct rolling_bisect *bs, size_t index);

/*
 * The name of a tag on `commit`, for the user: a release's, else a
 * mainline tag's; *name is NULL when there is none, else the caller's.
 */
int rolling_bisect_tag_name(char **name, struct rolling_bisect *bs, const git_oid *commit);

void rolling_bisect_release(struct rolling_bisect *bs);

#endif
