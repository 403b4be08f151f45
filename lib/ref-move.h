#ifndef ROLLING_REF_MOVE_H
#define ROLLING_REF_MOVE_H

#include <git2.h>

/*
 * One ref moved by compare-and-swap, step by step, each step in its
 * reflog.  This sits below both the move of a branch (branch-move.h),
 * which decides where and how a branch moves, and the work-tree
 * transaction (worktree.h), which records the moves and finishes them
 * after a crash; neither of those two calls the other back.
 */

/*
 * One move of a ref, recorded in its reflog with `message` (of any
 * length; not copied: the caller keeps it while the move is in use).
 */
struct rolling_ref_move {
	git_oid to;
	const char *message;
};

/*
 * Move `refname` through `moves` in order, each move a compare-and-swap
 * against the previous value, starting at `old_tip` (NULL: the ref must
 * not exist yet).  The objects must already be written.  Returns 0, or a
 * negative error that names a ref another process moved or created, or
 * a lock file a crashed git left behind.
 */
int rolling_ref_move_all(git_repository *repo, const char *refname, const git_oid *old_tip,
			 const struct rolling_ref_move *moves, size_t nr);

/*
 * <common git dir>/<refname>.lock, where git takes the lock of the ref;
 * the caller frees it (NULL when out of memory).
 */
char *rolling_ref_lock_path(git_repository *repo, const char *refname);

#endif
