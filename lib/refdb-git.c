#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <git2/sys/refdb_backend.h>
#include <git2/sys/refs.h>
#include <git2/sys/repository.h>
#include "refdb-git.h"
#include "error.h"
#include "git2-compat.h"
#include "run-command.h"
#include "strbuf.h"

/* --- the listing --------------------------------------------------------- */

/* One ref as git listed it; the strings point into the listing's text. */
struct listed_ref {
	const char *name;
	const char *target;      /* a symbolic ref's, else NULL */
	git_oid oid;
	git_oid peel;            /* the object an annotated tag finally names */
	int has_peel;
};

/*
 * What one run of git for-each-ref printed, shared by the iterators
 * that still walk it when a newer listing replaces it.
 */
struct listing {
	unsigned users;
	char *stack;             /* the tables.list contents it was read under */
	size_t stack_len;
	char *text;
	struct listed_ref *refs;
	size_t nr;
	int has_root_refs;       /* HEAD and the root refs are in it */
};

struct git_refdb {
	git_refdb_backend parent;
	/* <common-dir>reftable/tables.list, and a linked work tree's own */
	char *stack_files[2];
	struct listing *current;
	/* -1: unknown yet; 0 when git has no for-each-ref --include-root-refs */
	int lists_root_refs;
};

static void listing_put(struct listing *l)
{
	if (!l || --l->users)
		return;
	free(l->stack);
	free(l->text);
	free(l->refs);
	free(l);
}

/* Git's refusal or failure as libgit2's error, for the caller's message. */
static int git_failed(const char *what, int status, const char *said)
{
	const char *fatal = said ? strstr(said, "fatal: ") : NULL;
	struct strbuf msg = STRBUF_INIT;

	if (status < 0) {
		git_error_set_str(GIT_ERROR_REFERENCE, rolling_last_error());
		return -1;
	}
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

/*
 * The state of the table stacks: every transaction git commits writes a
 * new tables.list (a table added, or tables compacted into one).
 */
static int read_stack(struct git_refdb *db, char **stack, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < 2 && db->stack_files[i]; i++) {
		/* A work tree's own stack that git has not made yet holds nothing. */
		if (strbuf_read_file(&sb, db->stack_files[i]) < 0 && !strbuf_oom(&sb) &&
		    errno != ENOENT) {
			git_error_set(GIT_ERROR_REFERENCE, "cannot read '%s': %s",
				      db->stack_files[i], strerror(errno));
			strbuf_release(&sb);
			return -1;
		}
		strbuf_addch(&sb, '\0');
	}
	if (strbuf_oom(&sb)) {
		strbuf_release(&sb);
		git_error_set_oom();
		return -1;
	}
	*len = sb.len;
	*stack = strbuf_detach(&sb);
	return 0;
}

static int parse_oid(git_oid *oid, const char *hex)
{
	return strlen(hex) == GIT_OID_HEXSZ && !git_oid_fromstr(oid, hex) ? 0 : -1;
}

/* "<oid> <peeled oid or nothing> <refname> <symref target or nothing>" */
static int parse_line(struct listed_ref *ref, char *line)
{
	char *oid = line, *peel, *name, *target;

	memset(ref, 0, sizeof(*ref));
	if (!(peel = strchr(oid, ' ')) || !(name = strchr(peel + 1, ' ')) ||
	    !(target = strchr(name + 1, ' ')))
		return -1;
	*peel++ = *name++ = *target++ = '\0';
	ref->name = name;
	ref->target = *target ? target : NULL;
	if (parse_oid(&ref->oid, oid) < 0)
		return -1;
	if (*peel) {
		if (parse_oid(&ref->peel, peel) < 0)
			return -1;
		ref->has_peel = 1;
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct listed_ref *)a)->name, ((const struct listed_ref *)b)->name);
}

static int parse_listing(struct listing *l)
{
	size_t lines = 0, i;
	char *p, *next;

	for (p = l->text; *p; p++)
		lines += *p == '\n';
	if (!(l->refs = calloc(lines ? lines : 1, sizeof(*l->refs)))) {
		git_error_set_oom();
		return -1;
	}
	for (p = l->text; *p; p = next) {
		if (!(next = strchr(p, '\n'))) {
			git_error_set_str(GIT_ERROR_REFERENCE, "git for-each-ref: output cut short");
			return -1;
		}
		*next++ = '\0';
		if (parse_line(&l->refs[l->nr], p) < 0) {
			git_error_set(GIT_ERROR_REFERENCE, "git for-each-ref: cannot read '%s'", p);
			return -1;
		}
		l->nr++;
	}
	for (i = 1; i < l->nr; i++)
		if (strcmp(l->refs[i - 1].name, l->refs[i].name) >= 0) {
			qsort(l->refs, l->nr, sizeof(*l->refs), by_name);
			break;
		}
	return 0;
}

