#ifndef ROLLING_REF_TRANSACTION_GIT_H
#define ROLLING_REF_TRANSACTION_GIT_H

#include <git2.h>
#include "ref-update.h"

/*
 * rolling_ref_transaction() in a repository whose refs only git writes
 * (reftable: repo-format.h), as one transaction of git's own
 * (`git update-ref --stdin`), which is atomic in that format: every ref
 * is compared with its old value under git's lock of the stack and
 * written in one new table, or none is.  The same return values, but
 * ROLLING_EPARTIAL never happens.
 *
 * What changes against the files backend: git writes one reflog message
 * per transaction and one line per ref.  So a ref that passes through
 * several moves (advance with steps = each) gets one line for the jump,
 * and refs whose messages differ share one: when every message is the
 * same, it; else the messages joined, their common head ("rolling: ",
 * "rolling fetch origin: ") written once: "rolling: merge v6.6.2, merge
 * v6.6.3".  Reflogs are git's: `git update-ref --create-reflog` gives
 * every ref of the transaction one when a ref outside refs/heads/ and
 * refs/remotes/ is in it (such refs are always logged, as on the files
 * backend), which in a repository that does not log branches (bare,
 * core.logAllRefUpdates=false) logs the branches and remote-tracking
 * refs of that same transaction too.
 */
int rolling_ref_transaction_git(git_repository *repo, const struct rolling_ref_update *updates,
				size_t nr);

/* The one reflog message for `updates`, as above; the caller frees it (NULL: out of memory). */
char *rolling_ref_transaction_message(const struct rolling_ref_update *updates, size_t nr);

#endif
