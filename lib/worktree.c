#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <git2/sys/repository.h>
#include "worktree.h"
#include "repo-format.h"
#include "alloc.h"
#include "disk-space.h"
#include "error.h"
#include "git2-compat.h"
#include "fd-io.h"
#include "index-list.h"
#include "lockfile.h"
#include "owner-file.h"
#include "repo-open.h"
#include "run-command.h"
#include "strbuf.h"
#include "path.h"

#define INTENT_NAME "ROLLING_ADVANCE"
#define INTENT_LOCKED "index.lock taken"
#define INTENT_INDEX "index "
/* How long a killed run's git read-tree may take to finish. */
#define FLOCK_WAIT_MS 3000

static int exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

/* Read a small file whole; NULL when absent, unreadable or out of memory. */
static char *read_small_file(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_file(&sb, path) < 0) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

/* --- refusals ---------------------------------------------------------- */

int rolling_worktree_check_idle(git_repository *repo, const char *branch)
{
	static const struct { const char *file, *what; } states[] = {
		{ "MERGE_HEAD", "a merge" },
		{ "CHERRY_PICK_HEAD", "a cherry-pick" },
		{ "REVERT_HEAD", "a revert" },
		{ "rebase-merge", "a rebase" },
		{ "rebase-apply", "a rebase or git am" },
		{ "BISECT_LOG", "a bisection" },
	};
	const char *gitdir = git_repository_path(repo);
	size_t i;

	for (i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		char *path = rolling_strfmt("%s%s", gitdir, states[i].file);
		int in_progress = path && exists(path);

		free(path);
		if (in_progress)
			return rolling_error("cannot advance '%s': %s is in progress in its work tree"
					     " (%s exists); conclude or abort it first;"
					     " nothing was changed",
					     branch, states[i].what, states[i].file);
	}
	return 0;
}

/* The first line of a file names refname: "ref: <refname>" or "<refname>". */
static int file_names_ref(const char *path, const char *prefix, const char *refname)
{
	char *content = read_small_file(path);
	size_t plen = strlen(prefix), rlen = strlen(refname);
	int names;

	if (!content)
		return 0;
	names = !strncmp(content, prefix, plen) && !strncmp(content + plen, refname, rlen) &&
		(content[plen + rlen] == '\n' || !content[plen + rlen]);
	free(content);
	return names;
}

/*
 * A work tree's HEAD names refname.  In a reftable repository HEAD lives
 * in the work tree's table stack, not in its file (which git leaves
 * naming "refs/heads/.invalid"): git is asked, by the name git gives
 * another work tree's HEAD (`head_ref`: main-worktree/HEAD,
 * worktrees/<id>/HEAD).
 */
static int head_names_ref(git_repository *repo, int reftable, const char *gitdir,
			  const char *head_ref, const char *refname)
{
	git_reference *head;
	char *path;
	int names;

	if (!reftable) {
		path = rolling_strfmt("%sHEAD", gitdir);
		names = path && file_names_ref(path, "ref: ", refname);
		free(path);
		return names;
	}
	if (git_reference_lookup(&head, repo, head_ref) < 0) {
		git_error_clear();
		return 0;
	}
	names = git_reference_type(head) == GIT_REFERENCE_SYMBOLIC &&
		!strcmp(git_reference_symbolic_target(head), refname);
	git_reference_free(head);
	return names;
}

/*
 * As git's find_shared_symref(): HEAD names the branch, or a rebase of
 * it is in progress, or a bisection started on it.
 */
static int gitdir_has_branch(git_repository *repo, int reftable, const char *gitdir,
			     const char *head_ref, const char *refname)
{
	static const struct { const char *file, *prefix; int short_name; } where[] = {
		{ "rebase-merge/head-name", "", 0 },
		{ "rebase-apply/head-name", "", 0 },
		{ "BISECT_START", "", 1 },
	};
	size_t i;
	int found = head_names_ref(repo, reftable, gitdir, head_ref, refname);

	for (i = 0; !found && i < sizeof(where) / sizeof(where[0]); i++) {
		char *path = rolling_strfmt("%s%s", gitdir, where[i].file);
		const char *name = where[i].short_name ? refname + strlen("refs/heads/") : refname;

		found = path && file_names_ref(path, where[i].prefix, name);
		free(path);
	}
	return found;
}

