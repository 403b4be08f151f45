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
#include "alloc.h"
#include "run-command.h"
#include "strbuf.h"
#include "vendor/reftable/reftable-error.h"
#include "vendor/reftable/reftable-record.h"
#include "vendor/reftable/reftable-iterator.h"
#include "vendor/reftable/reftable-stack.h"

/* --- the names git reads ------------------------------------------------------ */

/*
 * git's check_refname_format() with REFNAME_ALLOW_ONELEVEL (refs.c), which
 * git's reftable backend applies to every ref it lists, and every name
 * it is asked for: components of one byte or more, none beginning with
 * '.' or ending with ".lock", no "..", no "@{", no control character,
 * DEL, space, ':', '?', '[', '\', '^', '~' nor '*', not "@" alone, not
 * ending with '.'.  libgit2 before 1.9 lets DEL through.
 */
static int git_accepts_name(const char *name)
{
	const char *component = name, *p;

	if (!strcmp(name, "@"))
		return 0;
	for (p = name;; p++) {
		unsigned char c = (unsigned char)*p;

		if (!c || c == '/') {
			if (p == component || *component == '.' ||
			    (p - component >= 5 && !memcmp(p - 5, ".lock", 5)))
				return 0;
			if (!c)
				return p[-1] != '.';
			component = p + 1;
		} else if (c < 0x20 || c == 0x7f || strchr(" :?[\\^~*", c) ||
			   (c == '.' && p > component && p[-1] == '.') ||
			   (c == '{' && p > name && p[-1] == '@')) {
			return 0;
		}
	}
}

/*
 * git's refname_is_safe() for a name under refs/: what follows "refs/"
 * is not empty, neither begins nor ends with '/', and holds no "//" and
 * no "." or ".." component.  git lists no ref at all of a stack that
 * holds a name it refuses that is not safe either ("refname is
 * dangerous"), and no more do we.
 */
static int git_finds_safe(const char *name)
{
	const char *rest = name + 5, *c;

	if (!*rest || *rest == '/' || rest[strlen(rest) - 1] == '/' || strstr(rest, "//"))
		return 0;
	for (c = rest; c; c = strchr(c, '/'), c = c ? c + 1 : NULL)
		if ((c[0] == '.' && (!c[1] || c[1] == '/')) ||
		    (c[0] == '.' && c[1] == '.' && (!c[2] || c[2] == '/')))
			return 0;
	return 1;
}

/* As git's refs.c: HEAD, ORIG_HEAD, ... live in each work tree's own stack. */
static int is_root_syntax(const char *name)
{
	for (; *name; name++)
		if (!((*name >= 'A' && *name <= 'Z') || *name == '-' || *name == '_'))
			return 0;
	return 1;
}

/* git's is_current_worktree_ref(): a name of each work tree's own. */
static int is_per_worktree(const char *name)
{
	return is_root_syntax(name) || !strncmp(name, "refs/worktree/", 14) ||
	       !strncmp(name, "refs/bisect/", 12) || !strncmp(name, "refs/rewritten/", 15);
}

/* --- the stacks ----------------------------------------------------------------- */

/*
 * A table stack as git's reftable library reads it (lib/vendor/reftable):
 * opened at its first use, reloaded before every answer (a stat of its
 * tables.list when nothing changed), and `reloads` counts the readings
 * that found it changed.
 */
struct stack {
	char *dir;
	struct reftable_stack *st;
	unsigned reloads;
};

/* A reftable error code in words (reftable-error.h); -1: a record that does not decode. */
static int stack_error(const char *dir, int err)
{
	return rolling_error("cannot read the reftable stack '%s': %s", dir,
			     err == -1 ? "a table is damaged or unreadable" :
			     reftable_error_str(err));
}

static void count_reload(void *payload)
{
	((struct stack *)payload)->reloads++;
}

/* The stack as of now; 0, or a negative error with a message. */
static int stack_get(struct reftable_stack **out, struct stack *s)
{
	int err;

	if (!s->st) {
		struct reftable_write_options opts = { 0 };

		opts.hash_id = REFTABLE_HASH_SHA1;
		opts.on_reload = count_reload;
		opts.on_reload_payload = s;
		err = reftable_new_stack(&s->st, s->dir, &opts);
	} else {
		err = reftable_stack_reload(s->st);
	}
	if (err < 0)
		return stack_error(s->dir, err);
	*out = s->st;
	return 0;
}

static void stack_release(struct stack *s)
{
	reftable_stack_destroy(s->st);
	free(s->dir);
	memset(s, 0, sizeof(*s));
}

