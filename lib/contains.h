#ifndef ROLLING_CONTAINS_H
#define ROLLING_CONTAINS_H

#include <git2.h>
#include "steps.h"
#include "progress.h"

/*
 * The first step of a rolling branch that contains `commit`.  Each step
 * contains every step before it.  A step, or a release a step merged,
 * is answered from the list.  When the repository has a commit-graph
 * (of any version) git answers ancestry questions in milliseconds, and
 * the steps are binary-searched: at most 3 + ceil(log2(nr)) questions,
 * usually two.  Without one, a single walk of history answers for every
 * step at once, at the cost of one `git merge-base --is-ancestor` (see
 * walk_steps() in contains.c); dates order the walk, never decide it.
 * Returns 1 with *index set, 0 when not even the newest step contains
 * the commit, or a negative error.  `progress` (may be NULL) counts the
 * git queries, or the commits the walk read.
 */
int rolling_steps_first_containing(size_t *index, git_repository *repo,
				   const struct rolling_steps *steps, const git_oid *commit,
				   struct rolling_progress *progress);

#endif