#define LIST_FORMAT "--format=%(objectname) %(*objectname) %(refname) %(symref)"

/* git for-each-ref, with the root refs when this git lists them. */
static int run_listing(struct git_refdb *db, struct listing *l)
{
	const char *with_root[] = { "for-each-ref", "--include-root-refs", LIST_FORMAT, NULL };
	const char *without[] = { "for-each-ref", LIST_FORMAT, NULL };
	char *said = NULL;
	int status;

	if (db->lists_root_refs) {
		status = rolling_run_git_io(with_root, NULL, NULL, 0, &l->text, &said,
					    ROLLING_RUN_CAPTURE);
		/* 129: an option this git does not know (before 2.46). */
		if (status == 129) {
			db->lists_root_refs = 0;
			free(l->text);
			free(said);
			l->text = said = NULL;
		} else {
			db->lists_root_refs = 1;
			l->has_root_refs = 1;
		}
	}
	if (!db->lists_root_refs)
		status = rolling_run_git_io(without, NULL, NULL, 0, &l->text, &said,
					    ROLLING_RUN_CAPTURE);
	if (status)
		status = git_failed("for-each-ref", status, said);
	free(said);
	return status;
}

/* The listing as of now: the last one, unless the stack changed since. */
static int listing_get(struct listing **out, struct git_refdb *db)
{
	struct listing *l;
	size_t len;
	char *stack;

	if (read_stack(db, &stack, &len) < 0)
		return -1;
	if (db->current && db->current->stack_len == len && !memcmp(db->current->stack, stack, len)) {
		free(stack);
		*out = db->current;
		return 0;
	}
	if (!(l = calloc(1, sizeof(*l)))) {
		free(stack);
		git_error_set_oom();
		return -1;
	}
	l->users = 1;
	l->stack = stack;
	l->stack_len = len;
	if (run_listing(db, l) < 0 || parse_listing(l) < 0) {
		listing_put(l);
		return -1;
	}
	listing_put(db->current);
	*out = db->current = l;
	return 0;
}

static const struct listed_ref *find(const struct listing *l, const char *name)
{
	struct listed_ref key;

	key.name = name;
	return bsearch(&key, l->refs, l->nr, sizeof(*l->refs), by_name);
}

static git_reference *make_ref(const struct listed_ref *r)
{
	if (r->target)
		return git_reference__alloc_symbolic(r->name, r->target);
	return git_reference__alloc(r->name, &r->oid, r->has_peel ? &r->peel : NULL);
}

/* --- root refs, asked one by one ----------------------------------------- */

/*
 * Names git may keep outside refs/: HEAD and the other all-capitals
 * root refs, and another work tree's (main-worktree/HEAD,
 * worktrees/<id>/HEAD).
 */
static int is_root_name(const char *name)
{
	const char *p;

	if (!strncmp(name, "main-worktree/", 14))
		name += 14;
	else if (!strncmp(name, "worktrees/", 10) && (p = strchr(name + 10, '/')) && p > name + 10)
		name = p + 1;
	if (!*name)
		return 0;
	for (p = name; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || *p == '_'))
			return 0;
	return 1;
}

static void cut_line(char *s)
{
	s[strcspn(s, "\n")] = '\0';
}

/* 1 and *out for a root ref git has, 0 when it has none, -1 on errors. */
static int ask_root_ref(git_reference **out, const char *name)
{
	const char *symbolic[] = { "symbolic-ref", "-q", name, NULL };
	const char *direct[] = { "rev-parse", "-q", "--verify", name, NULL };
	char *text = NULL, *said = NULL;
	git_oid oid;
	int status, found = 0;

	status = rolling_run_git_io(symbolic, NULL, NULL, 0, &text, &said, ROLLING_RUN_CAPTURE);
	if (!status) {
		cut_line(text);
		if (!(*out = git_reference__alloc_symbolic(name, text)))
			found = -1;
		else
			found = 1;
	} else if (status == 1) {
		free(text);
		free(said);
		text = said = NULL;
		status = rolling_run_git_io(direct, NULL, NULL, 0, &text, &said,
					    ROLLING_RUN_CAPTURE);
		if (!status) {
			cut_line(text);
			if (parse_oid(&oid, text) < 0)
				found = git_failed("rev-parse", 0, text);
			else if (!(*out = git_reference__alloc(name, &oid, NULL)))
				found = -1;
			else
				found = 1;
		} else if (status != 1) {
			found = git_failed("rev-parse", status, said);
		}
	} else {
		found = git_failed("symbolic-ref", status, said);
	}
	free(text);
	free(said);
	return found;
}

