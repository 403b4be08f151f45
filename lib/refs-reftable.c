#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "refs.h"
#include "refs-backend.h"
#include "disk-space.h"
#include "git2-compat.h"
#include "error.h"
#include "lockfile.h"
#include "run-command.h"
#include "strbuf.h"

/*
 * The reftable backend of refs.h: every update of the transaction in one
 * transaction of git's own (`git update-ref -z --stdin`: start, the
 * updates, prepare, commit), which is atomic in that format: every ref
 * is compared with its old value under git's lock of the stack and
 * written in one new table, or none is.  prepare here builds the request;
 * git locks, compares and writes in commit's one run.  git takes one
 * reflog message for the transaction and applies its own reflog rule;
 * what that means is said in refs.h, the one place.
 *
 * This is the project's one writer of reftable refs: libgit2's write
 * paths in such a repository (refdb-reftable.h) refuse.
 */

/* --- the message ---------------------------------------------------------- */

static void add_message(const char ***list, size_t *nr, const char *message)
{
	size_t i;

	if (!message || !*message)
		return;
	for (i = 0; i < *nr; i++)
		if (!strcmp((*list)[i], message))
			return;
	(*list)[(*nr)++] = message;
}

/* The length of the head every message starts with, up to and with its last ": ". */
static size_t common_head(const char **list, size_t nr)
{
	size_t len = strlen(list[0]), i, j;

	for (i = 1; i < nr; i++) {
		for (j = 0; j < len && list[i][j] == list[0][j]; j++)
			;
		len = j;
	}
	while (len >= 2 && !(list[0][len - 2] == ':' && list[0][len - 1] == ' '))
		len--;
	return len >= 2 ? len : 0;
}

static int is_tag(const char *refname)
{
	return !strncmp(refname, "refs/tags/", strlen("refs/tags/"));
}

