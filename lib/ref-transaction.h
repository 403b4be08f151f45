#ifndef ROLLING_REF_TRANSACTION_H
#define ROLLING_REF_TRANSACTION_H

#include <git2.h>

/* One ref to set, if it still holds what the caller last saw. */
struct rolling_ref_update {
	const char *refname;
	git_oid new_oid;
	int had_old;          /* 0: the ref must not exist */
	git_oid old_oid;
	const char *message;  /* for the reflog */
};

/*
 * Set every ref of `updates` or none: all are locked first, then each
 * is compared with its old value under its lock, and only when all
 * match are they written, each with a reflog entry (created for refs
 * outside refs/heads/ and refs/remotes/, which git does not log by
 * default).  Returns 0, or a negative error (a ref locked or changed
 * by another process, say) with nothing written.
 */
int rolling_ref_transaction(git_repository *repo, const struct rolling_ref_update *updates,
			    size_t nr);

#endif
