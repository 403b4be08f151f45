#ifndef ROLLING_REF_UPDATE_H
#define ROLLING_REF_UPDATE_H

#include <git2.h>

/*
 * What a ref transaction is asked to do, whoever writes it: the files
 * backend of ref-transaction.h or git's own transaction
 * (ref-transaction-git.h).
 */

/*
 * One move of a ref, recorded in its reflog with `message` (of any
 * length; not copied: the caller keeps it while the move is in use).
 */
struct rolling_ref_move {
	git_oid to;
	const char *message;
};

/* One ref to set, if it still holds what the caller last saw. */
struct rolling_ref_update {
	const char *refname;
	git_oid new_oid;
	int had_old;          /* 0: the ref must not exist */
	git_oid old_oid;
	const char *message;  /* for the reflog */
	/*
	 * Optional: the ref passes through moves[0..moves_nr-1] (the last
	 * one's `to` is new_oid), one reflog line each, in place of one
	 * line with `message`.  The ref itself jumps to new_oid at once.
	 */
	const struct rolling_ref_move *moves;
	size_t moves_nr;
};

/* A compare-and-swap was lost: a ref is not where the caller saw it. */
#define ROLLING_EMODIFIED  -15   /* matches GIT_EMODIFIED on purpose */
/* The commit failed half-way and some refs could not be put back. */
#define ROLLING_EPARTIAL   -40

#endif
