#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The files backend of refs.h: loose refs and reflogs written as git's
 * files backend (refs/files-backend.c) writes them, all or none:
 *
 *  1. every ref is locked (<ref>.lock, taken as git takes it, waiting a
 *     little for a lock another writer holds) and compared with its old
 *     value under its lock;
 *  2. every lock gets the new value (a deletion's stays empty), and the
 *     old files are kept under a second name; when HEAD is a ref that
 *     moves, HEAD.lock is taken as git takes it for HEAD's reflog line;
 *  3. ref by ref, its reflog lines are appended (and HEAD's), and its
 *     lock is renamed into place (a deleted ref's file is removed).
 *
 * 1 and 2 are prepare, 3 is commit.  A failure in 1 or 2 (a full disk,
 * say) changes nothing.  A failure in 3 puts back every file already
 * renamed or removed and cuts every reflog back to its old length; only
 * when that fails is the result ROLLING_EPARTIAL.  The reflogs of
 * deleted refs go once every ref is in place, as git removes them after
 * its renames: one that cannot be removed is a warning.
 *
 * A ref that packed-refs holds is not deleted (the deletion is refused,
 * nothing changed): its packed value would show through a
 * removed loose file, and this backend writes loose refs only.
 */
#include "refs.h"
#include "refs-backend.h"
#include "ref-journal.h"
#include "alloc.h"
#include "error.h"
#include "fd-io.h"
#include "git2-compat.h"
#include "lockfile.h"
#include "strbuf.h"
#include "tempfile.h"

/*
 * How long a lock another writer holds is waited for, as git waits
 * core.filesRefLockTimeout (100 ms by default) before it gives up: a
 * concurrent git rolling fetch holds its locks for milliseconds.
 */
#define LOCK_TIMEOUT_MS 1000


/* One file replaced by a rename: a loose ref or a reflog. */
struct file_swap {
	char *path;
	char *lock;      /* <path>.lock, its name */
	struct rolling_lock lk;        /* held: the new content */
	struct rolling_tempfile old;   /* <path>.rolling-old.lock: the old file, once linked */
	int had_file;    /* path existed: put back from `old`, else removed */
	int renamed;     /* the lock became the file */
};

/*
 * A reflog, appended to as git appends to it: under the lock of its ref
 * (HEAD's under HEAD.lock), so that no other writer's line is lost, and
 * cut back to its old size to undo.
 */
struct log_append {
	char *path;      /* NULL: no reflog is written */
	off_t old_size;  /* under the ref's lock, from prepare on; -1: not there */
	int written;     /* lines were appended, perhaps in part */
};

struct tx_ref {
	const struct rolling_ref_update *u;
	struct file_swap ref;
	struct log_append log;
};

struct tx {
	git_repository *repo;
	struct tx_ref *refs;
	size_t nr;
	/* When HEAD names a ref that moves: HEAD.lock, taken as git takes it, and logs/HEAD */
	struct file_swap head_lock;
	struct log_append head_log;
	const struct tx_ref *head_ref;
	git_signature *who;
	int log_mode;                /* LOG_REFS_*, core.logAllRefUpdates as git reads it */
	struct rolling_ref_journal journal;
	char **dirs;                 /* directories this transaction created */
	size_t dirs_nr, dirs_alloc;
};

static void swap_clear(struct file_swap *s)
{
	memset(s, 0, sizeof(*s));
	s->lk = (struct rolling_lock)ROLLING_LOCK_INIT;
	s->old = (struct rolling_tempfile)ROLLING_TEMPFILE_INIT;
}

static int swap_init(struct file_swap *s, const char *dir, const char *name)
{
	swap_clear(s);
	if (!(s->path = rolling_strfmt("%s%s", dir, name)) ||
	    !(s->lock = rolling_strfmt("%s" ROLLING_LOCK_SUFFIX, s->path)))
		return rolling_error_nomem();
	return 0;
}

static void swap_release(struct file_swap *s)
{
	rolling_lock_rollback(&s->lk);
	rolling_tempfile_delete(&s->old);
	free(s->path);
	free(s->lock);
	swap_clear(s);
}

/* --- 1. locks -------------------------------------------------------------- */

/* mkdir -p of the directories above `path`, below the git dir `base`. */
static int make_parents(struct tx *tx, const char *base, const char *path)
{
	char *dir = strdup(path), *slash;

	if (!dir)
		return rolling_error_nomem();
	for (slash = dir + strlen(base); (slash = strchr(slash, '/')); *slash++ = '/') {
		*slash = '\0';
		if (!mkdir(dir, 0777)) {
			char *copy = strdup(dir);

			if (!copy || ALLOC_GROW(tx->dirs, tx->dirs_nr + 1, tx->dirs_alloc) < 0) {
				free(copy);
				free(dir);
				return rolling_error_nomem();
			}
			tx->dirs[tx->dirs_nr++] = copy;
		} else if (errno != EEXIST) {
			int err = rolling_error("cannot create directory '%s': %s", dir,
						strerror(errno));

			free(dir);
			return err;
		}
	}
	free(dir);
	return 0;
}

/*
 * Remove the directory at `path` if it holds nothing but directories
 * that hold nothing, as git does where a ref is to go (refs.c,
 * remove_empty_directories()): 0, or -1 with errno (ENOTEMPTY where a
 * file, a ref, is below it).
 */
static int remove_empty_tree(const char *path)
{
	DIR *dir = opendir(path);
	struct dirent *entry;
	struct stat st;
	char *sub;
	int err = 0, saved;

	if (!dir)
		return -1;
	while (!err && (entry = readdir(dir))) {
		if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, ".."))
			continue;
		if (!(sub = rolling_path_join(path, entry->d_name))) {
			errno = ENOMEM;
			err = -1;
			break;
		}
		if (lstat(sub, &st) < 0)
			err = -1;
		else if (!S_ISDIR(st.st_mode))
			err = -1, errno = ENOTEMPTY;
		else
			err = remove_empty_tree(sub);
		free(sub);
	}
	saved = errno;
	closedir(dir);
	errno = saved;
	return err ? err : rmdir(path);
}

/* 0 with the lock taken, 1 when another holds it after `timeout_ms`, or an error. */
static int lock_ref(struct tx *tx, struct tx_ref *r, long timeout_ms)
{
	const char *common = git_repository_commondir(tx->repo);
	struct stat st;
	int err;

	if ((err = make_parents(tx, common, r->ref.path)) < 0)
		return err;
	if (!lstat(r->ref.path, &st) && S_ISDIR(st.st_mode) && remove_empty_tree(r->ref.path) < 0)
		return errno == ENOTEMPTY || errno == EEXIST ?
		       rolling_error("cannot update %s: there is a directory in its place"
				     " ('%s': refs below it exist)", r->u->refname, r->ref.path) :
		       rolling_error("cannot update %s: cannot remove the empty directory '%s'"
				     " in its place: %s", r->u->refname, r->ref.path, strerror(errno));
	if (!(err = rolling_lock_acquire(&r->ref.lk, r->ref.path, timeout_ms)))
		return 0;
	if (err == ROLLING_ELOCKED)
		return 1;
	return rolling_error("cannot lock ref '%s': cannot create '%s': %s", r->u->refname,
			     r->ref.lock, strerror(errno));
}

/* The journal's records so far on disk; a failure (a full disk) names the refs. */
static int journal_write(struct tx *tx)
{
	int err = rolling_ref_journal_write(&tx->journal, git_repository_commondir(tx->repo));

	if (err >= 0)
		return err;
	if (tx->nr == 1)
		return rolling_error_prefix(err, "cannot update %s", tx->refs[0].u->refname);
	return rolling_error_prefix(err, "cannot update %s and %zu other refs",
				    tx->refs[0].u->refname, tx->nr - 1);
}

/*
 * Every ref locked, or an error.  Locks another writer holds are waited
 * for a little (the first) and then named all at once: a run killed in
 * its renames leaves several, and each is to be removed by hand, as git
 * asks.
 */
static int lock_refs(struct tx *tx)
{
	const char *common = git_repository_commondir(tx->repo);
	struct strbuf held = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 2];
	size_t i, nr_held = 0;
	int err = 0;

	for (i = 0; i < tx->nr; i++)
		if ((err = swap_init(&tx->refs[i].ref, common, tx->refs[i].u->refname)) < 0)
			return err;
	for (i = 0; i < tx->nr && err >= 0; i++) {
		struct tx_ref *r = &tx->refs[i];

		if ((err = lock_ref(tx, r, nr_held ? 0 : LOCK_TIMEOUT_MS)) == 1) {
			rolling_lock_held_line(&held, r->u->refname, r->ref.lock);
			nr_held++;
			err = 0;
		}
	}
	if (err >= 0 && nr_held)
		err = rolling_lock_held_error(&held, NULL);
	strbuf_release(&held);
	if (err < 0)
		return err;
	/*
	 * Each lock in the journal once it is ours (a run killed before
	 * this leaves locks git names, as it names any): whoever finds
	 * them after a crash knows whose they are.
	 */
	for (i = 0; i < tx->nr; i++) {
		git_oid_tostr(hex, GIT_OID_HEXSZ + 1, &tx->refs[i].u->new_oid);
		strcat(hex, "\n");
		rolling_ref_journal_lock(&tx->journal, tx->refs[i].ref.lock, hex);
	}
	return journal_write(tx);
}

