#ifndef ROLLING_REF_TRANSACTION_H
#define ROLLING_REF_TRANSACTION_H

#include <git2.h>
#include "ref-update.h"

/*
 * Set every ref of `updates` or none.  In a repository whose refs are in
 * reftable (repo-format.h), git does it (ref-transaction-git.h); in one
 * whose refs are files, this does it as git's files backend does:
 *
 *  1. every ref is locked (<ref>.lock, taken as git takes it, waiting a
 *     little for a lock another writer holds) and compared with its old
 *     value under its lock;
 *  2. every lock gets the new value, and the old files are kept under
 *     a second name; when HEAD is a ref that moves, HEAD.lock is taken
 *     as git takes it for HEAD's reflog line;
 *  3. ref by ref, its reflog lines are appended (and HEAD's), and its
 *     lock is renamed into place.
 *
 * Reflogs are written for refs outside refs/heads/ and refs/remotes/
 * (which git does not log by default), and for those wherever git would
 * log them (core.logAllRefUpdates, or a reflog that exists).
 *
 * A failure in 1 or 2 (a full disk, say) changes nothing.  A failure in
 * 3 puts back every file already renamed and cuts every reflog back to
 * its old length.  Returns 0; ROLLING_EMODIFIED
 * when a ref was changed by another process (nothing written);
 * ROLLING_EPARTIAL, with a message naming the refs that moved and the
 * reflogs that record a move, when a file could not be put back; another
 * negative error with nothing changed.
 */
int rolling_ref_transaction(git_repository *repo, const struct rolling_ref_update *updates,
			    size_t nr);

/*
 * What a run of rolling_ref_transaction() killed in the files backend
 * left (ref-journal.h): its locks and kept files removed, the reflog
 * lines of moves it did not make cut.  Every transaction does this
 * first; a command that may find such a run's refs without writing any
 * (a recovery, a fetch with nothing new) calls it itself.
 */
void rolling_ref_transaction_sweep(git_repository *repo);

#endif
