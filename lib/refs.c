#include <stdlib.h>
#include <string.h>
#include "refs.h"
#include "refs-backend.h"
#include "alloc.h"
#include "error.h"
#include "git2-compat.h"

/* --- the format of each open repository ----------------------------------- */

/*
 * libgit2's git_repository is opaque and holds nothing of ours, so the
 * format each repository was opened with is kept here, by its handle,
 * from its open (rolling_refs_init()) to its free (rolling_refs_release()).
 * A process opens one repository, or a few: a list is enough.
 */
struct opened {
	git_repository *repo;
	const struct rolling_ref_backend *be;
};

static struct opened *opened;
static size_t opened_nr, opened_alloc;

static struct opened *find_opened(git_repository *repo)
{
	size_t i;

	for (i = 0; i < opened_nr; i++)
		if (opened[i].repo == repo)
			return &opened[i];
	return NULL;
}

int rolling_refs_init(git_repository *repo, enum rolling_ref_format format)
{
	struct opened *o = find_opened(repo);

	if (!o) {
		if (ALLOC_GROW(opened, opened_nr + 1, opened_alloc) < 0)
			return -1;
		o = &opened[opened_nr++];
		o->repo = repo;
	}
	o->be = format == ROLLING_REF_FORMAT_REFTABLE ? &rolling_refs_reftable : &rolling_refs_files;
	return 0;
}

void rolling_refs_release(git_repository *repo)
{
	struct opened *o = find_opened(repo);

	if (!o)
		return;
	*o = opened[--opened_nr];
	if (!opened_nr) {
		free(opened);
		opened = NULL;
		opened_alloc = 0;
	}
}

static int backend_of(const struct rolling_ref_backend **be, git_repository *repo)
{
	struct opened *o = find_opened(repo);

	if (!o)
		return rolling_error("the ref format of '%s' is unknown: the repository was not"
				     " opened by git rolling's open (repo-open.h)",
				     git_repository_path(repo));
	*be = o->be;
	return 0;
}

int rolling_refs_format(git_repository *repo)
{
	const struct rolling_ref_backend *be = NULL;
	int err = backend_of(&be, repo);

	if (err < 0)
		return err;
	return be == &rolling_refs_reftable ? ROLLING_REF_FORMAT_REFTABLE : ROLLING_REF_FORMAT_FILES;
}

/* --- the transaction -------------------------------------------------------- */

int rolling_ref_transaction_begin(struct rolling_ref_transaction **out, git_repository *repo)
{
	const struct rolling_ref_backend *be = NULL;
	int err;

	*out = NULL;
	if ((err = backend_of(&be, repo)) < 0)
		return err;
	if (!(*out = calloc(1, sizeof(**out))))
		return rolling_error_nomem();
	(*out)->repo = repo;
	(*out)->be = be;
	return 0;
}

int rolling_ref_transaction_add(struct rolling_ref_transaction *tx,
				const struct rolling_ref_update *u)
{
	if (tx->state != ROLLING_REF_TX_OPEN)
		return rolling_error("cannot add %s to a ref transaction already prepared",
				     u->refname);
	if (!u->refname || !*u->refname)
		return rolling_error("a ref update names no ref");
	/* git deletes without a check when told no old value; we never want that. */
	if (rolling_ref_update_is_delete(u) && (!u->had_old || u->moves_nr))
		return rolling_error("cannot delete %s: %s", u->refname,
				     u->had_old ? "a deletion makes no moves" :
				     "a deletion needs the value the ref must still hold");
	if (u->had_old && git_oid_is_zero(&u->old_oid))
		return rolling_error("cannot update %s: the null id is no old value (\"must not"
				     " exist\" is had_old 0)", u->refname);
	if (ALLOC_GROW(tx->updates, tx->nr + 1, tx->alloc) < 0)
		return -1;
	tx->updates[tx->nr++] = *u;
	return 0;
}

int rolling_ref_transaction_prepare(struct rolling_ref_transaction *tx)
{
	int err;

	if (tx->state != ROLLING_REF_TX_OPEN)
		return rolling_error("a ref transaction can be prepared only once");
	if (!tx->nr) {
		tx->state = ROLLING_REF_TX_PREPARED;
		return 0;
	}
	err = tx->be->prepare(tx);
	tx->state = err < 0 ? ROLLING_REF_TX_CLOSED : ROLLING_REF_TX_PREPARED;
	return err;
}

int rolling_ref_transaction_commit(struct rolling_ref_transaction *tx)
{
	int err;

	if (tx->state == ROLLING_REF_TX_OPEN && (err = rolling_ref_transaction_prepare(tx)) < 0)
		return err;
	if (tx->state != ROLLING_REF_TX_PREPARED)
		return rolling_error("a ref transaction that failed or was committed cannot be"
				     " committed");
	tx->state = ROLLING_REF_TX_CLOSED;
	return tx->nr ? tx->be->commit(tx) : 0;
}

void rolling_ref_transaction_free(struct rolling_ref_transaction *tx)
{
	if (!tx)
		return;
	if (tx->state == ROLLING_REF_TX_PREPARED && tx->nr)
		tx->be->abort(tx);
	free(tx->updates);
	free(tx);
}

int rolling_ref_transaction(git_repository *repo, const struct rolling_ref_update *updates,
			    size_t nr)
{
	struct rolling_ref_transaction *tx;
	size_t i;
	int err;

	if ((err = rolling_ref_transaction_begin(&tx, repo)) < 0)
		return err;
	for (i = 0; i < nr && !err; i++)
		err = rolling_ref_transaction_add(tx, &updates[i]);
	if (!err)
		err = rolling_ref_transaction_commit(tx);
	rolling_ref_transaction_free(tx);
	return err;
}

void rolling_ref_transaction_sweep(git_repository *repo)
{
	struct opened *o = find_opened(repo);

	/* A repository we cannot write has nothing of ours to sweep. */
	if (o)
		o->be->sweep(repo);
}