char *rolling_ref_transaction_message(const struct rolling_ref_update *updates, size_t nr)
{
	struct strbuf sb = STRBUF_INIT;
	const char **list;
	size_t all = 0, distinct = 0, i, j, head;
	int pass;

	for (i = 0; i < nr; i++)
		all += updates[i].moves_nr ? updates[i].moves_nr : 1;
	if (!(list = calloc(all ? all : 1, sizeof(*list))))
		return NULL;
	/* The branches' first, the tags' after: whatever order the refs are written in. */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < nr; i++) {
			if (is_tag(updates[i].refname) != pass)
				continue;
			if (!updates[i].moves_nr)
				add_message(&list, &distinct, updates[i].message);
			for (j = 0; j < updates[i].moves_nr; j++)
				add_message(&list, &distinct, updates[i].moves[j].message);
		}
	head = distinct ? common_head(list, distinct) : 0;
	strbuf_add(&sb, distinct ? list[0] : "", head);
	for (i = 0; i < distinct; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", list[i] + head);
	free(list);
	if (strbuf_oom(&sb)) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

/* --- the transaction ------------------------------------------------------- */

/*
 * "update <ref>\0<new>\0<old>\0", "create <ref>\0<new>\0" for a ref that
 * must not exist, or "delete <ref>\0<old>\0" (refs.c never queues a
 * deletion without its old value).
 */
static void add_update(struct strbuf *in, const struct rolling_ref_update *u)
{
	char hex[GIT_OID_HEXSZ + 1];
	int deleting = rolling_ref_update_is_delete(u);

	strbuf_addf(in, "%s %s", deleting ? "delete" : u->had_old ? "update" : "create",
		    u->refname);
	strbuf_addch(in, '\0');
	if (!deleting) {
		strbuf_addstr(in, git_oid_tostr(hex, sizeof(hex), &u->new_oid));
		strbuf_addch(in, '\0');
	}
	if (u->had_old) {
		strbuf_addstr(in, git_oid_tostr(hex, sizeof(hex), &u->old_oid));
		strbuf_addch(in, '\0');
	}
}

/* 1 when the ref is no longer where the caller saw it (or, had_old 0, exists). */
static int was_moved(git_repository *repo, const struct rolling_ref_update *u)
{
	git_oid now;
	int err = git_reference_name_to_id(&now, repo, u->refname);

	git_error_clear();
	if (err == GIT_ENOTFOUND)
		return u->had_old;
	if (err < 0)
		return 0;
	return !u->had_old || !git_oid_equal(&now, &u->old_oid);
}

/* Where git writes the tables, full? */
static int out_of_space(git_repository *repo)
{
	char *dir = rolling_path_join(git_repository_commondir(repo), "reftable");
	int full;

	if (!dir)
		return 0;
	full = rolling_out_of_space(dir);
	free(dir);
	return full;
}

/*
 * The stack's lock, if it is there: every writer of any ref takes it,
 * and git waits for it only core.filesRefLockTimeout (100 ms).  A NULL
 * when there is none (or no memory to say so).
 */
static char *held_stack_lock(git_repository *repo)
{
	struct stat st;
	char *lock = rolling_path_join(git_repository_commondir(repo),
				       "reftable/tables.list" ROLLING_LOCK_SUFFIX);

	if (lock && lstat(lock, &st) < 0) {
		free(lock);
		return NULL;
	}
	return lock;
}

/* 1 when every ref holds what the transaction was to write (a deleted one: nothing). */
static int all_written(git_repository *repo, const struct rolling_ref_update *updates, size_t nr)
{
	git_oid now;
	size_t i;
	int err;

	for (i = 0; i < nr; i++) {
		err = git_reference_name_to_id(&now, repo, updates[i].refname);
		git_error_clear();
		if (rolling_ref_update_is_delete(&updates[i]) ? err != GIT_ENOTFOUND :
		    err < 0 || !git_oid_equal(&now, &updates[i].new_oid))
			return 0;
	}
	return 1;
}

/*
 * git refused in "prepare", where it locks the stack and checks every
 * old value: a compare-and-swap lost to another process, or git's own
 * reason (a full disk, a lock held too long); nothing was written.  Or
 * git failed after "prepare: ok": its commit may have put the new table
 * in place and failed after it (git compacts the stack then, and
 * reports a full disk there as the transaction's failure), or git was
 * killed after it (a signal to the process group, SIGPIPE), so the refs
 * tell, whatever the exit status.  Only then do refs that hold the new
 * values mean the write was ours: another process that wrote the same
 * values (a concurrent fetch of the same tip) makes prepare fail, and
 * that is a lost race.
 */
static int failed(git_repository *repo, const struct rolling_ref_update *updates, size_t nr,
		  int status, const char *out, char *said)
{
	const char *why = rolling_git_words(said, ROLLING_GIT_WORDS_LINE);
	char *lock;
	size_t i;
	int err;

	if (status > 0 && out && strstr(out, "prepare: ok\n") && all_written(repo, updates, nr)) {
		if (status > 128)
			rolling_warning("the refs were written, then git update-ref died of"
					" signal %d", status - 128);
		else
			rolling_warning("the refs were written, then git update-ref failed: %s",
					why && *why ? why : "(it said nothing)");
		return 0;
	}
	for (i = 0; i < nr; i++)
		if (was_moved(repo, &updates[i]))
			return rolling_error_code(ROLLING_EMODIFIED, "%s was changed by another"
						  " process", updates[i].refname);
	if (status < 0)
		return rolling_error_prefix(status, "cannot update %s%s",
					    updates[0].refname, nr > 1 ? " and the other refs" : "");
	/* As the files backend says it of a ref's own lock (refs-files.c). */
	if (status <= 128 && (lock = held_stack_lock(repo))) {
		err = rolling_lock_held_error_one(updates[0].refname, lock, NULL);
		free(lock);
		return err;
	}
	/* git's reftable code says "I/O error" when the disk is full. */
	if (status <= 128 && out_of_space(repo))
		return rolling_error("cannot update %s%s: %s (git update-ref: %s); nothing was"
				     " changed", updates[0].refname, nr > 1 ? " and the other refs" : "",
				     strerror(ENOSPC), why && *why ? why : "failed");
	return rolling_error("cannot update %s%s: git update-ref failed (exit status %d)%s%s",
			     updates[0].refname, nr > 1 ? " and the other refs" : "", status,
			     why && *why ? ": " : "", why ? why : "");
}

/* What prepare made for commit to hand to git. */
struct request {
	struct strbuf in;
	char *message;
	int create_reflog;
};

static void request_free(struct request *r)
{
	if (!r)
		return;
	strbuf_release(&r->in);
	free(r->message);
	free(r);
}

static int reftable_prepare(struct rolling_ref_transaction *tx)
{
	struct request *r = calloc(1, sizeof(*r));
	size_t i;

	if (!r)
		return rolling_error_nomem();
	r->in = (struct strbuf)STRBUF_INIT;
	if (!(r->message = rolling_ref_transaction_message(tx->updates, tx->nr))) {
		request_free(r);
		return rolling_error_nomem();
	}
	/* Explicit phases, so that git's answers say whether it got past prepare. */
	strbuf_addstr(&r->in, "start");
	strbuf_addch(&r->in, '\0');
	for (i = 0; i < tx->nr; i++) {
		add_update(&r->in, &tx->updates[i]);
		r->create_reflog |= tx->updates[i].create_reflog;
	}
	strbuf_addstr(&r->in, "prepare");
	strbuf_addch(&r->in, '\0');
	strbuf_addstr(&r->in, "commit");
	strbuf_addch(&r->in, '\0');
	if (strbuf_oom(&r->in)) {
		request_free(r);
		return rolling_error_nomem();
	}
	tx->backend_data = r;
	return 0;
}

static int reftable_commit(struct rolling_ref_transaction *tx)
{
	struct request *r = tx->backend_data;
	struct rolling_child git = ROLLING_CHILD_INIT;
	int status;

	rolling_strvec_pushl(&git.args, "update-ref", "-z", "--stdin", NULL);
	/* git's --stdin has no way to ask it of one ref: every ref of the transaction gets one */
	if (r->create_reflog)
		rolling_strvec_push(&git.args, "--create-reflog");
	/* git refuses an empty message: none is no message. */
	if (*r->message)
		rolling_strvec_pushl(&git.args, "-m", r->message, NULL);
	git.input = r->in.buf;
	git.input_len = r->in.len;
	git.out = ROLLING_CHILD_CAPTURE;
	git.err = ROLLING_CHILD_ERR_CAPTURE;
	status = rolling_child_run(&git);
	if (status)
		status = failed(tx->repo, tx->updates, tx->nr, status,
				status < 0 ? NULL : git.captured.buf, git.said.buf);
	rolling_child_release(&git);
	request_free(r);
	tx->backend_data = NULL;
	return status;
}

static void reftable_abort(struct rolling_ref_transaction *tx)
{
	request_free(tx->backend_data);
	tx->backend_data = NULL;
}

/* git's transaction leaves nothing of ours: a killed git leaves its lock, which git names. */
static void reftable_sweep(git_repository *repo)
{
	(void)repo;
}

const struct rolling_ref_backend rolling_refs_reftable = {
	.name = "reftable",
	.prepare = reftable_prepare,
	.commit = reftable_commit,
	.abort = reftable_abort,
	.sweep = reftable_sweep,
};
