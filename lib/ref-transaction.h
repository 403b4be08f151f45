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
 *  2. every lock gets the new value, and every reflog a copy of itself
 *     with the new lines appended (logs/<ref>.lock), and so does
 *     logs/HEAD when HEAD is a ref that moves; the old files are kept
 *     under a second name;
 *  3. all of them are renamed into place.
 *
 * Reflogs are written for refs outside refs/heads/ and refs/remotes/
 * (which git does not log by default), and for those wherever git would
 * log them (core.logAllRefUpdates, or a reflog that exists).
 *
 * A failure in 1 or 2 (a full disk, say) changes nothing.  A failure in
 * 3 puts back every file already renamed.  Returns 0; ROLLING_EMODIFIED
 * when a ref was changed by another process (nothing written);
 * ROLLING_EPARTIAL, with a message naming the refs that moved and the
 * reflogs that record a move, when a file could not be put back; another
 * negative error with nothing changed.
 */
int rolling_ref_transaction(git_repository *repo, const struct rolling_ref_update *updates,
			    size_t nr);

#endif