/* 1 when packed-refs has a line for `refname`, 0 when not, or an error. */
static int is_packed(git_repository *repo, const char *refname)
{
	struct strbuf packed = STRBUF_INIT;
	char *path = rolling_path_join(git_repository_commondir(repo), "packed-refs");
	const char *line, *end;
	size_t len = strlen(refname);
	int found = 0;

	if (!path)
		return rolling_error_nomem();
	if (strbuf_read_file(&packed, path) < 0 && errno != ENOENT)
		found = rolling_error("cannot read '%s': %s", path, strerror(errno));
	else if (strbuf_oom(&packed))
		found = rolling_error_nomem();
	/* "<id> <refname>" lines, between a "# pack-refs" header and "^<peeled>" lines */
	for (line = packed.buf; !found && *line; line = *end ? end + 1 : end) {
		const char *name = strchr(line, ' ');

		end = line + strcspn(line, "\n");
		found = name && name < end && (size_t)(end - name - 1) == len &&
			!memcmp(name + 1, refname, len);
	}
	free(path);
	strbuf_release(&packed);
	return found;
}

static int check_old(git_repository *repo, const struct rolling_ref_update *u)
{
	git_oid current;
	int err = git_reference_name_to_id(&current, repo, u->refname);

	if (err == GIT_ENOTFOUND && !u->had_old)
		return 0;
	if (err < 0 && err != GIT_ENOTFOUND)
		return rolling_git_error(err, "cannot read %s", u->refname);
	if (!err && u->had_old && git_oid_equal(&current, &u->old_oid)) {
		if (!rolling_ref_update_is_delete(u) || !(err = is_packed(repo, u->refname)))
			return 0;
		return err < 0 ? err :
		       rolling_error("cannot delete %s: packed-refs holds it, and git rolling"
				     " does not rewrite packed-refs; nothing was changed",
				     u->refname);
	}
	return rolling_error_code(ROLLING_EMODIFIED, "%s was changed by another process",
				  u->refname);
}