int rolling_worktree_elsewhere(git_repository *repo, const char *refname)
{
	const char *common = git_repository_commondir(repo);
	const char *own = git_repository_path(repo);
	char *dir = rolling_strfmt("%sworktrees/", common);
	int reftable = rolling_repo_is_reftable(repo);
	struct dirent *entry;
	DIR *worktrees;
	int found = 0;

	if (reftable < 0) {
		free(dir);
		return reftable;
	}

	/* The main work tree, unless that is where we are or the repository is bare. */
	if (!rolling_same_dir(common, own)) {
		git_repository *main_repo;

		if (!git_repository_open_ext(&main_repo, common, GIT_REPOSITORY_OPEN_NO_SEARCH,
					     NULL)) {
			int bare = git_repository_is_bare(main_repo);

			git_repository_free(main_repo);
			found = !bare && gitdir_has_branch(repo, reftable, common,
							   "main-worktree/HEAD", refname);
		}
	}
	/*
	 * Every linked work tree git knows of, present or not: git refuses
	 * to move a branch checked out in a work tree whose directory is
	 * gone (a locked one on removable media, say) until it is pruned.
	 */
	if (!found && dir && (worktrees = opendir(dir))) {
		while (!found && (entry = readdir(worktrees))) {
			char *gitdir, *head_ref;

			if (entry->d_name[0] == '.' ||
			    !(gitdir = rolling_strfmt("%s%s/", dir, entry->d_name)))
				continue;
			if (!(head_ref = rolling_strfmt("worktrees/%s/HEAD", entry->d_name))) {
				free(gitdir);
				continue;
			}
			found = !rolling_same_dir(gitdir, own) &&
				gitdir_has_branch(repo, reftable, gitdir, head_ref, refname);
			free(head_ref);
			free(gitdir);
		}
		closedir(worktrees);
	}
	free(dir);
	return found;
}

/* --- the intent file --------------------------------------------------- */

/* NULL when out of memory. */
static char *intent_text(const struct rolling_worktree_tx *tx)
{
	char host[HOST_NAME_MAX + 1] = "unknown", hex[GIT_OID_HEXSZ + 1];
	struct strbuf text = STRBUF_INIT;
	size_t i;

	gethostname(host, sizeof(host) - 1);
	strbuf_addf(&text, "%ld %s\n%s\n%s\n" INTENT_INDEX "%s\n", (long)getpid(), host,
		    tx->refname, git_oid_tostr(hex, sizeof(hex), &tx->old_tip), tx->index);
	for (i = 0; i < tx->nr; i++)
		strbuf_addf(&text, "%s %s\n", git_oid_tostr(hex, sizeof(hex), &tx->moves[i].to),
			    tx->moves[i].message);
	return strbuf_detach(&text);
}

/*
 * The intent file is an owner file (owner-file.h): it appears with its
 * content and under its flock at once, so whoever sees it and gets the
 * flock knows its writer is gone.  The descriptor is not close-on-exec:
 * the git we run holds the flock with us.  Until git read-tree runs, a
 * signal removes it (and the draft before it): it says nothing the next
 * run needs.  1 when another run's is there.
 */
static int create_intent(struct rolling_worktree_tx *tx)
{
	char *text = intent_text(tx);
	int err = 0;

	if (!text)
		return rolling_error_nomem();
	if (rolling_owner_file_create(&tx->intent_file, tx->intent, ROLLING_TEMPFILE_INHERIT,
				      0666, text, strlen(text)) < 0)
		err = errno == EEXIST ? 1 :
		      rolling_error("cannot create '%s': %s", tx->intent, strerror(errno));
	free(text);
	return err;
}

static void drop_intent(struct rolling_worktree_tx *tx)
{
	rolling_tempfile_delete(&tx->intent_file);
}

/* --- the index lock ---------------------------------------------------- */

static int index_lock_exists_error(const char *lock)
{
	return rolling_lock_held_error_one(NULL, lock, "nothing was changed");
}

/* The message for a lock that cannot be taken, as this command said it before git's. */
static int index_lock_error(const char *index, int err)
{
	int why = errno;
	char *lock = rolling_strfmt("%s" ROLLING_LOCK_SUFFIX, index);
	int code;

	if (!lock)
		return rolling_error_nomem();
	code = err == ROLLING_ELOCKED ? index_lock_exists_error(lock) :
	       rolling_error("unable to create '%s': %s", lock, strerror(why));
	free(lock);
	return code;
}

