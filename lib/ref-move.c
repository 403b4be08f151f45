#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "ref-move.h"
#include "error.h"

char *rolling_ref_lock_path(git_repository *repo, const char *refname)
{
	char *lock;

	return asprintf(&lock, "%s%s.lock", git_repository_commondir(repo), refname) < 0 ?
	       NULL : lock;
}

/*
 * A lock file left where git takes the ref's lock: name it and say how
 * to recover, as git does, rather than blame a concurrent writer.
 */
static int stale_ref_lock(git_repository *repo, const char *refname)
{
	char *lock = rolling_ref_lock_path(repo, refname);
	int exists;

	if (!lock)
		return 0;
	exists = !access(lock, F_OK);
	if (exists)
		rolling_error("cannot lock ref '%s': '%s' exists\n"
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
		return rolling_error("%s already exists", refname);
	if (stale_ref_lock(repo, refname))
		return ROLLING_ERROR;
	if (err == GIT_EMODIFIED || err == GIT_ELOCKED || err == GIT_ENOTFOUND)
		return rolling_git_error(ROLLING_ERROR, "%s was changed by another process", refname);
	return rolling_git_error(err, "cannot update %s", refname);
}

int rolling_ref_move_all(git_repository *repo, const char *refname, const git_oid *old_tip,
			 const struct rolling_ref_move *moves, size_t nr)
{
	const git_oid *from = old_tip;
	size_t i;
	int err;

	for (i = 0; i < nr; i++) {
		if ((err = move_ref(repo, refname, from, &moves[i])) < 0)
			return err;
		from = &moves[i].to;
	}
	return 0;
}
