#include <stdio.h>
#include <stdlib.h>
#include "ref-move.h"
#include "error.h"
#include "lockfile.h"
#include "strbuf.h"

char *rolling_ref_lock_path(git_repository *repo, const char *refname)
{
	return rolling_strfmt("%s%s" ROLLING_LOCK_SUFFIX, git_repository_commondir(repo), refname);
}

int rolling_ref_move_all(git_repository *repo, const char *refname, const git_oid *old_tip,
			 const struct rolling_ref_move *moves, size_t nr)
{
	struct rolling_ref_update u = { .refname = refname, .had_old = old_tip != NULL,
					.moves = moves, .moves_nr = nr };
	int err;

	if (!nr)
		return 0;
	git_oid_cpy(&u.new_oid, &moves[nr - 1].to);
	if (old_tip)
		git_oid_cpy(&u.old_oid, old_tip);
	err = rolling_ref_transaction(repo, &u, 1);
	if (err == ROLLING_EMODIFIED && !old_tip)
		return rolling_error_code(err, "%s already exists", refname);
	return err;
}