/* Take index.lock as git does, with a copy of the index in it. */
static int lock_index(struct rolling_worktree_tx *tx)
{
	struct rolling_lock *lk = &tx->index_lock;
	const char *index = tx->index;
	int from = -1, err;

	if ((err = rolling_lock_acquire(lk, index, 0)) < 0)
		return index_lock_error(index, err);
	/*
	 * Say at once that the lock is ours: a run killed between the two
	 * system calls leaves a lock the next run cannot tell from another
	 * git's, and names it instead of removing it.
	 */
	if (rolling_write_all(tx->intent_file.fd, INTENT_LOCKED "\n", strlen(INTENT_LOCKED) + 1) < 0) {
		err = rolling_error("cannot write '%s': %s", tx->intent, strerror(errno));
		goto out;
	}
	if ((from = open(index, O_RDONLY | O_CLOEXEC)) < 0) {
		err = rolling_error("cannot read the index '%s': %s", index, strerror(errno));
		goto out;
	}
	if (rolling_copy_fd(rolling_lock_fd(lk), from) < 0)
		err = rolling_error("cannot write '%s': %s", rolling_lock_path(lk), strerror(errno));
out:
	if (from >= 0)
		close(from);
	if (rolling_lock_close(lk) < 0 && !err)
		err = rolling_error("cannot write '%s': %s", rolling_lock_path(lk), strerror(errno));
	return err;
}

/* git read-tree's own lock on our copy, if it was killed. */
static void remove_read_tree_lock(const char *index)
{
	char *lock2 = rolling_strfmt("%s" ROLLING_LOCK_SUFFIX ROLLING_LOCK_SUFFIX, index);

	if (lock2)
		unlink(lock2);
	free(lock2);
}

/* A dead run's index.lock, and git read-tree's on it. */
static void unlock_index(const char *index)
{
	char *lock = rolling_strfmt("%s" ROLLING_LOCK_SUFFIX, index);

	remove_read_tree_lock(index);
	if (lock)
		unlink(lock);
	free(lock);
}

/* --- putting files back ------------------------------------------------ */

/* The target of a symbolic link, whole; 0, or -1 when it cannot be read. */
static int read_link(struct strbuf *target, const char *path, size_t hint)
{
	size_t room = hint + 1;
	ssize_t len;

	for (;;) {
		strbuf_reset(target);
		if (strbuf_grow(target, room) < 0)
			return -1;
		len = readlink(path, target->buf, room);
		if (len < 0)
			return -1;
		if ((size_t)len < room)
			break;
		room *= 2;      /* it grew since lstat(): try again */
	}
	strbuf_setlen(target, (size_t)len);
	return 0;
}

/* The blob id the file at `path` would have, or 0 when it is not a file or symlink. */
static int worktree_blob(git_oid *id, git_repository *repo, const char *path)
{
	const char *workdir = git_repository_workdir(repo);
	char *full = rolling_strfmt("%s%s", workdir, path);
	struct strbuf target = STRBUF_INIT;
	struct stat st;
	int found = 0;

	if (full && !lstat(full, &st)) {
		if (S_ISLNK(st.st_mode)) {
			found = !read_link(&target, full, (size_t)st.st_size) &&
				!git_odb_hash(id, target.buf, target.len, GIT_OBJECT_BLOB);
			strbuf_release(&target);
		} else if (S_ISREG(st.st_mode)) {
			found = !git_repository_hashfile(id, repo, full, GIT_OBJECT_BLOB, path);
		}
	}
	free(full);
	return found;
}

/*
 * Whether the file changed after `since` (when the intent file was
 * made): then this run wrote it, maybe only in part.
 */
static int changed_since(git_repository *repo, const char *path, const struct timespec *since)
{
	char *full = rolling_strfmt("%s%s", git_repository_workdir(repo), path);
	struct stat st;
	int newer = 0;

	if (since && full && !lstat(full, &st))
		newer = st.st_ctim.tv_sec > since->tv_sec ||
			(st.st_ctim.tv_sec == since->tv_sec && st.st_ctim.tv_nsec >= since->tv_nsec);
	free(full);
	return newer;
}

/* When the intent file was made; NULL when it cannot be told. */
static const struct timespec *intent_time(struct timespec *buf, const char *gitdir)
{
	char *intent = rolling_strfmt("%s%s", gitdir, INTENT_NAME);
	struct stat st;
	int ok = intent && !stat(intent, &st);

	free(intent);
	if (!ok)
		return NULL;
	*buf = st.st_ctim;
	return buf;
}

/* Remove a file we created, and the directories it leaves empty. */
static void remove_created(git_repository *repo, const char *path)
{
	char *full = rolling_strfmt("%s%s", git_repository_workdir(repo), path), *slash;
	size_t root = strlen(git_repository_workdir(repo));

	if (!full || unlink(full) < 0) {
		free(full);
		return;
	}
	while ((slash = strrchr(full, '/')) && (size_t)(slash - full) >= root) {
		*slash = '\0';
		if (rmdir(full) < 0)
			break;
	}
	free(full);
}

struct restore {
	const char **paths;     /* to write from the old index */
	size_t nr, alloc;
};

static int add_path(struct restore *r, const char *path)
{
	if (ALLOC_GROW(r->paths, r->nr + 1, r->alloc) < 0)
		return -1;
	r->paths[r->nr++] = path;
	return 0;
}

