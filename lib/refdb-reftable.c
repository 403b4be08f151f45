#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <git2/sys/refdb_backend.h>
#include <git2/sys/refs.h>
#include <git2/sys/repository.h>
#include "refdb-reftable.h"
#include "error.h"
#include "git2-compat.h"
#include "reftable.h"
#include "run-command.h"
#include "strbuf.h"

/* --- the reading ------------------------------------------------------------ */

/*
 * The refs as of one reading of the stacks, shared with the iterators
 * that still walk it when a newer reading replaces it.
 */
struct listing {
	unsigned users;
	struct rolling_reftable_stack common, own;
	const struct rolling_reftable_ref **refs;   /* merged, sorted by name */
	size_t nr;
};

struct reftable_refdb {
	git_refdb_backend parent;
	char *common_dir;        /* <common-dir>reftable */
	char *own_dir;           /* a linked work tree's <git-dir>reftable, else NULL */
	char *worktrees_dir;     /* <common-dir>worktrees */
	struct listing *current;
};

/* libgit2 callers read libgit2's error: ours goes there. */
static int libgit2_error(int code)
{
	git_error_set_str(GIT_ERROR_REFERENCE, rolling_last_error());
	return code;
}

static void listing_put(struct listing *l)
{
	if (!l || --l->users)
		return;
	rolling_reftable_release(&l->common);
	rolling_reftable_release(&l->own);
	free(l->refs);
	free(l);
}

/* As git's refs.c: HEAD, ORIG_HEAD, ... live in each work tree's own stack. */
static int is_root_syntax(const char *name)
{
	for (; *name; name++)
		if (!((*name >= 'A' && *name <= 'Z') || *name == '-' || *name == '_'))
			return 0;
	return 1;
}

static int is_per_worktree(const char *name)
{
	return is_root_syntax(name) || !strncmp(name, "refs/worktree/", 14) ||
	       !strncmp(name, "refs/bisect/", 12) || !strncmp(name, "refs/rewritten/", 15);
}

static int usable(const struct rolling_reftable_ref *r)
{
	return git_reference_is_valid_name(r->name);
}

/*
 * The refs of this work tree, as git's reftable backend merges them: all
 * of its own stack's, and of the common stack's those that are not a
 * work tree's own (which are the main work tree's); in the main work
 * tree, the common stack alone.
 */
static int merge(struct listing *l, int linked)
{
	size_t i = 0, j = 0;

	if (!(l->refs = calloc(l->common.nr + l->own.nr + 1, sizeof(*l->refs))))
		return rolling_error_nomem();
	while (i < l->own.nr || j < l->common.nr) {
		const struct rolling_reftable_ref *own = i < l->own.nr ? &l->own.refs[i] : NULL;
		const struct rolling_reftable_ref *common = j < l->common.nr ? &l->common.refs[j] : NULL;
		int cmp = !own ? 1 : !common ? -1 : strcmp(own->name, common->name);

		if (cmp <= 0) {
			if (usable(own))
				l->refs[l->nr++] = own;
			i++;
			j += !cmp;
			continue;
		}
		if ((!linked || !is_per_worktree(common->name)) && usable(common))
			l->refs[l->nr++] = common;
		j++;
	}
	return 0;
}

static int read_listing(struct listing *l, struct reftable_refdb *db)
{
	int err;

	if ((err = rolling_reftable_read(&l->common, db->common_dir)) < 0 ||
	    (db->own_dir && (err = rolling_reftable_read(&l->own, db->own_dir)) < 0))
		return err;
	return merge(l, db->own_dir != NULL);
}

/* The stacks are as they were read last? */
static int unchanged(const struct listing *l, struct reftable_refdb *db, int *err)
{
	char *list = NULL;
	size_t len;
	int same;

	if ((*err = rolling_reftable_read_list(&list, &len, db->common_dir)) < 0)
		return 0;
	same = len == l->common.list_len && !memcmp(list, l->common.list, len);
	free(list);
	if (!same || !db->own_dir)
		return same;
	if ((*err = rolling_reftable_read_list(&list, &len, db->own_dir)) < 0)
		return 0;
	same = len == l->own.list_len && !memcmp(list, l->own.list, len);
	free(list);
	return same;
}

