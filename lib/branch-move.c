#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "abbrev.h"
#include "branch-move.h"
#include "branch.h"
#include "error.h"
#include "config.h"
#include "git2-compat.h"
#include "ref-move.h"
#include "refs.h"
#include "repo-open.h"
#include "strbuf.h"
#include "tempfile.h"
#include "worktree.h"

/*
 * 1 when HEAD of this repository's work tree is refs/heads/<branch>: in
 * a repository git calls bare, HEAD names a branch checked out nowhere.
 * The work tree may be out of reach (rolling_repo_is_bare()).
 */
static int checked_out_here(git_repository *repo, const char *refname)
{
	git_reference *head;
	int here;

	if (rolling_repo_is_bare(repo) ||
	    git_reference_lookup(&head, repo, "HEAD") < 0)
		return 0;
	here = git_reference_type(head) == GIT_REFERENCE_SYMBOLIC &&
	       !strcmp(git_reference_symbolic_target(head), refname);
	git_reference_free(head);
	return here;
}

/* git moves only real branches; a symbolic ref under refs/heads/ is refused. */
static int refuse_symbolic(git_repository *repo, const char *refname)
{
	git_reference *ref;
	int err = 0;

	if (git_reference_lookup(&ref, repo, refname) < 0)
		return 0;
	if (git_reference_type(ref) == GIT_REFERENCE_SYMBOLIC)
		err = rolling_error("%s is a symbolic ref (to %s), not a branch of its own;"
				    " not moving it", refname, git_reference_symbolic_target(ref));
	git_reference_free(ref);
	return err;
}

/* The branch must still be where the plan started, before any file changes. */
static int check_unmoved(git_repository *repo, const char *refname, const git_oid *old_tip)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_oid now;

	if (git_reference_name_to_id(&now, repo, refname) < 0)
		return rolling_git_error(ROLLING_ERROR, "%s was changed by another process",
					 refname);
	if (!git_oid_equal(&now, old_tip))
		return rolling_error("%s was changed by another process (it is now at %s);"
				     " nothing was changed", refname,
				     rolling_abbrev(hex, repo, &now));
	return 0;
}

/* The work tree transaction of worktree.h around the moves of the branch. */
static int move_checked_out(git_repository *repo, const char *branch, const char *refname,
			    const git_oid *old_tip, const struct rolling_ref_move *moves,
			    size_t nr)
{
	struct rolling_worktree_tx tx;
	int err;

	if (!old_tip)
		return rolling_error("'%s' is checked out but does not exist yet", branch);
	if ((err = rolling_worktree_check_idle(repo, branch)) < 0 ||
	    (err = rolling_worktree_begin(&tx, repo, branch, refname, old_tip, moves, nr)) < 0)
		return err;
	if ((err = check_unmoved(repo, refname, old_tip)) < 0 ||
	    (err = rolling_worktree_update(&tx)) < 0) {
		rolling_worktree_abort(&tx);
		return err;
	}
	/*
	 * Once the branch moves, index.lock holds the only index that
	 * matches it: a signal that removed it then would leave the next
	 * run nothing to finish with.  So the fatal signals wait from the
	 * move until the index is in place (tempfile.h), or until the move
	 * failed and nothing of it is left to finish.
	 */
	rolling_tempfile_hold_signals();
	if ((err = rolling_ref_move_all(repo, refname, old_tip, moves, nr)) < 0) {
		rolling_tempfile_release_signals();
		rolling_worktree_abort(&tx);
		return err;
	}
	err = rolling_worktree_commit(&tx);
	rolling_tempfile_release_signals();
	return err;
}

int rolling_branch_move(git_repository *repo, const char *branch, const git_oid *old_tip,
			const struct rolling_ref_move *moves, size_t nr)
{
	struct strbuf refname = STRBUF_INIT;
	int err;

	if (!nr)
		return 0;
	if ((err = rolling_branch_refname(&refname, branch)) < 0 ||
	    (err = rolling_worktree_recover(repo)) < 0 ||
	    (err = refuse_symbolic(repo, refname.buf)) < 0)
		goto out;
	if ((err = rolling_worktree_elsewhere(repo, refname.buf)) < 0)
		;
	else if (err)
		err = rolling_error("'%s' is checked out in another work tree; not moving it",
				    branch);
	else if (!checked_out_here(repo, refname.buf))
		err = rolling_ref_move_all(repo, refname.buf, old_tip, moves, nr);
	else if (!git_repository_workdir(repo))
		/* git merge's refusal: its files and index would stay behind */
		err = rolling_error("this operation must be run in a work tree");
	else
		err = move_checked_out(repo, branch, refname.buf, old_tip, moves, nr);
out:
	strbuf_release(&refname);
	return err;
}

/* Put the branch back as it was after its configuration could not be written. */
static void undo_create(git_repository *repo, const char *branch, const git_oid *old_tip,
			const struct rolling_ref_move *made)
{
	struct strbuf refname = STRBUF_INIT;
	struct rolling_ref_update del = { .had_old = 1 };

	if (old_tip) {
		struct rolling_ref_move back = { .message = "rolling: init failed, restored" };

		git_oid_cpy(&back.to, old_tip);
		rolling_branch_move(repo, branch, &made->to, &back, 1);
		return;
	}
	/* Only if it still holds what was made: another process's value stays. */
	if (rolling_branch_refname(&refname, branch) < 0) {
		strbuf_release(&refname);
		return;
	}
	del.refname = refname.buf;
	rolling_git_oid_zero(&del.new_oid);
	git_oid_cpy(&del.old_oid, &made->to);
	rolling_ref_transaction(repo, &del, 1);
	strbuf_release(&refname);
}

int rolling_branch_create(git_repository *repo, const struct rolling_config *cfg,
			  const git_oid *old_tip, const struct rolling_ref_move *move)
{
	struct rolling_config_tx tx;
	char *why;
	int err;

	if ((err = rolling_config_stage(&tx, repo, cfg)) < 0)
		return err;
	if ((err = rolling_branch_move(repo, cfg->branch, old_tip, move, 1)) < 0) {
		rolling_config_abort(&tx);
		return err;
	}
	if ((err = rolling_config_commit(&tx)) < 0) {
		/* Undoing records errors of its own: the reason is the commit's. */
		why = rolling_error_take();
		undo_create(repo, cfg->branch, old_tip, move);
		return rolling_error_restore(err, why);
	}
	return 0;
}