/*
 * libgit2 cannot read a sparse index (its mandatory extension "sdir"),
 * and hashing a file with the repository's filters loads attributes
 * from the index too.  Give it an empty index then: the attributes come
 * from the work tree's .gitattributes, which in a cone-mode checkout
 * (the only kind a sparse index has) include those of the directories
 * above every file read-tree writes.
 */
static void index_for_attributes(git_repository *repo)
{
	git_index *index;

	if (!git_repository_index(&index, repo)) {
		git_index_free(index);
		return;
	}
	if (!git_index_new(&index)) {
		git_repository_set_index(repo, index);
		git_index_free(index);
	}
}

/*
 * Each path the step changes whose file is now exactly the new version
 * (what read-tree writes) goes back to the old index's version, or away
 * when the old index did not have it.  Any other file is left alone: it
 * was not written by us, and may hold the user's changes; so is a path
 * outside a sparse checkout, which read-tree does not write.  The old
 * index is read by git (index-list.h), which reads a sparse index too,
 * and git puts files back from the top of the work tree, wherever the
 * command runs.
 */
static int restore_files(git_repository *repo, const char *gitdir, const char *index_path,
			 const git_oid *from, const git_oid *to)
{
	git_commit *a = NULL, *b = NULL;
	git_tree *ta = NULL, *tb = NULL;
	git_diff *diff = NULL;
	struct rolling_index_list index = { 0 };
	struct restore r = { NULL, 0, 0 };
	struct timespec since_buf;
	const struct timespec *since = intent_time(&since_buf, gitdir);
	size_t i, n;
	int err;

	if ((err = git_commit_lookup(&a, repo, from)) < 0 ||
	    (err = git_commit_lookup(&b, repo, to)) < 0 ||
	    (err = git_commit_tree(&ta, a)) < 0 || (err = git_commit_tree(&tb, b)) < 0 ||
	    (err = git_diff_tree_to_tree(&diff, repo, ta, tb, NULL)) < 0) {
		err = rolling_git_error(err, "cannot put the work tree back");
		goto out;
	}
	if ((err = rolling_index_list_read(&index, repo, index_path)) < 0) {
		err = rolling_error_prefix(err, "cannot put the work tree back");
		goto out;
	}
	index_for_attributes(repo);
	n = git_diff_num_deltas(diff);
	for (i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		const char *path = d->new_file.path;
		const struct rolling_index_entry *old = rolling_index_list_find(&index, path);
		int in_new = d->status != GIT_DELTA_DELETED;
		git_oid now;
		int has, written;

		if (old && old->skip_worktree)
			continue;       /* outside the sparse checkout */
		has = worktree_blob(&now, repo, path);
		written = in_new ? has && (changed_since(repo, path, since) ||
					   git_oid_equal(&now, &d->new_file.id)) : !has;
		if (!written || (old && in_new && git_oid_equal(&old->id, &d->new_file.id)))
			continue;       /* not ours, or nothing to undo */
		if (old) {
			if ((err = add_path(&r, path)) < 0)
				goto out;
		} else if (in_new) {
			remove_created(repo, path);
		}
	}
	if (r.nr) {
		static const char *const args[] = { "checkout-index", "-f", "-q", "--", NULL };
		struct rolling_child git = ROLLING_CHILD_INIT;

		if (!(err = rolling_index_child(&git, repo, index_path))) {
			rolling_strvec_pushv(&git.args, args);
			for (i = 0; i < r.nr; i++)
				rolling_strvec_push(&git.args, r.paths[i]);
			err = rolling_child_run(&git);
		}
		rolling_child_release(&git);
		if (err > 0)
			err = rolling_error("git checkout-index could not put the files back");
	}
out:
	free(r.paths);
	rolling_index_list_release(&index);
	git_diff_free(diff);
	git_tree_free(ta);
	git_tree_free(tb);
	git_commit_free(a);
	git_commit_free(b);
	return err;
}

/* --- the transaction --------------------------------------------------- */