/* The refs as of now: the last reading, unless a stack changed since. */
static int listing_get(struct listing **out, struct reftable_refdb *db)
{
	struct listing *l;
	int err = 0;

	if (db->current && unchanged(db->current, db, &err)) {
		*out = db->current;
		return 0;
	}
	if (err < 0)
		return libgit2_error(err);
	if (!(l = calloc(1, sizeof(*l))))
		return libgit2_error(rolling_error_nomem());
	l->users = 1;
	if ((err = read_listing(l, db)) < 0) {
		listing_put(l);
		return libgit2_error(err);
	}
	listing_put(db->current);
	*out = db->current = l;
	return 0;
}

static int by_name(const void *key, const void *ref)
{
	return strcmp(key, (*(const struct rolling_reftable_ref *const *)ref)->name);
}

static const struct rolling_reftable_ref *find(const struct listing *l, const char *name)
{
	const struct rolling_reftable_ref *const *found =
		bsearch(name, l->refs, l->nr, sizeof(*l->refs), by_name);

	return found ? *found : NULL;
}

static git_reference *make_ref(const char *name, const struct rolling_reftable_ref *r)
{
	if (r->kind == ROLLING_REFTABLE_SYMBOLIC)
		return git_reference__alloc_symbolic(name, r->target);
	return git_reference__alloc(name, &r->value,
				    r->kind == ROLLING_REFTABLE_PEELED ? &r->peeled : NULL);
}

/* --- another work tree's refs --------------------------------------------- */

/*
 * main-worktree/<ref> and worktrees/<id>/<ref> name a work tree's own
 * ref of another work tree (git's parse_worktree_ref()): the stack it is
 * in, and the name it has there.  0 when `name` is no such name.
 */
static int other_worktree(struct strbuf *dir, const char **bare, struct reftable_refdb *db,
			  const char *name)
{
	const char *slash;

	if (!strncmp(name, "main-worktree/", 14) && is_per_worktree(name + 14)) {
		strbuf_addstr(dir, db->common_dir);
		*bare = name + 14;
		return 1;
	}
	/* An id is a directory of worktrees/: not ".", "..", nor hidden. */
	if (strncmp(name, "worktrees/", 10) || !(slash = strchr(name + 10, '/')) ||
	    slash == name + 10 || name[10] == '.' || !is_per_worktree(slash + 1))
		return 0;
	strbuf_addf(dir, "%s/%.*s/reftable", db->worktrees_dir, (int)(slash - name - 10),
		    name + 10);
	*bare = slash + 1;
	return 1;
}

static int lookup_other(git_reference **out, struct reftable_refdb *db, const char *name,
			int *handled)
{
	struct rolling_reftable_stack stack;
	const struct rolling_reftable_ref *r;
	struct strbuf dir = STRBUF_INIT;
	const char *bare;
	int err = 0;

	if (!(*handled = other_worktree(&dir, &bare, db, name))) {
		strbuf_release(&dir);
		return 0;
	}
	if (strbuf_oom(&dir))
		err = rolling_error_nomem();
	else if (!(err = rolling_reftable_read(&stack, dir.buf))) {
		if ((r = rolling_reftable_find(&stack, bare)) && usable(r))
			err = (*out = make_ref(name, r)) ? 0 : rolling_error_nomem();
		else
			err = GIT_ENOTFOUND;
		rolling_reftable_release(&stack);
	}
	strbuf_release(&dir);
	if (err == GIT_ENOTFOUND)
		git_error_set(GIT_ERROR_REFERENCE, "reference '%s' not found", name);
	else if (err < 0)
		libgit2_error(err);
	return err;
}

/* --- reading ----------------------------------------------------------------- */

static int lookup(git_reference **out, git_refdb_backend *backend, const char *name)
{
	struct reftable_refdb *db = (struct reftable_refdb *)backend;
	const struct rolling_reftable_ref *r;
	struct listing *l;
	int handled, err;

	*out = NULL;
	if ((err = lookup_other(out, db, name, &handled)) < 0 || handled)
		return err;
	if (listing_get(&l, db) < 0)
		return -1;
	if ((r = find(l, name)))
		return (*out = make_ref(r->name, r)) ? 0 : libgit2_error(rolling_error_nomem());
	git_error_set(GIT_ERROR_REFERENCE, "reference '%s' not found", name);
	return GIT_ENOTFOUND;
}