/*
 * The record of `name` in the stack, as git's read_raw_ref() finds it:
 * 0, ROLLING_ENOTFOUND, or another negative error with a message.
 */
static int stack_read(struct reftable_ref_record *rec, struct stack *s, const char *name)
{
	struct reftable_stack *st;
	int err;

	if ((err = stack_get(&st, s)) < 0)
		return err;
	if ((err = reftable_stack_read_ref(st, name, rec)) < 0)
		return stack_error(s->dir, err);
	return err ? ROLLING_ENOTFOUND : 0;
}

/* --- the listing -------------------------------------------------------------- */

struct entry {
	char *name, *target;         /* target: a symbolic ref's, else NULL */
	git_oid value, peeled;
	int has_peeled;
};

/*
 * The refs under refs/ as of one reading of the stacks, sorted by name,
 * shared with the iterators that still walk it when a newer reading
 * replaces it.
 */
struct listing {
	unsigned users;
	unsigned common_reloads, own_reloads;   /* the readings it was made from */
	struct entry *refs;
	size_t nr, alloc;
};

struct reftable_refdb {
	git_refdb_backend parent;
	struct stack common;     /* <common-dir>reftable */
	struct stack own;        /* a linked work tree's <git-dir>reftable; dir NULL in the main one */
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
	size_t i;

	if (!l || --l->users)
		return;
	for (i = 0; i < l->nr; i++) {
		free(l->refs[i].name);
		free(l->refs[i].target);
	}
	free(l->refs);
	free(l);
}

static int add_entry(struct listing *l, const struct reftable_ref_record *rec)
{
	struct entry *e;

	if (ALLOC_GROW(l->refs, l->nr + 1, l->alloc) < 0)
		return ROLLING_ERROR;
	e = &l->refs[l->nr];
	memset(e, 0, sizeof(*e));
	if (!(e->name = strdup(rec->refname)))
		return rolling_error_nomem();
	switch (rec->value_type) {
	case REFTABLE_REF_SYMREF:
		if (!(e->target = strdup(rec->value.symref))) {
			free(e->name);
			return rolling_error_nomem();
		}
		break;
	case REFTABLE_REF_VAL2:
		git_oid_fromraw(&e->peeled, rec->value.val2.target_value);
		e->has_peeled = 1;
		/* fall through */
	default:
		git_oid_fromraw(&e->value, reftable_ref_record_val1(rec));
		break;
	}
	l->nr++;
	return 0;
}

/*
 * The refs under refs/ of one stack that `wanted` takes, in name order,
 * into `l`, as git's for-each-ref reads them: from the start of the
 * merged tables (deletions hide what they delete), leaving out the names
 * git would not accept.
 */
static int list_stack(struct listing *l, struct reftable_stack *st, const char *dir,
		      int (*wanted)(const char *name))
{
	struct reftable_iterator it = { 0 };
	struct reftable_ref_record rec = { 0 };
	int err, ours = 0;

	if ((err = reftable_stack_init_ref_iterator(st, &it)) == 0 &&
	    (err = reftable_iterator_seek_ref(&it, "")) == 0) {
		while ((err = reftable_iterator_next_ref(&it, &rec)) == 0) {
			if (strncmp(rec.refname, "refs/", 5) || (wanted && !wanted(rec.refname)))
				continue;
			if (!git_accepts_name(rec.refname)) {
				if (git_finds_safe(rec.refname))
					continue;
				ours = rolling_error("the reftable stack '%s' holds a ref of the"
						     " dangerous name '%s', which git refuses to"
						     " list", dir, rec.refname);
				break;
			}
			/* A name twice in a table: git resolves it to the first. */
			if (l->nr && !strcmp(l->refs[l->nr - 1].name, rec.refname))
				continue;
			if ((ours = add_entry(l, &rec)) < 0)
				break;
		}
	}
	reftable_ref_record_release(&rec);
	reftable_iterator_destroy(&it);
	if (ours < 0)
		return ours;
	return err < 0 ? stack_error(dir, err) : 0;
}