int rolling_worktree_begin(struct rolling_worktree_tx *tx, git_repository *repo,
			   const char *branch, const char *refname, const git_oid *old_tip,
			   const struct rolling_ref_move *moves, size_t nr)
{
	int err;

	memset(tx, 0, sizeof(*tx));
	tx->repo = repo;
	tx->branch = branch;
	tx->moves = moves;
	tx->nr = nr;
	tx->intent_file = (struct rolling_tempfile)ROLLING_TEMPFILE_INIT;
	tx->index_lock = (struct rolling_lock)ROLLING_LOCK_INIT;
	git_oid_cpy(&tx->old_tip, old_tip);
	if (!(tx->refname = strdup(refname)) || !(tx->gitdir = strdup(git_repository_path(repo))) ||
	    !(tx->intent = rolling_strfmt("%s%s", tx->gitdir, INTENT_NAME)) ||
	    !(tx->index = rolling_repo_index_file(repo))) {
		err = rolling_error_nomem();
		goto fail;
	}
	/* The intent file has a line for it. */
	if (strchr(tx->index, '\n')) {
		err = rolling_error("cannot advance '%s' with an index file whose name has a"
				    " newline: '%s'", branch, tx->index);
		goto fail;
	}
	if ((err = create_intent(tx)) != 0) {
		if (err > 0)
			err = rolling_error("cannot advance '%s': '%s' appeared meanwhile;"
					    " another git rolling advance is running here",
					    branch, tx->intent);
		goto fail;
	}
	if ((err = lock_index(tx)) < 0)
		goto fail;
	return 0;
fail:
	rolling_worktree_abort(tx);
	return err;
}

/* A list of paths in a message: each on a line of its own, indented. */
static void add_listed_path(struct strbuf *list, const char *path)
{
	strbuf_addf(list, "\n\t%s", path);
}

static int note_conflict(git_checkout_notify_t why, const char *path,
			 const git_diff_file *baseline, const git_diff_file *target,
			 const git_diff_file *workdir, void *payload)
{
	(void)why; (void)baseline; (void)target; (void)workdir;
	add_listed_path(payload, path);
	return 0;
}

/*
 * git read-tree names only the first file in the way: list them all, as
 * a libgit2 dry run sees them, and fall back on what git said.
 */
static int local_changes_error(struct rolling_worktree_tx *tx, const char *git_said)
{
	git_checkout_options opts;
	git_commit *from = NULL, *to = NULL;
	git_tree *baseline = NULL, *target = NULL;
	git_index *index = NULL;
	struct strbuf list = STRBUF_INIT;
	int err;

	/* Against the index git read, which may be $GIT_INDEX_FILE. */
	if (!git_index_open(&index, tx->index) && !git_repository_set_index(tx->repo, index) &&
	    !git_commit_lookup(&from, tx->repo, &tx->old_tip) &&
	    !git_commit_lookup(&to, tx->repo, &tx->moves[tx->nr - 1].to) &&
	    !git_commit_tree(&baseline, from) && !git_commit_tree(&target, to)) {
		git_checkout_options_init(&opts, GIT_CHECKOUT_OPTIONS_VERSION);
		opts.checkout_strategy = GIT_CHECKOUT_SAFE | GIT_CHECKOUT_DRY_RUN;
		opts.baseline = baseline;
		opts.notify_flags = GIT_CHECKOUT_NOTIFY_CONFLICT;
		opts.notify_cb = note_conflict;
		opts.notify_payload = &list;
		git_checkout_tree(tx->repo, (git_object *)target, &opts);
	}
	if (list.len && !strbuf_oom(&list))
		err = rolling_error("your local changes to the following files would be "
				    "overwritten by advancing '%s':%s\n"
				    "commit or stash them, then try again; nothing was changed",
				    tx->branch, list.buf);
	else
		err = rolling_error("local changes would be overwritten by advancing '%s';"
				    " git read-tree said:\n%s"
				    "commit or stash them, then try again; nothing was changed",
				    tx->branch, git_said);
	strbuf_release(&list);
	git_tree_free(target);
	git_tree_free(baseline);
	git_commit_free(to);
	git_commit_free(from);
	git_index_free(index);
	return err;
}

/* The message for a read-tree that refused or failed: say what was wrong. */
static int explain_failure(struct rolling_worktree_tx *tx, int status, const char *git_said)
{
	git_index *index = NULL;
	int err = 0;

	if (!git_index_open(&index, tx->index) && git_index_has_conflicts(index)) {
		git_index_conflict_iterator *it;
		const git_index_entry *ancestor, *ours, *theirs;
		struct strbuf list = STRBUF_INIT;

		if (!git_index_conflict_iterator_new(&it, index)) {
			while (!git_index_conflict_next(&ancestor, &ours, &theirs, it))
				add_listed_path(&list, ours ? ours->path : theirs ? theirs->path :
						ancestor->path);
			git_index_conflict_iterator_free(it);
		}
		err = strbuf_oom(&list) ? rolling_error_nomem() :
		      rolling_error("cannot advance '%s': the index has unmerged entries:%s\n"
				    "resolve them first; nothing was changed",
				    tx->branch, list.buf);
		strbuf_release(&list);
	}
	git_index_free(index);
	if (err)
		return err;
	if (strstr(git_said, "not uptodate. Cannot merge.") ||
	    strstr(git_said, "would be overwritten by merge") ||
	    strstr(git_said, "would be lost by merge"))
		return local_changes_error(tx, git_said);
	/*
	 * In a partial clone, git read-tree fetches the blobs it lacks from
	 * the promisor remote, all at once before it writes any file.
	 */
	if (strstr(git_said, "from promisor remote"))
		return rolling_error("cannot update the work tree of '%s': this partial clone"
				     " lacks files of the new tip and could not fetch them from"
				     " its promisor remote; git read-tree said:\n%s"
				     "nothing was changed", tx->branch, git_said);
	/* git says "unable to write file X", without the reason. */
	if (status <= 128 && rolling_out_of_space(tx->gitdir))
		return rolling_error("cannot update the work tree of '%s': %s; git read-tree"
				     " said:\n%sthe files it wrote were put back; nothing was"
				     " changed", tx->branch, strerror(ENOSPC),
				     *git_said ? git_said : "(nothing)\n");
	return rolling_error("cannot update the work tree of '%s': git read-tree %s:\n%s"
			     "the files it wrote were put back; nothing was changed",
			     tx->branch, status > 128 ? "was killed by a signal" : "failed",
			     *git_said ? git_said : "(it said nothing)\n");
}

