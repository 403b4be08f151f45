#ifndef ROLLING_STEPS_H
#define ROLLING_STEPS_H

#include <git2.h>
#include "tags.h"
#include "pattern.h"
#include "oidmap.h"

/*
 * One point of a rolling branch's first-parent chain: a rolling merge,
 * or at the bottom the release commit the branch was created at.
 */
struct rolling_step {
	git_oid commit;
	const struct rolling_release *release;   /* merged, or the base release */
	git_time_t time;                         /* committer date */
	int offset;                              /* its time zone, in minutes */
	int is_base;
	int series_switch;      /* its release is of another series than the step before */
};

/*
 * The steps of a rolling branch, oldest first: v[0] is the base, v[nr-1]
 * the tip.  Each point contains all points before it (they are its
 * first-parent ancestors), so containment is monotone along v[].
 */
struct rolling_steps {
	struct rolling_step *v;
	size_t nr;
	struct rolling_oidmap by_commit;    /* step commit -> index */
	struct rolling_oidmap by_release;   /* commit of the release merged -> index */
};

/*
 * Walk the first-parent chain down from `tip` and identify each commit
 * with rolling_merge_identify(), down to the release commit at the
 * bottom.  Reads two commits per step and nothing else.  A commit that
 * is neither a rolling merge nor a release commit is an error: the
 * branch is not a rolling branch of these tags.
 */
int rolling_steps_list(struct rolling_steps *steps, git_repository *repo, const git_oid *tip,
		       const struct rolling_tags *tags, struct rolling_patterns *patterns);

/*
 * The step a commit stands for: a step itself, or the commit of a
 * release that a step merged (or the base release).  Returns 1 with
 * *index set, 0 when the commit is neither.
 */
int rolling_steps_find(const struct rolling_steps *steps, const git_oid *commit, size_t *index);

void rolling_steps_release(struct rolling_steps *steps);

#endif