static int exists(int *exists, git_refdb_backend *backend, const char *name)
{
	git_reference *ref;
	int err = lookup(&ref, backend, name);

	if (err == GIT_ENOTFOUND) {
		git_error_clear();
		*exists = 0;
		return 0;
	}
	if (err < 0)
		return err;
	git_reference_free(ref);
	*exists = 1;
	return 0;
}

struct iterator {
	git_reference_iterator parent;
	struct listing *listing;
	char *glob;
	size_t next;
};

/* The next ref under refs/ that matches the glob, or NULL. */
static const struct rolling_reftable_ref *iter_step(struct iterator *it)
{
	while (it->next < it->listing->nr) {
		const struct rolling_reftable_ref *r = it->listing->refs[it->next++];

		if (strncmp(r->name, "refs/", 5))
			continue;
		if (!it->glob || !fnmatch(it->glob, r->name, 0))
			return r;
	}
	return NULL;
}

static int iter_next(git_reference **out, git_reference_iterator *iter)
{
	const struct rolling_reftable_ref *r = iter_step((struct iterator *)iter);

	if (!r)
		return GIT_ITEROVER;
	return (*out = make_ref(r->name, r)) ? 0 : libgit2_error(rolling_error_nomem());
}

static int iter_next_name(const char **out, git_reference_iterator *iter)
{
	const struct rolling_reftable_ref *r = iter_step((struct iterator *)iter);

	if (!r)
		return GIT_ITEROVER;
	*out = r->name;
	return 0;
}

static void iter_free(git_reference_iterator *iter)
{
	struct iterator *it = (struct iterator *)iter;

	listing_put(it->listing);
	free(it->glob);
	free(it);
}

static int iterator(git_reference_iterator **out, git_refdb_backend *backend, const char *glob)
{
	struct reftable_refdb *db = (struct reftable_refdb *)backend;
	struct iterator *it;
	struct listing *l;

	if (listing_get(&l, db) < 0)
		return -1;
	if (!(it = calloc(1, sizeof(*it))) || (glob && !(it->glob = strdup(glob)))) {
		free(it);
		return libgit2_error(rolling_error_nomem());
	}
	it->parent.next = iter_next;
	it->parent.next_name = iter_next_name;
	it->parent.free = iter_free;
	it->listing = l;
	l->users++;
	*out = &it->parent;
	return 0;
}

/* Git's refusal or failure as libgit2's error, for the caller's message. */
static int git_failed(const char *what, int status, const char *said)
{
	const char *fatal = said ? strstr(said, "fatal: ") : NULL;
	struct strbuf msg = STRBUF_INIT;

	if (status < 0)
		return libgit2_error(-1);
	if (fatal)
		said = fatal + strlen("fatal: ");
	strbuf_addf(&msg, "git %s failed (exit status %d)", what, status);
	if (said && *said) {
		strbuf_addstr(&msg, ": ");
		strbuf_add(&msg, said, strcspn(said, "\n"));
	}
	git_error_set_str(GIT_ERROR_REFERENCE, strbuf_oom(&msg) ? "out of memory" : msg.buf);
	strbuf_release(&msg);
	return -1;
}

/* --- writing ----------------------------------------------------------------- */

/*
 * Why git refused an update: another process was first (the caller's
 * compare-and-swap lost, or the ref exists), else git's own words.
 */
static int update_failed(struct reftable_refdb *db, const char *name, const git_oid *old,
			 int must_not_exist, int status, const char *said)
{
	git_reference *now = NULL;
	int err = lookup(&now, &db->parent, name);

	if (err == GIT_ENOTFOUND)
		git_error_clear();
	if (must_not_exist && !err) {
		git_reference_free(now);
		git_error_set(GIT_ERROR_REFERENCE, "reference '%s' already exists", name);
		return GIT_EEXISTS;
	}
	if (old && (err == GIT_ENOTFOUND ||
		    (!err && (git_reference_type(now) != GIT_REFERENCE_DIRECT ||
			      !git_oid_equal(git_reference_target(now), old))))) {
		git_reference_free(now);
		git_error_set(GIT_ERROR_REFERENCE, "old reference value does not match");
		return GIT_EMODIFIED;
	}
	git_reference_free(now);
	return git_failed("update-ref", status, said);
}