/*
 * Run `git args...` in `git` (released first: what the last run said
 * goes) on the index whose lock is `index_lock`, in the C locale when
 * `c_locale`, so that what it says can be read: both its output and its
 * errors in git->captured.  Its exit status, or a negative error.
 */
static int run_on_index(struct rolling_child *git, const char *index_lock,
			const char *const *args, int c_locale)
{
	rolling_child_release(git);
	rolling_strvec_pushv(&git->args, args);
	rolling_env_push(&git->env, "GIT_INDEX_FILE", index_lock);
	if (c_locale)
		rolling_env_push(&git->env, "LC_ALL", "C");
	git->out = ROLLING_CHILD_CAPTURE;
	git->err = ROLLING_CHILD_ERR_TO_STDOUT;
	return rolling_child_run(git);
}

int rolling_worktree_update(struct rolling_worktree_tx *tx)
{
	char from[GIT_OID_HEXSZ + 1], to[GIT_OID_HEXSZ + 1];
	const char *args[] = { "read-tree", "-m", "-u", from, to, NULL };
	const char *refresh[] = { "update-index", "-q", "--refresh", NULL };
	struct rolling_child git = ROLLING_CHILD_INIT;
	struct strbuf index_lock = STRBUF_INIT;
	int status, err;

	git_oid_tostr(from, sizeof(from), &tx->old_tip);
	git_oid_tostr(to, sizeof(to), &tx->moves[tx->nr - 1].to);
	/*
	 * From here on files may change, and only the next run can put them
	 * back (a signal handler cannot run git): the intent file, which
	 * tells it to, outlives a killed run.  index.lock still goes with
	 * the run: the next one puts the files back from the index, which
	 * has not changed, and it cannot change before the branch moves
	 * (rolling_worktree_commit()'s caller holds the signals across both).
	 */
	rolling_tempfile_keep(&tx->intent_file);
	/* git updates our copy of the index under its own lock on that copy. */
	strbuf_addf(&index_lock, "%s" ROLLING_LOCK_SUFFIX, tx->index);
	if (strbuf_oom(&index_lock)) {
		err = rolling_error_nomem();
		goto out;
	}
	/*
	 * git merge refreshes the stat data of every file first, so that a
	 * file whose content is unchanged but whose stat data is not (one
	 * put back by an earlier run, say) is not taken for a local change:
	 * a second of lstat() on a kernel tree, and another read of the
	 * index when it is a process of its own.  read-tree looks only at
	 * the files the step changes, and says "not uptodate" of one whose
	 * stat data differs before it writes any file; so try it first (in
	 * the C locale, to read what it says), and refresh and try again
	 * only when that is its answer.  Any other failure is explained as
	 * it is: a retry could take the files it half wrote for local
	 * changes.  The refresh's exit status 1 only says that some file
	 * has changes; more is a failure (a full disk, say), which would
	 * otherwise come back as read-tree's "not uptodate" on a clean tree.
	 */
	status = run_on_index(&git, index_lock.buf, args, 1);
	if (status == 128 && strstr(git.captured.buf, "not uptodate. Cannot merge.")) {
		status = run_on_index(&git, index_lock.buf, refresh, 0);
		if (status > 1) {
			err = rolling_error("cannot update the work tree of '%s': git update-index"
					    " --refresh %s:\n%snothing was changed", tx->branch,
					    status > 128 ? "was killed by a signal" : "failed",
					    *git.captured.buf ? git.captured.buf : "(it said nothing)\n");
			goto out;
		}
		if (status >= 0)
			status = run_on_index(&git, index_lock.buf, args, 0);
	}
	err = status <= 0 ? status : explain_failure(tx, status, git.captured.buf);
out:
	rolling_child_release(&git);
	strbuf_release(&index_lock);
	return err;
}