/* --- 2. the new content ---------------------------------------------------- */

/* Close the lock; a write or close that failed names the file and why. */
static int finish_lock(struct file_swap *s, int failed, const char *refname)
{
	int saved = errno;

	if (rolling_lock_close(&s->lk) < 0 && !failed) {
		failed = 1;
		saved = errno;
	}
	if (failed)
		return rolling_error("cannot update %s: cannot write '%s': %s", refname, s->lock,
				     strerror(saved));
	return 0;
}

static int write_ref(struct tx_ref *r)
{
	char line[GIT_OID_HEXSZ + 2];

	if (rolling_ref_update_is_delete(r->u))
		return finish_lock(&r->ref, 0, r->u->refname);   /* git leaves it empty too */
	git_oid_tostr(line, GIT_OID_HEXSZ + 1, &r->u->new_oid);
	strcat(line, "\n");
	return finish_lock(&r->ref, rolling_write_all(rolling_lock_fd(&r->ref.lk), line,
							 strlen(line)) < 0,
			   r->u->refname);
}

/* git's enum log_refs_config (environment.h) */
enum { LOG_REFS_NONE, LOG_REFS_NORMAL, LOG_REFS_ALWAYS };

/* core.logAllRefUpdates as git reads it: unset, log unless bare. */
static int log_refs_config(git_repository *repo)
{
	git_config *config = NULL;
	git_buf value = GIT_BUF_INIT;
	int mode = git_repository_is_bare(repo) ? LOG_REFS_NONE : LOG_REFS_NORMAL, b;

	if (git_repository_config_snapshot(&config, repo) < 0)
		return mode;
	if (!git_config_get_string_buf(&value, config, "core.logAllRefUpdates")) {
		if (!strcasecmp(value.ptr, "always"))
			mode = LOG_REFS_ALWAYS;
		else if (!git_config_parse_bool(&b, value.ptr))
			mode = b ? LOG_REFS_NORMAL : LOG_REFS_NONE;
	}
	git_buf_dispose(&value);
	git_config_free(config);
	return mode;
}