static int is_shared(const char *name)
{
	return !is_per_worktree(name);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

/*
 * The refs of this work tree, as git's reftable backend resolves them:
 * in the main work tree the common stack's; in a linked one, of its own
 * stack the names that are a work tree's own (refs/bisect/...), of the
 * common stack the shared ones, each name from its one stack only: a
 * branch that a work tree's own stack holds too is the common stack's
 * (git's read_raw_ref() never looks for it in the work tree's).
 */
static int read_listing(struct listing *l, struct reftable_refdb *db)
{
	struct reftable_stack *common, *own = NULL;
	int err;

	if ((err = stack_get(&common, &db->common)) < 0 ||
	    (db->own.dir && (err = stack_get(&own, &db->own)) < 0))
		return err;
	l->common_reloads = db->common.reloads;
	l->own_reloads = db->own.reloads;
	if ((err = list_stack(l, common, db->common.dir, own ? is_shared : NULL)) < 0 ||
	    (own && (err = list_stack(l, own, db->own.dir, is_per_worktree)) < 0))
		return err;
	/* Two sorted runs of distinct names. */
	if (own && l->nr)
		qsort(l->refs, l->nr, sizeof(*l->refs), by_name);
	return 0;
}

/* The refs as of now: the last reading, unless a stack changed since. */
static int listing_get(struct listing **out, struct reftable_refdb *db)
{
	struct reftable_stack *st;
	struct listing *l = db->current;
	int err = 0;

	if (l && !(err = stack_get(&st, &db->common)) &&
	    !(db->own.dir && (err = stack_get(&st, &db->own))) &&
	    l->common_reloads == db->common.reloads && l->own_reloads == db->own.reloads) {
		*out = l;
		return 0;
	}
	if (l && err < 0)
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

static git_reference *make_ref(const char *name, const struct reftable_ref_record *rec)
{
	git_oid value, peeled;

	if (rec->value_type == REFTABLE_REF_SYMREF)
		return git_reference__alloc_symbolic(name, rec->value.symref);
	git_oid_fromraw(&value, reftable_ref_record_val1(rec));
	if (rec->value_type == REFTABLE_REF_VAL2)
		git_oid_fromraw(&peeled, rec->value.val2.target_value);
	return git_reference__alloc(name, &value,
				    rec->value_type == REFTABLE_REF_VAL2 ? &peeled : NULL);
}

static git_reference *make_listed_ref(const struct entry *e)
{
	if (e->target)
		return git_reference__alloc_symbolic(e->name, e->target);
	return git_reference__alloc(e->name, &e->value, e->has_peeled ? &e->peeled : NULL);
}

/* --- which stack holds a name ------------------------------------------------ */

/*
 * The stack git reads `name` from (git's backend_for()), and the name it
 * has there: a linked work tree's own names in its own stack, another
 * work tree's (worktrees/<id>/HEAD, main-worktree/HEAD: git's
 * parse_worktree_ref()) in that one's, any other in the common stack.
 * *other is set to a stack opened for this one reading, which the
 * caller releases.
 */
static int stack_for(struct stack **out, struct stack *other, const char **bare,
		     struct reftable_refdb *db, const char *name)
{
	const char *slash;

	*bare = name;
	if (!strncmp(name, "main-worktree/", 14) && is_per_worktree(name + 14)) {
		*bare = name + 14;
		*out = &db->common;
		return 0;
	}
	/* An id is a directory of worktrees/: not ".", "..", nor hidden. */
	if (!strncmp(name, "worktrees/", 10) && (slash = strchr(name + 10, '/')) &&
	    slash != name + 10 && name[10] != '.' && is_per_worktree(slash + 1)) {
		*bare = slash + 1;
		if (!(other->dir = rolling_strfmt("%s/%.*s/reftable", db->worktrees_dir,
						  (int)(slash - name - 10), name + 10)))
			return rolling_error_nomem();
		*out = other;
		return 0;
	}
	*out = db->own.dir && is_per_worktree(name) ? &db->own : &db->common;
	return 0;
}

/* --- reading ----------------------------------------------------------------- */

static int lookup(git_reference **out, git_refdb_backend *backend, const char *name)
{
	struct reftable_refdb *db = (struct reftable_refdb *)backend;
	struct reftable_ref_record rec = { 0 };
	struct stack other = { 0 }, *s = NULL;
	const char *bare;
	int err;

	*out = NULL;
	if (!git_accepts_name(name))
		err = ROLLING_ENOTFOUND;
	else if ((err = stack_for(&s, &other, &bare, db, name)) == 0)
		err = stack_read(&rec, s, bare);
	if (!err && !(*out = make_ref(name, &rec)))
		err = rolling_error_nomem();
	reftable_ref_record_release(&rec);
	stack_release(&other);
	if (err == ROLLING_ENOTFOUND) {
		git_error_set(GIT_ERROR_REFERENCE, "reference '%s' not found", name);
		return GIT_ENOTFOUND;
	}
	return err < 0 ? libgit2_error(err) : 0;
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

/* The next ref that matches the glob, or NULL. */
static const struct entry *iter_step(struct iterator *it)
{
	while (it->next < it->listing->nr) {
		const struct entry *e = &it->listing->refs[it->next++];

		if (!it->glob || !fnmatch(it->glob, e->name, 0))
			return e;
	}
	return NULL;
}

static int iter_next(git_reference **out, git_reference_iterator *iter)
{
	const struct entry *e = iter_step((struct iterator *)iter);

	if (!e)
		return GIT_ITEROVER;
	return (*out = make_listed_ref(e)) ? 0 : libgit2_error(rolling_error_nomem());
}

static int iter_next_name(const char **out, git_reference_iterator *iter)
{
	const struct entry *e = iter_step((struct iterator *)iter);

	if (!e)
		return GIT_ITEROVER;
	*out = e->name;
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
	struct listing *l = NULL;

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
static int git_failed(const char *what, int status, char *said)
{
	const char *why = rolling_git_words(said, ROLLING_GIT_WORDS_LINE);
	struct strbuf msg = STRBUF_INIT;

	if (status < 0)
		return libgit2_error(-1);
	strbuf_addf(&msg, "git %s failed (exit status %d)", what, status);
	if (*why)
		strbuf_addf(&msg, ": %s", why);
	git_error_set_str(GIT_ERROR_REFERENCE, strbuf_oom(&msg) ? "out of memory" : msg.buf);
	strbuf_release(&msg);
	return -1;
}

/* --- what libgit2 may not do ---------------------------------------------------- */

static int unsupported(const char *what)
{
	git_error_set(GIT_ERROR_REFERENCE, "%s is not supported in a reftable repository", what);
	return -1;
}

/*
 * Every ref git-rolling writes goes through refs.h, whose reftable
 * backend (refs-reftable.c) is the one writer: a write that reaches
 * libgit2 would be a second, with its own reflog message and no
 * journal, so it is refused, loudly.
 */
static int write_ref(git_refdb_backend *backend, const git_reference *ref, int force,
		     const git_signature *who, const char *message, const git_oid *old,
		     const char *old_target)
{
	(void)backend; (void)force; (void)who; (void)message; (void)old; (void)old_target;
	git_error_set(GIT_ERROR_REFERENCE, "cannot write '%s' through libgit2 in a reftable"
		      " repository: git rolling writes refs through its ref transaction (refs.h)",
		      git_reference_name(ref));
	return -1;
}

static int delete_ref(git_refdb_backend *backend, const char *name, const git_oid *old,
		      const char *old_target)
{
	(void)backend; (void)old; (void)old_target;
	git_error_set(GIT_ERROR_REFERENCE, "cannot delete '%s' through libgit2 in a reftable"
		      " repository: git rolling deletes refs through its ref transaction (refs.h)",
		      name);
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

static int compress_refs(git_refdb_backend *backend)
{
	(void)backend;
	return 0;       /* git compacts the stack itself */
}

static int has_log(git_refdb_backend *backend, const char *name)
{
	struct rolling_child git = ROLLING_CHILD_INIT;
	int status;

	(void)backend;
	rolling_strvec_pushl(&git.args, "reflog", "exists", name, NULL);
	git.out = ROLLING_CHILD_DISCARD;
	git.err = ROLLING_CHILD_ERR_CAPTURE;
	status = rolling_child_run(&git);
	if (status == 0 || status == 1)
		status = !status;
	else
		status = git_failed("reflog exists", status, git.said.buf);
	rolling_child_release(&git);
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
	stack_release(&db->common);
	stack_release(&db->own);
	free(db->worktrees_dir);
	free(db);
}

/* --- installing it ------------------------------------------------------------ */

static char *dir_in(const char *dir, const char *name)
{
	return rolling_strfmt("%s%s", dir, name);
}

int rolling_refdb_reftable_install(git_repository *repo)
{
	const char *common = git_repository_commondir(repo), *own = git_repository_path(repo);
	struct reftable_refdb *db = calloc(1, sizeof(*db));
	git_refdb *refdb = NULL;
	int err;

	if (!db)
		return rolling_error_nomem();
	if (!(db->common.dir = dir_in(common, "reftable")) ||
	    !(db->worktrees_dir = dir_in(common, "worktrees")) ||
	    (strcmp(common, own) && !(db->own.dir = dir_in(own, "reftable")))) {
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
	db->parent.compress = compress_refs;
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
