#ifndef ROLLING_WORKTREE_H
#define ROLLING_WORKTREE_H

#include <git2.h>
#include "lockfile.h"
#include "ref-move.h"
#include "tempfile.h"

/*
 * Moving a branch that is checked out in this work tree, all or nothing
 * (the design is documented in git-rolling-advance(1), "THE WORK TREE"):
 *
 *  1. the intent file <git-dir>/ROLLING_ADVANCE ("<pid> <host>", the
 *     branch, its old tip, every move) appears atomically, already under
 *     an flock(2) that this process and the git it runs hold while alive;
 *  2. <index>.lock is taken, as every git command takes it, and holds a
 *     copy of the index (<git-dir>/index, or $GIT_INDEX_FILE as git reads
 *     it); the intent file records that it is ours, and which index;
 *  3. `git read-tree -m -u` brings files and that copy to the new tip,
 *     with git's own rules (local changes, sparse checkout);
 *  4. the branch moves, move by move, each a compare-and-swap;
 *  5. index.lock becomes the index; the intent file goes.
 *
 * Until 5 the index is the old one.  A failure in 3 or 4 puts back every
 * file 3 wrote.  A run killed anywhere is finished or undone by the next
 * rolling_worktree_recover(): forward when the branch had started moving,
 * back otherwise.
 *
 * The intent file and index.lock are registered temporary files
 * (tempfile.h).  A run killed by a signal removes both before 3, and
 * index.lock only from 3 on: the intent file stays for the next run to
 * put the files back.  The caller holds the signals from 4 to the end
 * of 5, so that no signal finds the branch moved and the index not.
 */
struct rolling_worktree_tx {
	git_repository *repo;
	const char *branch;
	char *refname;
	git_oid old_tip;
	const struct rolling_ref_move *moves;
	size_t nr;
	char *gitdir;            /* this work tree's git dir, with a final '/' */
	char *index;             /* its index file (repo-open.h); the lock is <index>.lock */
	char *intent;            /* <gitdir>ROLLING_ADVANCE */
	/*
	 * The intent file, registered (tempfile.h): its descriptor holds the
	 * flock.  Once git read-tree may write files it is kept at the end,
	 * for the next run to put them back.
	 */
	struct rolling_tempfile intent_file;
	struct rolling_lock index_lock;   /* <index>.lock, while it is ours */
};

/*
 * Refuse what `git merge --ff-only` refuses in this work tree: a merge,
 * cherry-pick, revert, rebase or bisect in progress.
 */
int rolling_worktree_check_idle(git_repository *repo, const char *branch);

/*
 * 1 when refs/heads/<branch> is checked out (or being rebased or
 * bisected) in a work tree of the repository other than this one,
 * including one whose directory is gone; as git decides.  0 when it is
 * not; a negative error when the repository's ref format is unknown
 * (not opened through repo-open.h).
 */
int rolling_worktree_elsewhere(git_repository *repo, const char *refname);

/* Steps 1 and 2; nothing in the work tree changes. */
int rolling_worktree_begin(struct rolling_worktree_tx *tx, git_repository *repo,
			   const char *branch, const char *refname, const git_oid *old_tip,
			   const struct rolling_ref_move *moves, size_t nr);

/* Step 3, to the last move's tip. */
int rolling_worktree_update(struct rolling_worktree_tx *tx);

/* Step 5. */
int rolling_worktree_commit(struct rolling_worktree_tx *tx);

/* Put back every file step 3 wrote, release index.lock and the intent. */
void rolling_worktree_abort(struct rolling_worktree_tx *tx);

/*
 * Finish or undo a run that was killed, when <git-dir>/ROLLING_ADVANCE
 * says there was one; 0 when there was none or it is dealt with.  When
 * the earlier run may still be alive, nothing is touched and the error
 * names it and what to do.
 */
int rolling_worktree_recover(git_repository *repo);

#endif