/* git's should_autocreate_reflog() (refs.c) */
static int autocreates_log(int mode, const char *refname)
{
	if (mode == LOG_REFS_ALWAYS)
		return 1;
	return mode == LOG_REFS_NORMAL &&
	       (!strncmp(refname, "refs/heads/", 11) || !strncmp(refname, "refs/remotes/", 13) ||
		!strncmp(refname, "refs/notes/", 11) || !strcmp(refname, "HEAD"));
}

/* The rule of refs.h: git's, or a reflog that exists, or one the update asks for. */
static int wants_log(const struct tx *tx, const struct rolling_ref_update *u,
		     const char *refname, const char *log)
{
	return u->create_reflog || autocreates_log(tx->log_mode, refname) || !access(log, F_OK);
}

/* "<old> <new> <name> <<email>> <time> <zone>\t<message>\n", as git writes it. */
static void add_log_line(struct strbuf *sb, const git_signature *who, const git_oid *from,
			 const git_oid *to, const char *message)
{
	char a[GIT_OID_HEXSZ + 1], b[GIT_OID_HEXSZ + 1];
	int offset = who->when.offset < 0 ? -who->when.offset : who->when.offset;
	char sign = who->when.offset < 0 || who->when.sign == '-' ? '-' : '+';
	size_t start;

	strbuf_addf(sb, "%s %s %s <%s> %lld %c%02d%02d", git_oid_tostr(a, sizeof(a), from),
		    git_oid_tostr(b, sizeof(b), to), who->name, who->email,
		    (long long)who->when.time, sign, offset / 60, offset % 60);
	if (message && *message) {
		strbuf_addch(sb, '\t');
		start = sb->len;
		strbuf_addstr(sb, message);
		if (!sb->oom) {
			char *p;

			for (p = sb->buf + start; *p; p++)
				if (*p == '\n')
					*p = ' ';
			while (sb->len > start && (sb->buf[sb->len - 1] == ' ' ||
						   sb->buf[sb->len - 1] == '\t'))
				strbuf_setlen(sb, sb->len - 1);
		}
	}
	strbuf_addch(sb, '\n');
}

static void add_log_lines(struct strbuf *sb, const git_signature *who,
			  const struct rolling_ref_update *u)
{
	git_oid zero, from;
	size_t i;

	rolling_git_oid_zero(&zero);
	git_oid_cpy(&from, u->had_old ? &u->old_oid : &zero);
	if (!u->moves_nr) {
		add_log_line(sb, who, &from, &u->new_oid, u->message);
		return;
	}
	for (i = 0; i < u->moves_nr; i++) {
		add_log_line(sb, who, &from, &u->moves[i].to, u->moves[i].message);
		git_oid_cpy(&from, &u->moves[i].to);
	}
}

/*
 * Append the lines of `u` to the reflog, creating it (its directories
 * were made in prepare).  Nobody else appends to it meanwhile: git
 * writes a reflog only under the lock of its ref, which is ours.
 */
static int log_append(struct log_append *l, const git_signature *who,
		      const struct rolling_ref_update *u)
{
	struct strbuf lines = STRBUF_INIT;
	int fd, err = 0;

	if (!l->path)
		return 0;
	add_log_lines(&lines, who, u);
	if (strbuf_oom(&lines))
		return rolling_error_nomem();
	if ((fd = open(l->path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666)) < 0) {
		err = rolling_error("cannot update %s: cannot open '%s': %s", u->refname,
				    l->path, strerror(errno));
		goto out;
	}
	l->written = 1;
	if (rolling_write_all(fd, lines.buf, lines.len) < 0 || close(fd) < 0)
		err = rolling_error("cannot update %s: cannot write '%s': %s", u->refname,
				    l->path, strerror(errno));
	fd = -1;
out:
	if (fd >= 0)
		close(fd);
	strbuf_release(&lines);
	return err;
}