int rolling_worktree_commit(struct rolling_worktree_tx *tx)
{
	int err = 0;

	/* Not held: git reset --keep, which it asks for, takes index.lock. */
	if (rolling_lock_commit(&tx->index_lock) < 0) {
		err = rolling_error("'%s' moved, but its index could not be written (%s);"
				    " run 'git reset --keep %s' to finish", tx->branch,
				    strerror(errno), tx->branch);
		rolling_lock_rollback(&tx->index_lock);
	}
	drop_intent(tx);
	free(tx->refname);
	free(tx->gitdir);
	free(tx->intent);
	free(tx->index);
	tx->refname = tx->gitdir = tx->intent = tx->index = NULL;
	return err;
}

void rolling_worktree_abort(struct rolling_worktree_tx *tx)
{
	/* Putting files back records errors of its own: keep the caller's. */
	char *why = rolling_error_take();

	if (rolling_lock_is_held(&tx->index_lock)) {
		if (restore_files(tx->repo, tx->gitdir, tx->index, &tx->old_tip,
				  &tx->moves[tx->nr - 1].to) < 0)
			rolling_warning("could not put the work tree back: %s",
					rolling_last_error());
		remove_read_tree_lock(tx->index);
		rolling_lock_rollback(&tx->index_lock);
	}
	drop_intent(tx);
	free(tx->refname);
	free(tx->gitdir);
	free(tx->intent);
	free(tx->index);
	tx->refname = tx->gitdir = tx->intent = tx->index = NULL;
	rolling_error_restore(0, why);
}

/* --- recovery ---------------------------------------------------------- */

/* An intent file read back; the strings point into its text. */
struct intent {
	long pid;
	const char *host;
	const char *refname;
	git_oid old_tip;
	struct rolling_ref_move *moves;
	size_t nr, alloc;
	int index_locked;
	const char *index;      /* NULL from a git-rolling that did not record it */
};

/* "<pid> <host>" */
static int parse_owner(struct intent *in, char *line)
{
	char *end;

	in->pid = strtol(line, &end, 10);
	if (end == line)
		return -1;
	in->host = *end == ' ' ? end + 1 : "";
	return 0;
}

/* "<new tip> <reflog message>" */
static int parse_move(struct intent *in, char *line)
{
	struct rolling_ref_move *move;

	if (strlen(line) < GIT_OID_HEXSZ + 1 || line[GIT_OID_HEXSZ] != ' ' ||
	    ALLOC_GROW(in->moves, in->nr + 1, in->alloc) < 0)
		return -1;
	move = &in->moves[in->nr];
	if (git_oid_fromstrn(&move->to, line, GIT_OID_HEXSZ) < 0)
		return -1;
	move->message = line + GIT_OID_HEXSZ + 1;
	in->nr++;
	return 0;
}

static int parse_intent(struct intent *in, char *text)
{
	char *line, *save = NULL;
	int n = 0, err = 0;

	memset(in, 0, sizeof(*in));
	in->host = "";
	for (line = strtok_r(text, "\n", &save); line && !err;
	     line = strtok_r(NULL, "\n", &save), n++) {
		if (n == 0)
			err = parse_owner(in, line);
		else if (n == 1)
			in->refname = line;
		else if (n == 2)
			err = git_oid_fromstr(&in->old_tip, line);
		else if (!strcmp(line, INTENT_LOCKED))
			in->index_locked = 1;
		else if (!strncmp(line, INTENT_INDEX, strlen(INTENT_INDEX)))
			in->index = line + strlen(INTENT_INDEX);
		else
			err = parse_move(in, line);
	}
	return !err && n >= 3 && in->nr ? 0 : -1;
}

static const char *owner_host(const struct intent *in)
{
	return in->host && *in->host ? in->host : "?";
}

/* A lock of the branch left by the killed run: empty, or our next tip. */
static void remove_own_ref_lock(git_repository *repo, const struct intent *in)
{
	char *lock = rolling_ref_lock_path(repo, in->refname), *content;
	size_t i;

	if (!lock)
		return;
	if ((content = read_small_file(lock))) {
		int ours = !*content;

		for (i = 0; !ours && i < in->nr; i++) {
			char hex[GIT_OID_HEXSZ + 1];

			ours = !strncmp(content, git_oid_tostr(hex, sizeof(hex), &in->moves[i].to),
					GIT_OID_HEXSZ);
		}
		if (ours)
			unlink(lock);
		free(content);
	}
	free(lock);
}

