#ifndef ROLLING_BACKPORT_H
#define ROLLING_BACKPORT_H

#include <git2.h>
#include "steps.h"
#include "mainline.h"
#include "tags.h"

/*
 * Stable backports are new commits that name the commit they copy:
 *
 *   commit <sha> upstream.                  (Linux stable)
 *   [ Upstream commit <sha> ]               (Linux stable, adapted backports)
 *   (cherry picked from commit <sha>)       (git cherry-pick -x)
 *
 * <sha> may be abbreviated to no fewer than 12 hex digits.
 */

/* How many commits a search reads at most before it gives up. */
#define ROLLING_BACKPORT_LIMIT 200000

/*
 * Look for a backport of `upstream` among the commits the steps of a
 * rolling branch brought in: for each step merged after the upstream
 * commit was made, the first-parent chain of the release it merged, down
 * to where its series forks off mainline (a mainline tag), to commits
 * older than the upstream commit, or to commits already read.  That is
 * the stable commits of those series, not the history behind them.
 * Returns 1 with *found set, 0 when there is none, or a negative error;
 * *truncated is set when the limit stopped the search.
 */
int rolling_backport_find(git_oid *found, int *truncated, git_repository *repo,
			  const struct rolling_steps *steps, const struct rolling_mainline *mainline,
			  const git_oid *upstream, size_t limit);

/*
 * Look for a backport of `upstream` that shipped in a series the branch
 * followed and has since left: in each series of a step but the tip's,
 * the first-parent chain from its newest release down to the last one the
 * branch merged, which rolling_backport_find() has read.  Returns 1 with
 * *found set to the oldest backport there and *release to the first
 * release of its series that holds it, 0 when there is none, or a
 * negative error; *truncated is set when the limit stopped the search.
 */
int rolling_backport_find_left(git_oid *found, const struct rolling_release **release,
			       int *truncated, git_repository *repo,
			       const struct rolling_steps *steps, const struct rolling_tags *tags,
			       const struct rolling_mainline *mainline, const git_oid *upstream,
			       size_t limit);

#endif