/* 0 when the reflog is as it was before log_append(). */
static int log_undo(struct log_append *l)
{
	if (!l->written)
		return 0;
	if (rolling_reflog_cut(l->path, l->old_size) < 0)
		return -1;
	l->written = 0;
	return 0;
}

static void log_release(struct log_append *l)
{
	free(l->path);
	memset(l, 0, sizeof(*l));
}

/* The file that is replaced, kept under a second name to be put back. */
static int keep_old(struct file_swap *s, const char *refname)
{
	struct stat st;
	char *old;
	int err = 0;

	if (!s->path || !rolling_lock_is_held(&s->lk))
		return 0;
	s->had_file = !lstat(s->path, &st);
	if (!s->had_file)
		return 0;
	if (!(old = rolling_strfmt("%s%s", s->path, ROLLING_REF_OLD_SUFFIX)))
		return rolling_error_nomem();
	unlink(old);
	if (rolling_tempfile_link(&s->old, s->path, old, 0) < 0)
		err = rolling_error("cannot update %s: cannot keep '%s' while it is"
				    " replaced: %s", refname, s->path, strerror(errno));
	free(old);
	return err;
}

/* 1 when HEAD of this work tree is the symbolic ref to `refname`. */
static int is_head_of(git_repository *repo, const char *refname)
{
	git_reference *head;
	int is;

	if (git_reference_lookup(&head, repo, "HEAD") < 0)
		return 0;
	is = git_reference_type(head) == GIT_REFERENCE_SYMBOLIC &&
	     !strcmp(git_reference_symbolic_target(head), refname);
	git_reference_free(head);
	return is;
}

static int signature(git_signature **who, git_repository *repo)
{
	if (git_signature_default(who, repo) < 0 &&
	    git_signature_now(who, "unknown", "unknown") < 0)
		return rolling_git_error(-1, "cannot make the reflog's identity");
	return 0;
}

/*
 * The reflog `l` is appended to before `lock` is renamed: its length
 * now, under the ref's lock, is what an undo or a sweep cuts it back to.
 */
static void journal_log(struct tx *tx, struct log_append *l, const char *lock)
{
	struct stat st;

	l->old_size = stat(l->path, &st) < 0 ? -1 : st.st_size;
	rolling_ref_journal_log(&tx->journal, l->path, l->old_size, lock);
}

/* Where each reflog goes, its directories made; HEAD locked when it moves. */
static int prepare_logs(struct tx *tx)
{
	const char *common = git_repository_commondir(tx->repo);
	const char *git_dir = git_repository_path(tx->repo);
	char *text;
	size_t i;
	int err = 0;

	tx->log_mode = log_refs_config(tx->repo);
	for (i = 0; i < tx->nr && !err; i++) {
		struct tx_ref *r = &tx->refs[i];
		char *path;

		/* A deleted ref's reflog goes with it, after the commit. */
		if (rolling_ref_update_is_delete(r->u))
			continue;
		if (!(path = rolling_strfmt("%slogs/%s", common, r->u->refname)))
			return rolling_error_nomem();
		if (wants_log(tx, r->u, r->u->refname, path)) {
			r->log.path = path;
			journal_log(tx, &r->log, r->ref.lock);
			err = make_parents(tx, common, path);
		} else {
			free(path);
		}
		if (!err && !tx->head_ref && is_head_of(tx->repo, r->u->refname))
			tx->head_ref = r;
	}
	if (err || !tx->head_ref)
		return err;
	if (!(tx->head_log.path = rolling_strfmt("%slogs/HEAD", git_dir)))
		return rolling_error_nomem();
	if (!wants_log(tx, tx->head_ref->u, "HEAD", tx->head_log.path)) {
		log_release(&tx->head_log);
		tx->head_ref = NULL;
		return 0;
	}
	/* git locks HEAD to write its reflog line (refs/files-backend.c, split_head_update) */
	if ((err = swap_init(&tx->head_lock, git_dir, "HEAD")) < 0)
		return err;
	if ((err = rolling_lock_acquire(&tx->head_lock.lk, tx->head_lock.path,
					LOCK_TIMEOUT_MS)) < 0)
		return err == ROLLING_ELOCKED ?
		       rolling_error_prefix(err, "cannot lock ref 'HEAD'") :
		       rolling_error("cannot lock ref 'HEAD': cannot create '%s': %s",
				     tx->head_lock.lock, strerror(errno));
	/* What HEAD holds: harmless if renamed, and how a sweep knows the lock is ours. */
	if (!(text = rolling_strfmt("ref: %s\n", tx->head_ref->u->refname)))
		return rolling_error_nomem();
	rolling_ref_journal_lock(&tx->journal, tx->head_lock.lock, text);
	err = finish_lock(&tx->head_lock, rolling_write_all(rolling_lock_fd(&tx->head_lock.lk), text,
							    strlen(text)) < 0,
			  "HEAD");
	free(text);
	if (err < 0)
		return err;
	journal_log(tx, &tx->head_log, tx->head_ref->ref.lock);
	return make_parents(tx, git_dir, tx->head_log.path);
}

