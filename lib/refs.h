#ifndef ROLLING_REFS_H
#define ROLLING_REFS_H

#include <git2.h>

/*
 * The one way git-rolling writes refs, whatever format the repository
 * keeps them in: a transaction, as git's (refs.h), that sets every ref it
 * holds or none.
 *
 *	struct rolling_ref_transaction *tx;
 *
 *	if ((err = rolling_ref_transaction_begin(&tx, repo)) < 0)
 *		return err;
 *	if ((err = rolling_ref_transaction_add(tx, &update)) < 0 ||
 *	    (err = rolling_ref_transaction_prepare(tx)) < 0 ||
 *	    (err = rolling_ref_transaction_commit(tx)) < 0)
 *		...;
 *	rolling_ref_transaction_free(tx);    (aborts one not committed)
 *
 * or rolling_ref_transaction() for all of that at once.
 *
 * Behind it, a table of two backends (refs-backend.h), one for each ref
 * format, chosen ONCE, when the repository is opened
 * (rolling_repo_format_check(), repo-format.h) and kept with the
 * repository handle until rolling_repo_free() (repo.h): a change to
 * extensions.refStorage made afterwards, by this process or another, is
 * not honoured, as git fixes the format when it sets the repository up.
 * A repository not opened that way (git_repository_open() called
 * directly) has no backend, and writing its refs is an error, never a
 * guess.
 *
 *  - files (refs-files.c): git-rolling writes loose refs and reflogs
 *    itself, as git's files backend does (refs/files-backend.c), with a
 *    journal (ref-journal.h) so that a run killed in the middle is swept
 *    up by the next one;
 *  - reftable (refs-reftable.c): git writes them, in one
 *    `git update-ref -z --stdin` transaction (start, the updates,
 *    prepare, commit), which is atomic in that format.  libgit2 cannot
 *    write reftable; its own write paths (refdb-reftable.h) refuse.
 *
 * What differs by backend, decided here and nowhere else:
 *
 *  - the reflog lines.  files: one line per move, each with its own
 *    message (a ref that passes through several moves, advance with
 *    steps = each, gets one line for each).  reftable: git takes one
 *    message per transaction and writes one line per ref, so a ref gets
 *    one line for its jump, and refs whose messages differ share one:
 *    when every message is the same, it; else the messages joined by
 *    ", ", the branches' before the tags', their common head up to its
 *    last ": " ("rolling: ", "rolling fetch origin: ") written once:
 *    "rolling: merge v6.6.2, merge v6.6.3"
 *    (rolling_ref_transaction_message()).
 *  - which refs get a reflog: git's rule in both
 *    (should_autocreate_reflog(), refs.c): with core.logAllRefUpdates
 *    true (the default outside a bare repository), refs/heads/,
 *    refs/remotes/, refs/notes/ and HEAD; "always", every ref; false
 *    (the default in a bare one), none; and in every case a ref whose
 *    reflog exists.  An update may ask for one whatever the rule
 *    (`create_reflog`, git's REF_FORCE_CREATE_REFLOG, `update-ref
 *    --create-reflog`): files gives that ref one; reftable cannot say it
 *    of one ref of a `--stdin` transaction, so git gives every ref of
 *    that transaction one.  HEAD gets a line when the branch it names
 *    moves (not when it is deleted) if HEAD itself is to be logged.
 *    Deleting a ref deletes its reflog, in both, as git does.
 *  - the reference-transaction hook: reftable runs it (git does, for its
 *    own transaction); files does not (git-rolling writes the files
 *    itself, as libgit2 does, and runs no hook).
 *  - what prepare does: files takes every lock and compares every old
 *    value under it, so that commit can only fail on the disk; reftable
 *    only checks and builds the request, and git locks, compares and
 *    writes at commit, in one run (the run-command layer has no way yet
 *    to keep git waiting between the two).
 *  - a partial failure (ROLLING_EPARTIAL): files only.
 */

/*
 * One move of a ref, recorded in its reflog with `message` (of any
 * length; not copied: the caller keeps it while the move is in use).
 */
