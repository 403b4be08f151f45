#ifndef ROLLING_CONTAINS_H
#define ROLLING_CONTAINS_H

#include <git2.h>
#include "steps.h"
#include "progress.h"

/*
 * The first step of a rolling branch that contains `commit`.  Each step
 * contains every step before it, so this is a binary search: at most
 * 3 + ceil(log2(nr)) ancestry queries, whatever the size of history,
 * and usually two (the first step dated after the commit is asked
 * first; dates order the questions but never decide the answer).
 * Returns 1 with *index set, 0 when not even the newest step contains
 * the commit, or a negative error.  `progress` (may be NULL) counts the
 * queries: without a commit-graph each one walks history.
 */
int rolling_steps_first_containing(size_t *index, git_repository *repo,
				   const struct rolling_steps *steps, const git_oid *commit,
				   struct rolling_progress *progress);

#endif