static int write_new(struct tx *tx)
{
	size_t i;
	int err;

	for (i = 0; i < tx->nr; i++)
		if ((err = write_ref(&tx->refs[i])) < 0)
			return err;
	if ((err = signature(&tx->who, tx->repo)) < 0 || (err = prepare_logs(tx)) < 0 ||
	    (err = journal_write(tx)) < 0)
		return err;
	for (i = 0; i < tx->nr; i++)
		if ((err = keep_old(&tx->refs[i].ref, tx->refs[i].u->refname)) < 0)
			return err;
	return 0;
}

static int prepare(struct tx *tx)
{
	size_t i;
	int err;

	if ((err = lock_refs(tx)) < 0)
		return err;
	/* Under the locks nobody else can move them: compare, then write. */
	for (i = 0; i < tx->nr; i++)
		if ((err = check_old(tx->repo, tx->refs[i].u)) < 0)
			return err;
	return write_new(tx);
}

/* --- 3. the renames -------------------------------------------------------- */

static int swap_commit(struct file_swap *s, const char *refname, int deleting)
{
	if (!s->path)
		return 0;
	if (deleting) {
		/* kept by keep_old() to be put back; the ref held its old value under the lock */
		if (unlink(s->path) < 0)
			return rolling_error("cannot delete %s: cannot remove '%s': %s", refname,
					     s->path, strerror(errno));
		rolling_lock_rollback(&s->lk);
		s->renamed = 1;
		return 0;
	}
	if (rolling_lock_commit(&s->lk) < 0)
		return rolling_error("cannot update %s: cannot rename '%s' to '%s': %s", refname,
				     s->lock, s->path, strerror(errno));
	s->renamed = 1;
	return 0;
}

/* 0 when the old file is back (or, when there was none, the new one gone). */
static int swap_undo(struct file_swap *s)
{
	if (!s->path || !s->renamed)
		return 0;
	if (s->had_file ? rolling_tempfile_rename(&s->old, s->path) < 0 : unlink(s->path) < 0)
		return -1;
	s->renamed = 0;
	return 0;
}

/*
 * Put back what was renamed and cut what was appended; name what could
 * not be.  A ref that stays moved keeps the reflog line that records the
 * move, and so does HEAD's reflog: a ref and its reflogs always agree.
 */
static int roll_back(struct tx *tx)
{
	struct strbuf left = STRBUF_INIT;
	size_t i = tx->nr;
	char *why;
	int err;

	while (i--) {
		struct tx_ref *r = &tx->refs[i];

		if (swap_undo(&r->ref) < 0) {
			strbuf_addf(&left, "\n\t%s moved", r->u->refname);
			continue;
		}
		if (log_undo(&r->log) < 0)
			strbuf_addf(&left, "\n\tthe reflog of %s records a move that did not"
				    " happen", r->u->refname);
		if (r == tx->head_ref && log_undo(&tx->head_log) < 0)
			strbuf_addf(&left, "\n\tthe reflog of HEAD records a move of %s that did"
				    " not happen", r->u->refname);
	}
	if (!left.len)
		return 0;
	why = rolling_error_take();
	err = strbuf_oom(&left) ? rolling_error_nomem() :
	      rolling_error_code(ROLLING_EPARTIAL, "%s; these could not be put back:%s",
				 why ? why : "", left.buf);
	free(why);
	strbuf_release(&left);
	return err;
}