struct rolling_ref_move {
	git_oid to;
	const char *message;
};

/*
 * One ref to set, or delete, if it still holds what the caller last saw.
 * Nothing is copied: the strings and moves stay the caller's until the
 * transaction is freed.
 */
struct rolling_ref_update {
	const char *refname;
	/* The null id (all zeros): delete the ref, which needs had_old */
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
	int create_reflog;    /* a reflog whatever the rule above */
};

/* 1 when `u` deletes its ref (new_oid is the null id). */
static inline int rolling_ref_update_is_delete(const struct rolling_ref_update *u)
{
	return git_oid_is_zero(&u->new_oid);
}

/* A compare-and-swap was lost: a ref is not where the caller saw it. */
#define ROLLING_EMODIFIED  -15   /* matches GIT_EMODIFIED on purpose */
/* The commit failed half-way and some refs could not be put back. */
#define ROLLING_EPARTIAL   -40

struct rolling_ref_transaction;

/*
 * A new, empty transaction on the refs of `repo`, with the backend its
 * open chose.  Returns 0, or a negative error (no backend: the
 * repository was not opened by repo-open.h).
 */
int rolling_ref_transaction_begin(struct rolling_ref_transaction **out, git_repository *repo);

/*
 * Queue `u` (not copied, see above).  A deletion without an old value
 * and an update after prepare are refused.  Returns 0, or a negative
 * error.
 */
int rolling_ref_transaction_add(struct rolling_ref_transaction *tx,
				const struct rolling_ref_update *u);

/*
 * Make sure the transaction can be committed (see above for what each
 * backend does here).  Returns 0; ROLLING_EMODIFIED when a ref is not
 * where its update says (nothing written); another negative error with
 * nothing changed.  A failed transaction can only be freed.
 */
int rolling_ref_transaction_prepare(struct rolling_ref_transaction *tx);

/*
 * Write every update (preparing first, if that was not done).  Returns
 * 0; ROLLING_EMODIFIED when a ref was changed by another process
 * (nothing written); ROLLING_EPARTIAL, with a message naming the refs
 * that moved and the reflogs that record a move, when a file could not
 * be put back (files only); another negative error with nothing changed.
 */
int rolling_ref_transaction_commit(struct rolling_ref_transaction *tx);

/* Abort the transaction unless it was committed (releasing every lock), and free it. */
void rolling_ref_transaction_free(struct rolling_ref_transaction *tx);

/* begin, add each of `updates`, commit, free: the same return values. */
int rolling_ref_transaction(git_repository *repo, const struct rolling_ref_update *updates,
			    size_t nr);

/*
 * What a run killed in a transaction left (files: its locks and kept
 * files removed, the reflog lines of moves it did not make cut,
 * ref-journal.h; reftable: nothing, git's own transaction leaves only
 * its lock, which git names).  Every transaction does this first; a
 * command that may find such a run's refs without writing any (a
 * recovery, a fetch with nothing new) calls it itself.
 */
void rolling_ref_transaction_sweep(git_repository *repo);

/* The one reflog message of a reftable transaction of `updates`, as above; NULL: out of memory. */
char *rolling_ref_transaction_message(const struct rolling_ref_update *updates, size_t nr);

/* --- the format, fixed at open ------------------------------------------- */

enum rolling_ref_format {
	ROLLING_REF_FORMAT_FILES,
	ROLLING_REF_FORMAT_REFTABLE,
};

/*
 * Record the format of the refs of `repo`, just opened (repo-format.c
 * calls it, and nothing else should).  Returns 0, or a negative error.
 */
int rolling_refs_init(git_repository *repo, enum rolling_ref_format format);

/* Forget `repo`, about to be freed (rolling_repo_free(), repo.h). */
void rolling_refs_release(git_repository *repo);

/*
 * The format recorded at open: ROLLING_REF_FORMAT_*, or a negative error
 * when `repo` was not opened through repo-open.h.
 */
int rolling_refs_format(git_repository *repo);

#endif
