#ifndef ROLLING_BACKFILL_H
#define ROLLING_BACKFILL_H

#include <git2.h>
#include "branch.h"
#include "ident.h"
#include "progress.h"

/*
 * Build a rolling branch's past as if it had always been maintained:
 * replay the appearance of every release and mainline tag in the order
 * they appeared, and after each one make the steps `advance` would have
 * made right then, with the policy evaluated over the tags that existed
 * at that moment.
 *
 * A tag appeared at its tagger date (an annotated tag) or at the
 * committer date of its commit (a lightweight tag, or a tag without a
 * tagger); tags that appeared at the same second are taken in version
 * order (6.7.12, then 6.8-rc1, 6.8, 6.8.1).  The tags seen so far grow
 * one tag at a time (rolling_tags_add_release()), so each event costs
 * one evaluation of the policy, not a reading of all tags.
 *
 * The branch starts at `at` (a release tag name), once that release has
 * appeared, or, when `at` is NULL, at the policy's choice at the first
 * moment any series qualifies.  After every event from then on, the
 * series the policy recommends (never one behind the branch) is reached
 * with rolling_plan_steps(), the merges written with
 * rolling_merge_create_plan() as advance writes them.  The result is the tip
 * that `init` at that moment followed by `advance` after each event
 * would have made, bit for bit.
 */
struct rolling_backfill {
	git_oid tip;
	char *start;            /* the release the branch starts at */
	git_oid start_commit;
	size_t events;          /* tags replayed after the start */
	size_t steps;           /* merges made */
};

/*
 * Run the replay for branch `b` (loaded or prepared: its tags are all the
 * tags there are now), writing merge commits but moving no ref.
 * With `show_progress`, a progress meter counts the events.  ROLLING_ENOTFOUND when no series ever
 * qualified (without `at`) or `at` is not a release tag.
 */
int rolling_backfill_run(struct rolling_backfill *result, git_repository *repo,
			 struct rolling_branch *b, const struct rolling_ident *ident,
			 const char *at, int show_progress);

void rolling_backfill_release(struct rolling_backfill *result);

#endif
