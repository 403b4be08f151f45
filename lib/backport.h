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
 * A fix as it may reach a rolling branch: the commit asked about, the
 * commits its message names as its upstream (the forms above), and its
 * patch-id (git patch-id's: its diff) for copies that name nothing, as
 * a cherry-pick without -x.
 */
struct rolling_fix {
	git_oid *ids;            /* the commit first, then the ones it names */
	size_t nr, alloc;
	char *subject;
	int has_patch_id;        /* not for a merge or a root commit */
	git_oid patch_id;
	git_time_t oldest;       /* no copy is older (author dates, less clock skew) */
};

/* Read `commit` as a fix.  Free it with rolling_fix_release(), also after an error. */
int rolling_fix_init(struct rolling_fix *fix, git_repository *repo, const git_oid *commit);

void rolling_fix_release(struct rolling_fix *fix);

/*
 * Look for a copy of the fix among the commits the steps of a rolling
 * branch brought in: one of its commits, a commit that names one of
 * them as its upstream, or a commit with its subject and patch-id.  For
 * each step merged after the fix was written, the first-parent chain of
 * the release it merged, down to where its series forks off mainline (a
 * mainline tag), to commits older than the fix, or to commits already
 * read: the stable commits of those series, not the history behind them.
 * Steps are searched oldest first, so the copy found is in the first
 * series that got one; a commit with the same subject and another diff
 * is no copy.  Returns 1 with *found set to the oldest copy in that
 * series, 0 when there is none, or a negative error; *truncated is set
 * when the limit stopped the search.
 */
int rolling_fix_find(git_oid *found, int *truncated, git_repository *repo,
		     const struct rolling_steps *steps, const struct rolling_mainline *mainline,
		     struct rolling_fix *fix, size_t limit);

/*
 * Look for a backport of `upstream` that shipped in a series the branch
 * followed and has since left: in each series of a step but the tip's,
 * the first-parent chain from its newest release down to the last one the
 * branch merged, which rolling_fix_find() has read.  Returns 1 with
 * *found set to the oldest backport there and *release to the first
 * release of its series that holds it, 0 when there is none, or a
 * negative error; *truncated is set when the limit stopped the search.
 */
int rolling_backport_find_left(git_oid *found, const struct rolling_release **release,
			       int *truncated, git_repository *repo,
			       const struct rolling_steps *steps, const struct rolling_tags *tags,
			       const struct rolling_mainline *mainline, const git_oid *upstream,
			       size_t limit);

/*
 * Is `commit` one that a series the branch followed got after the
 * branch left it?  In each series of a step but the tip's, the
 * first-parent chain from its newest release down to the last release
 * the branch merged.  Such a commit never reaches the branch, which only
 * moves on to later series.  Returns 1 with *left set to the release the
 * branch left that series at and *release to the first release of it
 * that holds the commit, 0 when it is in none, or a negative error;
 * *truncated is set when the limit stopped the search.
 */
int rolling_left_series_holding(const struct rolling_release **left,
				const struct rolling_release **release, int *truncated,
				git_repository *repo, const struct rolling_steps *steps,
				const struct rolling_tags *tags,
				const struct rolling_mainline *mainline, const git_oid *commit,
				size_t limit);

#endif