/* One command of update-ref --stdin -z: "<verb> <ref>\0<oid>\0[<oid>\0]". */
static void add_command(struct strbuf *in, const char *verb, const char *name,
			const git_oid *a, const git_oid *b, int with_b)
{
	char hex[GIT_OID_HEXSZ + 1];

	strbuf_addf(in, "%s %s", verb, name);
	strbuf_addch(in, '\0');
	if (a)
		strbuf_add(in, git_oid_tostr(hex, sizeof(hex), a), GIT_OID_HEXSZ);
	strbuf_addch(in, '\0');
	if (with_b) {
		if (b)
			strbuf_add(in, git_oid_tostr(hex, sizeof(hex), b), GIT_OID_HEXSZ);
		strbuf_addch(in, '\0');
	}
}

static int run_update(const struct strbuf *in, const char *message, char **said)
{
	const char *with_message[] = { "update-ref", "-z", "--stdin", "-m", message, NULL };
	const char *plain[] = { "update-ref", "-z", "--stdin", NULL };
	char *out = NULL;
	int status;

	/* git refuses an empty message; no message is no reflog message. */
	status = rolling_run_git_io(message && *message ? with_message : plain, NULL, in->buf,
				    in->len, &out, said, ROLLING_RUN_CAPTURE);
	free(out);
	return status;
}

static int write_ref(git_refdb_backend *backend, const git_reference *ref, int force,
		     const git_signature *who, const char *message, const git_oid *old,
		     const char *old_target)
{
	struct reftable_refdb *db = (struct reftable_refdb *)backend;
	const char *name = git_reference_name(ref);
	struct strbuf in = STRBUF_INIT;
	char *said = NULL;
	int status, err = 0;

	(void)who;      /* git takes its committer's identity, as for its own updates */
	if (git_reference_type(ref) != GIT_REFERENCE_DIRECT || old_target) {
		git_error_set(GIT_ERROR_REFERENCE, "cannot write the symbolic ref '%s': git rolling"
			      " writes only direct refs in a reftable repository", name);
		return -1;
	}
	if (old)
		add_command(&in, "update", name, git_reference_target(ref), old, 1);
	else if (!force)
		add_command(&in, "create", name, git_reference_target(ref), NULL, 0);
	else
		add_command(&in, "update", name, git_reference_target(ref), NULL, 1);
	if (strbuf_oom(&in)) {
		git_error_set_oom();
		err = -1;
	} else if ((status = run_update(&in, message, &said)) != 0) {
		err = update_failed(db, name, old, !old && !force, status, said);
	}
	free(said);
	strbuf_release(&in);
	return err;
}

static int delete_ref(git_refdb_backend *backend, const char *name, const git_oid *old,
		      const char *old_target)
{
	struct reftable_refdb *db = (struct reftable_refdb *)backend;
	struct strbuf in = STRBUF_INIT;
	char *said = NULL;
	int status, err = 0;

	if (old_target) {
		git_error_set(GIT_ERROR_REFERENCE, "cannot delete the symbolic ref '%s' by its"
			      " target in a reftable repository", name);
		return -1;
	}
	add_command(&in, "delete", name, old, NULL, 0);
	if (strbuf_oom(&in)) {
		git_error_set_oom();
		err = -1;
	} else if ((status = run_update(&in, NULL, &said)) != 0) {
		err = update_failed(db, name, old, 0, status, said);
	}
	free(said);
	strbuf_release(&in);
	return err;
}

static int unsupported(const char *what)
{
	git_error_set(GIT_ERROR_REFERENCE, "%s is not supported in a reftable repository", what);
	return -1;
}

static int rename_ref(git_reference **out, git_refdb_backend *backend, const char *old_name,
		      const char *new_name, int force, const git_signature *who,
		      const char *message)
{
	(void)out; (void)backend; (void)old_name; (void)new_name; (void)force; (void)who;
	(void)message;
	return unsupported("renaming a ref");
}

static int compress(git_refdb_backend *backend)
{
	(void)backend;
	return 0;       /* git compacts the stack itself */
}

