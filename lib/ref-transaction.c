#include <string.h>
#include "ref-transaction.h"
#include "error.h"

static int check_old(git_repository *repo, const struct rolling_ref_update *u)
{
	git_oid current;
	int err = git_reference_name_to_id(&current, repo, u->refname);

	if (err == GIT_ENOTFOUND && !u->had_old)
		return 0;
	if (err < 0 && err != GIT_ENOTFOUND)
		return rolling_git_error(err, "cannot read %s", u->refname);
	if (!err && u->had_old && git_oid_equal(&current, &u->old_oid))
		return 0;
	return rolling_error("%s was changed by another process", u->refname);
}

static int is_logged_by_default(const char *refname)
{
	return !strncmp(refname, "refs/heads/", 11) || !strncmp(refname, "refs/remotes/", 13);
}

int rolling_ref_transaction(git_repository *repo, const struct rolling_ref_update *updates,
			    size_t nr)
{
	git_transaction *tx = NULL;
	size_t i;
	int err;

	if ((err = git_transaction_new(&tx, repo)) < 0)
		return rolling_git_error(err, "cannot start a ref transaction");
	for (i = 0; i < nr; i++) {
		if ((err = git_transaction_lock_ref(tx, updates[i].refname)) < 0) {
			err = rolling_git_error(err,
						"cannot lock %s", updates[i].refname);
			goto out;
		}
	}
	/* Under the locks nobody else can move them: compare, then write. */
	for (i = 0; i < nr; i++)
		if ((err = check_old(repo, &updates[i])) < 0)
			goto out;
	for (i = 0; i < nr; i++) {
		const struct rolling_ref_update *u = &updates[i];

		if ((!is_logged_by_default(u->refname) &&
		     (err = git_reference_ensure_log(repo, u->refname)) < 0) ||
		    (err = git_transaction_set_target(tx, u->refname, &u->new_oid, NULL,
						      u->message)) < 0) {
			err = rolling_git_error(err, "cannot update %s", u->refname);
			goto out;
		}
	}
	if ((err = git_transaction_commit(tx)) < 0)
		err = rolling_git_error(err, "cannot update the refs");
out:
	git_transaction_free(tx);
	return err;
}
