#ifndef ROLLING_BRANCH_MOVE_H
#define ROLLING_BRANCH_MOVE_H

#include <git2.h>
#include "ref-move.h"

/*
 * Move refs/heads/<branch> through `moves` in order, each move a
 * compare-and-swap against the previous value (rolling_ref_move_all()),
 * starting at `old_tip` (NULL: the branch must not exist yet).  The
 * objects must already be written.
 *
 * Where the branch is checked out in this repository's work tree, the
 * work tree and index first follow the final tip as `git merge --ff-only`
 * would; if local changes would be overwritten, nothing changes and the
 * error lists them.  A branch checked out in another work tree is
 * refused, and so is a branch another process moved meanwhile.
 */
int rolling_branch_move(git_repository *repo, const char *branch, const git_oid *old_tip,
			const struct rolling_ref_move *moves, size_t nr);

struct rolling_config;

/*
 * Create refs/heads/<cfg->branch> at `move->to` (replacing `old_tip`;
 * NULL: the branch must not exist yet) together with its rolling.<branch>.*
 * configuration, as one change: the configuration is staged under the
 * config file's lock, the branch moved as rolling_branch_move() moves it,
 * then the configuration written.  When any step fails, the branch (and
 * its work tree) and the configuration are left as they were.
 */
int rolling_branch_create(git_repository *repo, const struct rolling_config *cfg,
			  const git_oid *old_tip, const struct rolling_ref_move *move);

#endif