static int has_log(git_refdb_backend *backend, const char *name)
{
	const char *args[] = { "reflog", "exists", name, NULL };
	char *out = NULL, *said = NULL;
	int status;

	(void)backend;
	status = rolling_run_git_io(args, NULL, NULL, 0, &out, &said, ROLLING_RUN_CAPTURE);
	free(out);
	if (status == 0 || status == 1) {
		free(said);
		return !status;
	}
	status = git_failed("reflog exists", status, said);
	free(said);
	return status;
}

static int ensure_log(git_refdb_backend *backend, const char *name)
{
	(void)backend; (void)name;
	return unsupported("creating a reflog");
}

static int reflog_read(git_reflog **out, git_refdb_backend *backend, const char *name)
{
	(void)out; (void)backend; (void)name;
	return unsupported("reading a reflog through libgit2");
}

static int reflog_write(git_refdb_backend *backend, git_reflog *reflog)
{
	(void)backend; (void)reflog;
	return unsupported("writing a reflog through libgit2");
}

static int reflog_rename(git_refdb_backend *backend, const char *old_name, const char *new_name)
{
	(void)backend; (void)old_name; (void)new_name;
	return unsupported("renaming a reflog");
}

static int reflog_delete(git_refdb_backend *backend, const char *name)
{
	(void)backend; (void)name;
	return unsupported("deleting a reflog");
}

static int lock(void **payload, git_refdb_backend *backend, const char *name)
{
	(void)payload; (void)backend; (void)name;
	return unsupported("locking a ref through libgit2");
}

static int unlock(git_refdb_backend *backend, void *payload, int success, int update_reflog,
		  const git_reference *ref, const git_signature *sig, const char *message)
{
	(void)backend; (void)payload; (void)success; (void)update_reflog; (void)ref; (void)sig;
	(void)message;
	return unsupported("locking a ref through libgit2");
}

static void backend_free(git_refdb_backend *backend)
{
	struct reftable_refdb *db = (struct reftable_refdb *)backend;

	listing_put(db->current);
	free(db->common_dir);
	free(db->own_dir);
	free(db->worktrees_dir);
	free(db);
}

/* --- installing it ------------------------------------------------------------ */

static char *dir_in(const char *dir, const char *name)
{
	char *path;

	return asprintf(&path, "%s%s", dir, name) < 0 ? NULL : path;
}

int rolling_refdb_reftable_install(git_repository *repo)
{
	const char *common = git_repository_commondir(repo), *own = git_repository_path(repo);
	struct reftable_refdb *db = calloc(1, sizeof(*db));
	git_refdb *refdb = NULL;
	int err;

	if (!db)
		return rolling_error_nomem();
	if (!(db->common_dir = dir_in(common, "reftable")) ||
	    !(db->worktrees_dir = dir_in(common, "worktrees")) ||
	    (strcmp(common, own) && !(db->own_dir = dir_in(own, "reftable")))) {
		backend_free(&db->parent);
		return rolling_error_nomem();
	}
	if ((err = git_refdb_init_backend(&db->parent, GIT_REFDB_BACKEND_VERSION)) < 0) {
		backend_free(&db->parent);
		return rolling_git_error(err, "cannot set up the ref database");
	}
	db->parent.exists = exists;
	db->parent.lookup = lookup;
	db->parent.iterator = iterator;
	db->parent.write = write_ref;
	db->parent.rename = rename_ref;
	db->parent.del = delete_ref;
	db->parent.compress = compress;
	db->parent.has_log = has_log;
	db->parent.ensure_log = ensure_log;
	db->parent.free = backend_free;
	db->parent.reflog_read = reflog_read;
	db->parent.reflog_write = reflog_write;
	db->parent.reflog_rename = reflog_rename;
	db->parent.reflog_delete = reflog_delete;
	db->parent.lock = lock;
	db->parent.unlock = unlock;
	if ((err = git_refdb_new(&refdb, repo)) < 0) {
		backend_free(&db->parent);
		return rolling_git_error(err, "cannot set up the ref database");
	}
	if ((err = git_refdb_set_backend(refdb, &db->parent)) < 0) {
		backend_free(&db->parent);
		git_refdb_free(refdb);
		return rolling_git_error(err, "cannot set up the ref database");
	}
	err = git_repository_set_refdb(repo, refdb);
	git_refdb_free(refdb);
	return err < 0 ? rolling_git_error(err, "cannot set up the ref database") : 0;
}