/* Forward: the branch had started moving, so the rest follows it. */
static int roll_forward(git_repository *repo, const char *index, const struct intent *in,
			size_t done)
{
	char *lock = rolling_strfmt("%s" ROLLING_LOCK_SUFFIX, index);
	int err = 0;

	/*
	 * The moves left, through the transaction the run itself used: one
	 * compare-and-swap, one reflog line a move, or git's in reftable.
	 */
	if (done < in->nr &&
	    (err = rolling_ref_move_all(repo, in->refname, &in->moves[done - 1].to,
					&in->moves[done], in->nr - done)) < 0)
		err = rolling_error_prefix(err, "cannot finish moving %s", in->refname);
	/* No index.lock: it had become the index already. */
	if (!err && (!lock || (rename(lock, index) < 0 && errno != ENOENT)))
		err = rolling_error("cannot write the index of the interrupted advance: %s",
				    strerror(errno));
	free(lock);
	return err;
}

static int recover_dead(git_repository *repo, const char *gitdir, const char *index,
			const struct intent *in)
{
	git_oid now;
	size_t i;

	if (!in->index_locked)
		return 0;       /* it had changed nothing */
	/* Its ref transaction's locks, and reflog lines of a move it did not make */
	rolling_ref_transaction_sweep(repo);
	remove_own_ref_lock(repo, in);
	if (git_reference_name_to_id(&now, repo, in->refname) < 0)
		return rolling_git_error(-1, "cannot read %s", in->refname);
	for (i = 0; i < in->nr; i++)
		if (git_oid_equal(&now, &in->moves[i].to))
			return roll_forward(repo, index, in, i + 1);
	/* Back: the branch had not moved (or someone else moved it since). */
	if (restore_files(repo, gitdir, index, &in->old_tip, &in->moves[in->nr - 1].to) < 0)
		return -1;
	unlock_index(index);
	return 0;
}

/*
 * Drafts of intent files (owner-file.h) of runs killed before they gave
 * them their name, and those of older versions (<intent>.<pid>): gone
 * once their owner is.
 */
static void remove_dead_drafts(const char *gitdir)
{
	DIR *dir = opendir(gitdir);
	struct dirent *entry;

	if (!dir)
		return;
	while ((entry = readdir(dir))) {
		char *path;
		int fd;

		if (strncmp(entry->d_name, INTENT_NAME ".", strlen(INTENT_NAME) + 1) ||
		    !(path = rolling_strfmt("%s%s", gitdir, entry->d_name)))
			continue;
		if (rolling_owner_file_check(path, 0, &fd) == ROLLING_OWNER_DEAD) {
			unlink(path);
			close(fd);
		}
		free(path);
	}
	closedir(dir);
}

int rolling_worktree_recover(git_repository *repo)
{
	const char *gitdir = git_repository_path(repo);
	char *intent = rolling_strfmt("%s%s", gitdir, INTENT_NAME), *text = NULL, *index = NULL;
	struct intent in = { 0 };
	int fd, err = 0;

	if (!intent)
		return rolling_error_nomem();
	remove_dead_drafts(gitdir);
	/* A little wait for the flock: a killed run's git read-tree may be finishing. */
	switch (rolling_owner_file_check(intent, FLOCK_WAIT_MS, &fd)) {
	case ROLLING_OWNER_GONE:
		free(intent);
		return 0;
	case ROLLING_OWNER_DEAD:
		break;
	case ROLLING_OWNER_LIVING:
		text = read_small_file(intent);
		if (!text || parse_intent(&in, text) < 0)
			in.pid = 0;
		err = rolling_error("another git rolling advance (pid %ld on %s) is updating this"
				    " work tree (it holds '%s'); wait for it to finish;"
				    " if it hangs, end it ('kill %ld' on %s) and run"
				    " git rolling advance again", in.pid, owner_host(&in),
				    intent, in.pid, owner_host(&in));
		goto out;
	default:
		err = rolling_error("cannot read '%s': %s", intent, strerror(errno));
		free(intent);
		return err;
	}
	text = read_small_file(intent);
	if (!text || parse_intent(&in, text) < 0) {
		/* Never half-written: it appears whole.  Not ours then; say so. */
		err = rolling_error("'%s' is not an intent file git rolling wrote;"
				    " remove it if you know where it came from", intent);
		goto out;
	}
	/* The index the run used, whatever $GIT_INDEX_FILE says now. */
	if (!in.index && !(in.index = index = rolling_strfmt("%sindex", gitdir))) {
		err = rolling_error_nomem();
		goto out;
	}
	if ((err = recover_dead(repo, gitdir, in.index, &in)) < 0)
		goto out;
	unlink(intent);
out:
	free(index);
	free(in.moves);
	free(text);
	if (fd >= 0)
		close(fd);
	free(intent);
	return err;
}
