#ifndef ROLLING_REFS_BACKEND_H
#define ROLLING_REFS_BACKEND_H

#include <git2.h>

struct rolling_ref_update;

/*
 * The table behind refs.h, as git's `struct ref_storage_be`
 * (refs/refs-internal.h): for refs.c and the two backends only; callers
 * include refs.h.
 */

/* The transaction as refs.c keeps it, and the backends read it. */
struct rolling_ref_transaction {
	git_repository *repo;
	const struct rolling_ref_backend *be;
	struct rolling_ref_update *updates;   /* copies of the structs, not of what they point to */
	size_t nr, alloc;
	enum { ROLLING_REF_TX_OPEN, ROLLING_REF_TX_PREPARED, ROLLING_REF_TX_CLOSED } state;
	void *backend_data;                   /* the backend's, from prepare to commit or abort */
};

struct rolling_ref_backend {
	const char *name;
	/*
	 * Called with at least one update.  On success, backend_data holds
	 * what commit or abort needs; on failure nothing is left behind
	 * (no lock, no file, backend_data NULL).
	 */
	int (*prepare)(struct rolling_ref_transaction *tx);
	/* After a successful prepare; releases backend_data whatever it returns. */
	int (*commit)(struct rolling_ref_transaction *tx);
	/* After a successful prepare, instead of commit: releases every lock and backend_data. */
	void (*abort)(struct rolling_ref_transaction *tx);
	/* What a killed run left, before a transaction or a recovery. */
	void (*sweep)(git_repository *repo);
};

extern const struct rolling_ref_backend rolling_refs_files;
extern const struct rolling_ref_backend rolling_refs_reftable;

#endif