/* --- reading --------------------------------------------------------------- */

static int not_found(const char *name)
{
	git_error_set(GIT_ERROR_REFERENCE, "reference '%s' not found", name);
	return GIT_ENOTFOUND;
}

static int lookup(git_reference **out, git_refdb_backend *backend, const char *name)
{
	struct git_refdb *db = (struct git_refdb *)backend;
	const struct listed_ref *r;
	struct listing *l;
	int found;

	*out = NULL;
	if (listing_get(&l, db) < 0)
		return -1;
	if ((r = find(l, name)))
		return (*out = make_ref(r)) ? 0 : -1;
	/* An unborn HEAD is not listed; another work tree's refs never are. */
	if (!is_root_name(name) || (l->has_root_refs && strcmp(name, "HEAD") && !strchr(name, '/')))
		return not_found(name);
	if ((found = ask_root_ref(out, name)) < 0)
		return -1;
	return found ? 0 : not_found(name);
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

/* The next listed ref under refs/ that matches the glob, or NULL. */
static const struct listed_ref *iter_step(struct iterator *it)
{
	while (it->next < it->listing->nr) {
		const struct listed_ref *r = &it->listing->refs[it->next++];

		if (strncmp(r->name, "refs/", 5))
			continue;
		if (!it->glob || !fnmatch(it->glob, r->name, 0))
			return r;
	}
	return NULL;
}

static int iter_next(git_reference **out, git_reference_iterator *iter)
{
	const struct listed_ref *r = iter_step((struct iterator *)iter);

	if (!r)
		return GIT_ITEROVER;
	return (*out = make_ref(r)) ? 0 : -1;
}

static int iter_next_name(const char **out, git_reference_iterator *iter)
{
	const struct listed_ref *r = iter_step((struct iterator *)iter);

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
	struct git_refdb *db = (struct git_refdb *)backend;
	struct iterator *it;
	struct listing *l;

	if (listing_get(&l, db) < 0)
		return -1;
	if (!(it = calloc(1, sizeof(*it))) || (glob && !(it->glob = strdup(glob)))) {
		free(it);
		git_error_set_oom();
		return -1;
	}
	it->parent.next = iter_next;
	it->parent.next_name = iter_next_name;
	it->parent.free = iter_free;
	it->listing = l;
	l->users++;
	*out = &it->parent;
	return 0;
}

/* --- writing ----------------------------------------------------------------- */

/*
 * Why git refused an update: another process was first (the caller's
 * compare-and-swap lost, or the ref exists), else git's own words.
 */
static int update_failed(struct git_refdb *db, const char *name, const git_oid *old,
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
	struct git_refdb *db = (struct git_refdb *)backend;
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
	struct git_refdb *db = (struct git_refdb *)backend;
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
	struct git_refdb *db = (struct git_refdb *)backend;

	listing_put(db->current);
	free(db->stack_files[0]);
	free(db->stack_files[1]);
	free(db);
}

/* --- installing it ------------------------------------------------------------ */

static char *stack_file(const char *dir)
{
	char *path;

	return asprintf(&path, "%sreftable/tables.list", dir) < 0 ? NULL : path;
}

int rolling_refdb_git_install(git_repository *repo)
{
	const char *common = git_repository_commondir(repo), *own = git_repository_path(repo);
	struct git_refdb *db = calloc(1, sizeof(*db));
	git_refdb *refdb = NULL;
	int err;

	if (!db || !(db->stack_files[0] = stack_file(common)) ||
	    (strcmp(common, own) && !(db->stack_files[1] = stack_file(own)))) {
		if (db)
			free(db->stack_files[0]);
		free(db);
		return rolling_error_nomem();
	}
	db->lists_root_refs = -1;
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
