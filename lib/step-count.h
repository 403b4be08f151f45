#ifndef ROLLING_STEP_COUNT_H
#define ROLLING_STEP_COUNT_H

#include <git2.h>
#include "steps.h"
#include "progress.h"

/*
 * What each step of a rolling branch brought: for every step i in
 * (from, to], counts[i] is the number of commits reachable from the
 * release step i merged and not from the release of step i - 1, that is
 * `git rev-list --count <release i-1>..<release i>`.
 *
 * One walk serves the whole range.  It visits commits newest first by
 * committer date, as git's revision walk does, and gives each commit to
 * the first step whose release reaches it; the commits that the release
 * of step `from` reaches stay unclaimed, and the walk goes down their
 * side only as far as the dates of the new commits need (git's "everybody
 * uninteresting" stop).  So each commit is read once however many steps
 * there are, and history below the range is not walked.  Like git without
 * its slop, a commit dated before its own parent can be miscounted.
 *
 * Crediting a commit to the oldest step that reaches it is
 * <previous>..<release> only while each release holds the one before it
 * (a series' releases, one after the other on one first-parent chain).
 * Where one does not (a switch to another series), a commit may be
 * reachable from an older step and from the release, and not from the
 * release before: the walk starts afresh there, so that a step's count
 * never depends on which steps are counted with it.
 *
 * counts[] has room for steps->nr entries; entries outside the range are
 * left alone.  `progress` (may be NULL) counts the steps done.  Returns 0
 * or a negative error.
 */
int rolling_steps_count(size_t *counts, git_repository *repo, const struct rolling_steps *steps,
			size_t from, size_t to, struct rolling_progress *progress);

#endif
