#ifndef ROLLING_REF_MOVE_H
#define ROLLING_REF_MOVE_H

#include <git2.h>
#include "refs.h"

/*
 * One ref moved by compare-and-swap, step by step, each step in its
 * reflog.  This sits below both the move of a branch (branch-move.h),
 * which decides where and how a branch moves, and the work-tree
 * transaction (worktree.h), which records the moves and finishes them
 * after a crash; neither of those two calls the other back.
 */

/*
 * Move `refname` through `moves` (struct rolling_ref_move, in
 * refs.h) in order, by compare-and-swap against `old_tip`
 * (NULL: the ref must not exist yet): the ref goes to the last move's
 * tip at once and its reflog gets a line for each move, all or nothing
 * (rolling_ref_transaction()).  The objects must already be written.
 * Returns 0, or a negative error that names a ref another process moved
 * or created, a lock file a crashed git left behind, or a file that
 * could not be written (a full disk), with nothing changed; or
 * ROLLING_EPARTIAL as rolling_ref_transaction() returns it.
 */
int rolling_ref_move_all(git_repository *repo, const char *refname, const git_oid *old_tip,
			 const struct rolling_ref_move *moves, size_t nr);

/*
 * <common git dir>/<refname>.lock, where git takes the lock of the ref;
 * the caller frees it (NULL when out of memory).
 */
char *rolling_ref_lock_path(git_repository *repo, const char *refname);

#endif