/*
 * Ref by ref as git commits: its reflog lines (and HEAD's), then the
 * rename.  With the fatal signals held (tempfile.h): a signal that
 * removed the locks in the middle would leave reflog lines of a move
 * that did not happen, with no lock left to tell the next run's sweep
 * so.  One that comes meanwhile ends the process once every ref has
 * moved, or every move was undone.
 */
static int commit(struct tx *tx)
{
	size_t i;
	int err = 0;

	rolling_tempfile_hold_signals();
	for (i = 0; i < tx->nr && !err; i++) {
		struct tx_ref *r = &tx->refs[i];

		if ((err = log_append(&r->log, tx->who, r->u)) < 0 ||
		    (r == tx->head_ref && (err = log_append(&tx->head_log, tx->who, r->u)) < 0))
			break;
		err = swap_commit(&r->ref, r->u->refname, rolling_ref_update_is_delete(r->u));
	}
	if (err < 0 && roll_back(tx) < 0)
		err = ROLLING_EPARTIAL;
	rolling_tempfile_release_signals();
	return err;
}

static void tx_release(struct tx *tx, int failed)
{
	size_t i;

	for (i = 0; i < tx->nr; i++) {
		log_release(&tx->refs[i].log);
		swap_release(&tx->refs[i].ref);
	}
	log_release(&tx->head_log);
	swap_release(&tx->head_lock);
	/* Only empty ones go; deepest first. */
	for (i = tx->dirs_nr; i--; ) {
		if (failed)
			rmdir(tx->dirs[i]);
		free(tx->dirs[i]);
	}
	free(tx->dirs);
	free(tx->refs);
	git_signature_free(tx->who);
	rolling_ref_journal_release(&tx->journal);
}

/*
 * The reflogs of the refs deleted, once every ref is in place, as git
 * removes them (refs/files-backend.c, files_transaction_finish()): a
 * reflog left behind is harmless, and git would append to it.
 */
static void delete_logs(struct tx *tx)
{
	size_t i;

	for (i = 0; i < tx->nr; i++) {
		const struct rolling_ref_update *u = tx->refs[i].u;
		char *path;

		if (!rolling_ref_update_is_delete(u))
			continue;
		if (!(path = rolling_strfmt("%slogs/%s", git_repository_commondir(tx->repo),
					    u->refname))) {
			rolling_warning("cannot remove the reflog of %s: out of memory", u->refname);
			continue;
		}
		if (unlink(path) < 0 && errno != ENOENT)
			rolling_warning("cannot remove the reflog of %s ('%s'): %s", u->refname,
					path, strerror(errno));
		free(path);
	}
}

static void files_sweep(git_repository *repo)
{
	rolling_ref_journal_sweep(git_repository_commondir(repo));
}

static int files_prepare(struct rolling_ref_transaction *t)
{
	struct tx *tx = calloc(1, sizeof(*tx));
	size_t i;
	int err;

	if (!tx)
		return rolling_error_nomem();
	tx->repo = t->repo;
	swap_clear(&tx->head_lock);
	tx->journal = (struct rolling_ref_journal)ROLLING_REF_JOURNAL_INIT;
	files_sweep(t->repo);
	if (!(tx->refs = calloc(t->nr, sizeof(*tx->refs)))) {
		free(tx);
		return rolling_error_nomem();
	}
	tx->nr = t->nr;
	for (i = 0; i < t->nr; i++) {
		tx->refs[i].u = &t->updates[i];
		swap_clear(&tx->refs[i].ref);
	}
	if ((err = prepare(tx)) < 0) {
		tx_release(tx, 1);
		free(tx);
		return err;
	}
	t->backend_data = tx;
	return 0;
}

static int files_commit(struct rolling_ref_transaction *t)
{
	struct tx *tx = t->backend_data;
	int err = commit(tx);

	if (!err)
		delete_logs(tx);
	tx_release(tx, err < 0);
	free(tx);
	t->backend_data = NULL;
	return err;
}

static void files_abort(struct rolling_ref_transaction *t)
{
	tx_release(t->backend_data, 1);
	free(t->backend_data);
	t->backend_data = NULL;
}

const struct rolling_ref_backend rolling_refs_files = {
	.name = "files",
	.prepare = files_prepare,
	.commit = files_commit,
	.abort = files_abort,
	.sweep = files_sweep,
};
