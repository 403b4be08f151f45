#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "update.h"
#include "error.h"
#include "config.h"

#define REF_MAX 1024

struct conflicts {
	char list[2048];
	size_t len;
};

static int note_conflict(git_checkout_notify_t why, const char *path,
			 const git_diff_file *baseline, const git_diff_file *target,
			 const git_diff_file *workdir, void *payload)
{
	struct conflicts *c = payload;
	int n;

	(void)why; (void)baseline; (void)target; (void)workdir;
	if (c->len < sizeof(c->list)) {
		n = snprintf(c->list + c->len, sizeof(c->list) - c->len, "\n\t%s", path);
		c->len += n > 0 ? (size_t)n : 0;
	}
	return 0;
}

/* 1 when HEAD of this repository's work tree is refs/heads/<branch>. */
static int checked_out_here(git_repository *repo, const char *refname)
{
	git_reference *head;
	int here;

	if (git_repository_is_bare(repo) ||
	    git_reference_lookup(&head, repo, "HEAD") < 0)
		return 0;
	here = git_reference_type(head) == GIT_REFERENCE_SYMBOLIC &&
	       !strcmp(git_reference_symbolic_target(head), refname);
	git_reference_free(head);
	return here;
}

/* Another work tree has the branch checked out: leave it alone, as git does. */
static int checked_out_elsewhere(git_repository *repo, const char *refname)
{
	git_reference *ref;
	int out;

	if (git_reference_lookup(&ref, repo, refname) < 0)
		return 0;
	out = git_branch_is_checked_out(ref) == 1 && !checked_out_here(repo, refname);
	git_reference_free(ref);
	return out;
}

static int lookup_tree(git_tree **tree, git_repository *repo, const git_oid *commit_id)
{
	git_commit *commit;
	int err;

	*tree = NULL;
	if (!commit_id)
		return 0;
	if ((err = git_commit_lookup(&commit, repo, commit_id)) < 0)
		return rolling_git_error(err, "cannot read the branch tip");
	err = git_commit_tree(tree, commit);
	git_commit_free(commit);
	return err < 0 ? rolling_git_error(err, "cannot read the branch tip") : 0;
}

/*
 * Bring the work tree and index from `from` to `to`.  libgit2 decides
 * about every file before it writes any, so a conflict leaves all as it was.
 */
static int checkout(git_repository *repo, const char *branch, const git_oid *from,
		    const git_oid *to)
{
	git_checkout_options opts;
	git_tree *baseline = NULL, *target = NULL;
	struct conflicts conflicts = { "", 0 };
	int err;

	if ((err = lookup_tree(&baseline, repo, from)) < 0 ||
	    (err = lookup_tree(&target, repo, to)) < 0)
		goto out;
	git_checkout_options_init(&opts, GIT_CHECKOUT_OPTIONS_VERSION);
	opts.checkout_strategy = GIT_CHECKOUT_SAFE;
	opts.baseline = baseline;
	opts.notify_flags = GIT_CHECKOUT_NOTIFY_CONFLICT;
	opts.notify_cb = note_conflict;
	opts.notify_payload = &conflicts;
	err = git_checkout_tree(repo, (git_object *)target, &opts);
	if (err == GIT_ECONFLICT)
		err = rolling_error_code(ROLLING_ECONFLICT,
					 "your local changes to the following files would be "
					 "overwritten by advancing '%s':%s\n"
					 "commit or stash them, then try again; nothing was changed",
					 branch, conflicts.list);
	else if (err < 0)
		err = rolling_git_error(err, "cannot update the work tree");
out:
	git_tree_free(target);
	git_tree_free(baseline);
	return err;
}

/*
 * A lock file left where git takes the ref's lock: name it and say how
 * to recover, as git does, rather than blame a concurrent writer.
 */
static int stale_ref_lock(git_repository *repo, const char *refname)
{
	char *lock;
	int exists;

	if (asprintf(&lock, "%s%s.lock", git_repository_commondir(repo), refname) < 0)
		return 0;
	exists = !access(lock, F_OK);
	if (exists)
		rolling_error_code(ROLLING_ELOCKED,
				   "cannot lock ref '%s': '%s' exists\n"
				   "another git process seems to be running in this repository;"
				   " if none is, one crashed earlier: remove the file and try again",
				   refname, lock);
	free(lock);
	return exists;
}

static int move_ref(git_repository *repo, const char *refname, const git_oid *from,
		    const struct rolling_ref_move *move)
{
	git_reference *ref = NULL;
	int err = git_reference_create_matching(&ref, repo, refname, &move->to, from != NULL,
						from, move->message);

	git_reference_free(ref);
	if (err >= 0)
		return 0;
	if (err == GIT_EEXISTS)
		return rolling_error_code(ROLLING_ERACE, "%s already exists", refname);
	if (stale_ref_lock(repo, refname))
		return ROLLING_ELOCKED;
	if (err == GIT_EMODIFIED || err == GIT_ELOCKED || err == GIT_ENOTFOUND)
		return rolling_git_error(ROLLING_ERACE, "%s was changed by another process", refname);
	return rolling_git_error(err, "cannot update %s", refname);
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

int rolling_branch_move(git_repository *repo, const char *branch, const git_oid *old_tip,
			const struct rolling_ref_move *moves, size_t nr)
{
	char refname[REF_MAX];
	const git_oid *from = old_tip;
	int worktree, err;
	size_t i;

	if (!nr)
		return 0;
	snprintf(refname, sizeof(refname), "refs/heads/%s", branch);
	if ((err = refuse_symbolic(repo, refname)) < 0)
		return err;
	if (checked_out_elsewhere(repo, refname))
		return rolling_error("'%s' is checked out in another work tree; not moving it",
				     branch);
	worktree = checked_out_here(repo, refname);
	if (worktree && (err = checkout(repo, branch, old_tip, &moves[nr - 1].to)) < 0)
		return err;
	for (i = 0; i < nr; i++) {
		if ((err = move_ref(repo, refname, from, &moves[i])) < 0)
			break;
		from = &moves[i].to;
	}
	/*
	 * Losing the race: put the work tree back as it was.  The race is
	 * what the caller must hear about, whatever the restore says.
	 */
	if (err < 0 && worktree) {
		char race[1024];

		snprintf(race, sizeof(race), "%s", rolling_last_error());
		if (checkout(repo, branch, &moves[nr - 1].to, from) < 0)
			rolling_warning("could not restore the work tree: %s",
					rolling_last_error());
		rolling_error_code(err, "%s", race);
	}
	return err;
}

/* Put the branch back as it was after its configuration could not be written. */
static void undo_create(git_repository *repo, const char *branch, const git_oid *old_tip,
			const struct rolling_ref_move *made)
{
	char refname[REF_MAX];
	git_reference *ref;

	if (old_tip) {
		struct rolling_ref_move back = { .message = "rolling: init failed, restored" };

		git_oid_cpy(&back.to, old_tip);
		rolling_branch_move(repo, branch, &made->to, &back, 1);
		return;
	}
	snprintf(refname, sizeof(refname), "refs/heads/%s", branch);
	if (git_reference_lookup(&ref, repo, refname) < 0)
		return;
	if (git_reference_type(ref) == GIT_REFERENCE_DIRECT &&
	    git_oid_equal(git_reference_target(ref), &made->to))
		git_reference_delete(ref);
	git_reference_free(ref);
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
		why = rolling_error_take();
		undo_create(repo, cfg->branch, old_tip, move);
		return rolling_error_restore(err, why);
	}
	return 0;
}
