#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <strings.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "push-log.h"
#include "push-record.h"
#include "signature.h"
#include "refs.h"
#include "config.h"
#include "run-command.h"
#include "alloc.h"
#include "error.h"
#include "oidmap.h"
#include "strbuf.h"
#include "odb-raw.h"

#define STATE_REF_PREFIX "refs/rolling/push-log/"
#define STATE_MAGIC "git-rolling push-log 1"
#define CERT_ATTACHMENT "git-push-certificate.txt"
/* The most epochs a log may have (kernel.org's has a handful). */
#define MAX_EPOCHS 10000
/* The largest commit or tree object of a log read (each holds one message). */
#define MAX_LOG_OBJECT (64u << 10)

const char *rolling_push_log_check_name(enum rolling_push_log_check check)
{
	switch (check) {
	case ROLLING_PUSH_LOG_PUBLISHED:
		return "published";
	case ROLLING_PUSH_LOG_NEWEST:
		return "newest";
	case ROLLING_PUSH_LOG_UNBROKEN:
		return "unbroken";
	case ROLLING_PUSH_LOG_GROWS:
		return "grows";
	case ROLLING_PUSH_LOG_RECORD:
		break;
	}
	return "record";
}

const char *rolling_push_log_date(char *buf, size_t size, long long t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (t < 0 || !gmtime_r(&tt, &tm) || !strftime(buf, size, "%Y-%m-%d", &tm))
		snprintf(buf, size, "an unknown date");
	return buf;
}

static int fail(struct rolling_push_log_result *r, enum rolling_push_log_check check,
		const char *fmt, ...) ROLLING_PRINTF(3, 4);

static int fail(struct rolling_push_log_result *r, enum rolling_push_log_check check,
		const char *fmt, ...)
{
	struct rolling_push_log_failure *f;
	va_list ap;
	char *message;

	va_start(ap, fmt);
	message = rolling_vstrfmt(fmt, ap);
	va_end(ap);
	if (!message)
		return rolling_error_nomem();
	if (ALLOC_GROW(r->failures, r->failures_nr + 1, r->failures_alloc) < 0) {
		free(message);
		return ROLLING_ERROR;
	}
	f = &r->failures[r->failures_nr++];
	f->check = check;
	f->message = message;
	return 0;
}

/* --- the state remembered in the user's repository --------------------------- */

struct epoch_state {
	unsigned epoch;
	git_oid last;                /* the last commit read */
	long long time;              /* its committer date */
};

struct state {
	struct epoch_state *epochs;
	size_t epochs_nr, epochs_alloc;
	int has_checked;
	git_oid checked;
	struct rolling_push_log_entry *entries;
	size_t entries_nr, entries_alloc;
};

static void state_release(struct state *s)
{
	free(s->epochs);
	free(s->entries);
	memset(s, 0, sizeof(*s));
}

static const struct epoch_state *state_epoch(const struct state *s, unsigned epoch)
{
	size_t i;

	for (i = 0; i < s->epochs_nr; i++)
		if (s->epochs[i].epoch == epoch)
			return &s->epochs[i];
	return NULL;
}

/* The identity of a state: the log's path, the repository and the ref, one per line. */
static int state_identity(struct strbuf *sb, const char *log_path,
			  const struct rolling_push_log_options *o)
{
	strbuf_addf(sb, "log %s\nrepo %s\nref %s\n", log_path, o->repo_name, o->ref);
	return strbuf_oom(sb) ? rolling_error_nomem() : 0;
}

static int state_refname(struct strbuf *name, const struct strbuf *identity)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_oid id;

	if (git_odb_hash(&id, identity->buf, identity->len, GIT_OBJECT_BLOB) < 0)
		return rolling_git_error(-1, "cannot hash the push log's name");
	strbuf_addf(name, STATE_REF_PREFIX "%s", git_oid_tostr(hex, sizeof(hex), &id));
	return strbuf_oom(name) ? rolling_error_nomem() : 0;
}

static int parse_oid_word(git_oid *id, const char **p)
{
	if (strspn(*p, "0123456789abcdef") < GIT_OID_HEXSZ || git_oid_fromstrn(id, *p,
									    GIT_OID_HEXSZ) < 0)
		return -1;
	*p += GIT_OID_HEXSZ;
	return 0;
}

/* One line of the state after its identity; -1 when it does not parse. */
static int state_line(struct state *s, const char *line)
{
	char *end;

	if (!strncmp(line, "epoch ", 6)) {
		struct epoch_state e;
		unsigned long n = strtoul(line + 6, &end, 10);

		line = end;
		if (*line++ != ' ' || n > MAX_EPOCHS || parse_oid_word(&e.last, &line) ||
		    *line++ != ' ')
			return -1;
		e.epoch = (unsigned)n;
		e.time = strtoll(line, &end, 10);
		if (end == line || *end || ALLOC_GROW(s->epochs, s->epochs_nr + 1,
						      s->epochs_alloc) < 0)
			return -1;
		s->epochs[s->epochs_nr++] = e;
		return 0;
	}
	if (!strncmp(line, "checked ", 8)) {
		line += 8;
		if (parse_oid_word(&s->checked, &line) || *line)
			return -1;
		s->has_checked = 1;
		return 0;
	}
	if (!strncmp(line, "record ", 7)) {
		struct rolling_push_log_entry e;
		unsigned long n = strtoul(line + 7, &end, 10);

		line = end;
		if (*line++ != ' ' || n > MAX_EPOCHS || parse_oid_word(&e.commit, &line) ||
		    *line++ != ' ' || parse_oid_word(&e.old_id, &line) || *line++ != ' ' ||
		    parse_oid_word(&e.new_id, &line) || *line++ != ' ')
			return -1;
		e.epoch = (unsigned)n;
		e.time = strtoll(line, &end, 10);
		if (end == line || *end ||
		    ALLOC_GROW(s->entries, s->entries_nr + 1, s->entries_alloc) < 0)
			return -1;
		s->entries[s->entries_nr++] = e;
		return 0;
	}
	return -1;
}

/*
 * Read the state the ref names, if it is one for this identity.  A
 * state that does not parse is dropped (the log is read anew): it is a
 * cache.  Returns 0 (with *had_ref and *ref_id set when the ref exists)
 * or a negative error.
 */
static int state_read(struct state *s, int *had_ref, git_oid *ref_id, git_repository *repo,
		      const char *refname, const struct strbuf *identity)
{
	git_odb *odb = NULL;
	git_odb_object *blob = NULL;
	struct strbuf text = STRBUF_INIT;
	const char *line;
	int err;

	*had_ref = 0;
	err = git_reference_name_to_id(ref_id, repo, refname);
	if (err == GIT_ENOTFOUND)
		return 0;
	if (err < 0)
		return rolling_git_error(err, "cannot read %s", refname);
	*had_ref = 1;
	if ((err = git_repository_odb(&odb, repo)) < 0)
		return rolling_git_error(err, "cannot open the object database");
	if (git_odb_read(&blob, odb, ref_id) < 0 || git_odb_object_type(blob) != GIT_OBJECT_BLOB)
		goto drop;
	strbuf_add(&text, git_odb_object_data(blob), git_odb_object_size(blob));
	if (strbuf_oom(&text)) {
		err = rolling_error_nomem();
		goto out;
	}
	if (strncmp(text.buf, STATE_MAGIC "\n", sizeof(STATE_MAGIC)) ||
	    strncmp(text.buf + sizeof(STATE_MAGIC), identity->buf, identity->len))
		goto drop;
	for (line = text.buf + sizeof(STATE_MAGIC) + identity->len; *line;) {
		size_t len = strcspn(line, "\n");

		if (line[len] != '\n')
			goto drop;
		text.buf[(line - text.buf) + (ptrdiff_t)len] = '\0';
		if (state_line(s, line) < 0)
			goto drop;
		line += len + 1;
	}
	goto out;
drop:
	state_release(s);
	err = 0;
out:
	strbuf_release(&text);
	git_odb_object_free(blob);
	git_odb_free(odb);
	return err;
}

static int state_write(git_repository *repo, const char *refname, int had_ref,
		       const git_oid *ref_id, const struct strbuf *identity, const struct state *s)
{
	struct strbuf text = STRBUF_INIT;
	struct rolling_ref_update update;
	char a[GIT_OID_HEXSZ + 1], b[GIT_OID_HEXSZ + 1], c[GIT_OID_HEXSZ + 1];
	git_oid blob;
	size_t i;
	int err;

	strbuf_addf(&text, "%s\n%s", STATE_MAGIC, identity->buf);
	for (i = 0; i < s->epochs_nr; i++)
		strbuf_addf(&text, "epoch %u %s %lld\n", s->epochs[i].epoch,
			    git_oid_tostr(a, sizeof(a), &s->epochs[i].last), s->epochs[i].time);
	if (s->has_checked)
		strbuf_addf(&text, "checked %s\n", git_oid_tostr(a, sizeof(a), &s->checked));
	for (i = 0; i < s->entries_nr; i++) {
		const struct rolling_push_log_entry *e = &s->entries[i];

		strbuf_addf(&text, "record %u %s %s %s %lld\n", e->epoch,
			    git_oid_tostr(a, sizeof(a), &e->commit),
			    git_oid_tostr(b, sizeof(b), &e->old_id),
			    git_oid_tostr(c, sizeof(c), &e->new_id), e->time);
	}
	if (strbuf_oom(&text))
		return rolling_error_nomem();
	err = git_blob_create_from_buffer(&blob, repo, text.buf, text.len);
	strbuf_release(&text);
	if (err < 0)
		return rolling_git_error(err, "cannot write the push log's index");
	if (had_ref && git_oid_equal(&blob, ref_id))
		return 0;
	memset(&update, 0, sizeof(update));
	update.refname = refname;
	update.new_oid = blob;
	update.had_old = had_ref;
	if (had_ref)
		update.old_oid = *ref_id;
	update.message = "rolling: push log read";
	return rolling_ref_transaction(repo, &update, 1);
}

/* --- the archive ----------------------------------------------------------- */

struct epoch {
	unsigned epoch;
	char *path;
};

struct archive {
	char *path;                  /* the log's absolute path */
	struct epoch *epochs;
	size_t epochs_nr, epochs_alloc;
};

static void archive_release(struct archive *a)
{
	size_t i;

	for (i = 0; i < a->epochs_nr; i++)
		free(a->epochs[i].path);
	free(a->epochs);
	free(a->path);
	memset(a, 0, sizeof(*a));
}

static int compare_epochs(const void *a, const void *b)
{
	const struct epoch *x = a, *y = b;

	return x->epoch < y->epoch ? -1 : x->epoch > y->epoch;
}

/* "<n>.git" with n a decimal number without leading zeros. */
static int epoch_number(unsigned *n, const char *name)
{
	size_t digits = strspn(name, "0123456789");
	unsigned long v;

	if (!digits || strcmp(name + digits, ".git") || (digits > 1 && *name == '0') || digits > 6)
		return 0;
	v = strtoul(name, NULL, 10);
	if (v > MAX_EPOCHS)
		return 0;
	*n = (unsigned)v;
	return 1;
}

static int scan_epochs(struct archive *a, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int err = 0;

	if (!d)
		return errno == ENOENT || errno == ENOTDIR ? 0 :
			rolling_error("cannot read %s: %s", dir, strerror(errno));
	while (!err && (de = readdir(d))) {
		unsigned n;

		if (!epoch_number(&n, de->d_name))
			continue;
		if (ALLOC_GROW(a->epochs, a->epochs_nr + 1, a->epochs_alloc) < 0) {
			err = ROLLING_ERROR;
			break;
		}
		a->epochs[a->epochs_nr].epoch = n;
		if (!(a->epochs[a->epochs_nr].path = rolling_path_join(dir, de->d_name)))
			err = rolling_error_nomem();
		else
			a->epochs_nr++;
	}
	closedir(d);
	return err;
}

/*
 * The epochs: `N.git` in the log's directory or in its `git/`, else the
 * log itself as epoch 0.
 */
static int archive_open(struct archive *a, const char *log)
{
	char *sub;
	int err;

	memset(a, 0, sizeof(*a));
	if (!(a->path = realpath(log, NULL)))
		return rolling_error("cannot open the push log %s: %s", log, strerror(errno));
	if ((err = scan_epochs(a, a->path)) < 0)
		return err;
	if (!a->epochs_nr) {
		if (!(sub = rolling_path_join(a->path, "git")))
			return rolling_error_nomem();
		err = scan_epochs(a, sub);
		free(sub);
		if (err < 0)
			return err;
	}
	if (!a->epochs_nr) {
		if (ALLOC_GROW(a->epochs, 1, a->epochs_alloc) < 0)
			return ROLLING_ERROR;
		a->epochs[0].epoch = 0;
		if (!(a->epochs[0].path = strdup(a->path)))
			return rolling_error_nomem();
		a->epochs_nr = 1;
	}
	qsort(a->epochs, a->epochs_nr, sizeof(*a->epochs), compare_epochs);
	return 0;
}

/* --- reading records ----------------------------------------------------- */

struct reader {
	git_repository *repo;        /* the epoch */
	git_odb *odb;
	const char *what;            /* "<n>.git" for messages */
	/* The repository followed, as its records must spell it (push-record.h). */
	const char *repo_core;
};

/*
 * A raw object of `type`, at most `cap` bytes, its size read from the
 * header first, straight from the epoch's backends (odb-raw.h): the walk
 * reads every commit of the log once, and most of them only for their
 * subject and parent.  An object a record rests on has its id checked
 * (check_ids()).
 */
static int read_object(struct rolling_raw_object *object, struct reader *rd, const git_oid *id,
		       git_object_t type, size_t cap, struct rolling_push_log_result *res,
		       int *refused)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_object_t found;
	size_t size;
	int err;

	memset(object, 0, sizeof(*object));
	git_oid_tostr(hex, sizeof(hex), id);
	if ((err = rolling_odb_read_header_raw(&size, &found, rd->odb, id)) < 0)
		return rolling_git_error(err, "push log %s: cannot read %s", rd->what, hex);
	if (found != type) {
		*refused = 1;
		return fail(res, ROLLING_PUSH_LOG_RECORD, "push log %s: %s is a %s, not a %s",
			    rd->what, hex, git_object_type2string(found),
			    git_object_type2string(type));
	}
	if (size > cap) {
		*refused = 1;
		return fail(res, ROLLING_PUSH_LOG_RECORD,
			    "push log %s: %s is %zu bytes, more than the %zu a record may have",
			    rd->what, hex, size, cap);
	}
	if ((err = rolling_odb_read_raw(object, rd->odb, id)) < 0)
		return rolling_git_error(err, "push log %s: cannot read %s", rd->what, hex);
	/* The header and the object disagree: a damaged pack, not a record. */
	if (object->type != type || object->size != size) {
		rolling_raw_object_release(object);
		return rolling_error("push log %s: %s is not the %s of %zu bytes its header says",
				     rd->what, hex, git_object_type2string(type), size);
	}
	return 0;
}

/*
 * The objects a record rests on hash to their ids: git checked them when
 * it fetched the log, but the record is evidence, and a pack changed in
 * place since (the log is a clone on the user's disk) must not make it.
 */
static int check_ids(struct reader *rd, const struct rolling_raw_object *const *objects,
		     const git_oid *const *ids, size_t nr, struct rolling_push_log_result *res,
		     int *refused)
{
	char hex[GIT_OID_HEXSZ + 1];
	size_t i;
	int ok;

	for (i = 0; i < nr; i++) {
		if ((ok = rolling_raw_object_check_id(objects[i], ids[i])) < 0)
			return rolling_git_error(ok, "push log %s: cannot hash %s", rd->what,
						 git_oid_tostr(hex, sizeof(hex), ids[i]));
		if (!ok) {
			*refused = 1;
			return fail(res, ROLLING_PUSH_LOG_RECORD,
				    "push log %s: %s does not hash to its id: the log's objects"
				    " were changed on disk", rd->what,
				    git_oid_tostr(hex, sizeof(hex), ids[i]));
		}
	}
	return 0;
}

/* The tree, first parent, committer date and message of a raw commit. */
struct raw_commit {
	git_oid tree, parent;
	int parents;
	long long time;
	const char *message;         /* into the object read, not NUL-terminated */
	size_t message_size;
};

static int parse_commit(struct raw_commit *c, const char *data, size_t size)
{
	const char *line = data, *end = data + size;

	memset(c, 0, sizeof(*c));
	c->time = -1;
	while (line < end && *line != '\n') {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		const char *p;

		if (!nl)
			return -1;
		if (!strncmp(line, "tree ", 5)) {
			p = line + 5;
			if (parse_oid_word(&c->tree, &p))
				return -1;
		} else if (!strncmp(line, "parent ", 7)) {
			p = line + 7;
			if (!c->parents++ && parse_oid_word(&c->parent, &p))
				return -1;
		} else if (!strncmp(line, "committer ", 10)) {
			const char *gt = line;

			for (p = line; p < nl; p++)
				if (*p == '>')
					gt = p;
			if (gt != line)
				c->time = strtoll(gt + 1, NULL, 10);
		}
		line = nl + 1;
	}
	/* After the blank line; a commit without one has no message. */
	if (line < end) {
		c->message = line + 1;
		c->message_size = (size_t)(end - line - 1);
	}
	return 0;
}

/* The blob `m` of a raw tree; 0 when the tree has none, -1 when it does not parse. */
static int tree_message(git_oid *blob, const char *data, size_t size, int *entries)
{
	const char *p = data, *end = data + size;
	int found = 0;

	*entries = 0;
	while (p < end) {
		const char *space = memchr(p, ' ', (size_t)(end - p)), *nul;

		if (!space || !(nul = memchr(space, '\0', (size_t)(end - space))) ||
		    (size_t)(end - nul - 1) < GIT_OID_RAWSZ)
			return -1;
		(*entries)++;
		if (!strcmp(space + 1, "m") && !strncmp(p, "100644 ", 7)) {
			git_oid_fromraw(blob, (const unsigned char *)nul + 1);
			found = 1;
		}
		p = nul + 1 + GIT_OID_RAWSZ;
	}
	return found;
}

static long long date_header_time(const char *date)
{
	struct tm tm;
	const char *end;
	time_t t;

	if (!date)
		return -1;
	memset(&tm, 0, sizeof(tm));
	while (*date == ' ')
		date++;
	end = strptime(date, "%a, %d %b %Y %H:%M:%S %z", &tm);
	if (!end)
		return -1;
	t = timegm(&tm);
	return t == (time_t)-1 ? -1 : (long long)t - tm.tm_gmtoff;
}

/*
 * Two names of one repository: a record's `repo` may be a path below a
 * root ("pub/scm/...") or absolute, a pushee's path has its leading
 * slashes dropped: both are compared without leading slashes or a
 * trailing ".git".
 */
static int same_repo(const char *a, const char *b)
{
	size_t alen, blen;

	while (*a == '/')
		a++;
	while (*b == '/')
		b++;
	alen = strlen(a);
	blen = strlen(b);
	if (alen >= 4 && !strcmp(a + alen - 4, ".git"))
		alen -= 4;
	if (blen >= 4 && !strcmp(b + blen - 4, ".git"))
		blen -= 4;
	return alen == blen && !memcmp(a, b, alen);
}

/*
 * Whether a certificate's pushee (its URL's path) is the repository: the
 * same path, or one that ends in it after a '/' (a server's absolute
 * path, "/srv/git/pub/scm/...", where the log names the repository
 * below its root, as gitolite does).
 */
static int pushee_names(const char *pushee_path, const char *repo)
{
	size_t plen = strlen(pushee_path), rlen;

	while (*repo == '/')
		repo++;
	rlen = strlen(repo);
	if (rlen >= 4 && !strcmp(repo + rlen - 4, ".git"))
		rlen -= 4;
	if (!rlen)
		return 0;
	if (plen == rlen)
		return !memcmp(pushee_path, repo, rlen);
	return plen > rlen && pushee_path[plen - rlen - 1] == '/' &&
	       !memcmp(pushee_path + plen - rlen, repo, rlen);
}

/* A repository's name as its records must spell it: no leading '/', no trailing ".git". */
static char *repo_core(const char *name)
{
	size_t len;

	while (*name == '/')
		name++;
	len = strlen(name);
	if (len >= 4 && !strcmp(name + len - 4, ".git"))
		len -= 4;
	return strndup(name, len);
}

/* The change of `record` for the ref, or NULL. */
static const struct rolling_push_change *record_change(const struct rolling_push_record *record,
							const struct rolling_push_log_options *o)
{
	size_t i;

	if (!record->repo || !same_repo(record->repo, o->repo_name))
		return NULL;
	for (i = 0; i < record->changes_nr; i++)
		if (!strcmp(record->changes[i].ref, o->ref))
			return &record->changes[i];
	return NULL;
}

/*
 * A `log:` that names an attachment rather than listing commits:
 * "revlist-<old>-<new>.txt" alone on its line, as kernel.org writes it.
 */
static int names_attachment(const char *log, size_t *len)
{
	*len = strcspn(log, "\n");
	return !strncmp(log, "revlist-", 8) && *len > 12 && !strncmp(log + *len - 4, ".txt", 4) &&
	       !log[*len + (log[*len] == '\n')] && !memchr(log, ' ', *len);
}

static int check_log_attachments(const struct rolling_push_record *record, struct strbuf *why)
{
	size_t i, len;

	for (i = 0; i < record->changes_nr; i++) {
		const char *log = record->changes[i].log;
		char *name;
		int missing;

		if (!log || !names_attachment(log, &len))
			continue;
		if (!(name = strndup(log, len)))
			return rolling_error_nomem();
		missing = !rolling_push_record_attachment(record, name);
		if (missing)
			strbuf_addf(why, "log: names the attachment %s, which is missing", name);
		free(name);
		if (missing)
			return 1;
	}
	return 0;
}

/*
 * Read the record of log commit `id` into *record (data holds its
 * bytes), with *commit its parsed header.  A malformed one is a failure
 * (*refused set), not an error.
 */
static int read_record(struct rolling_push_record *record, struct rolling_raw_object *data,
		       struct raw_commit *commit, struct reader *rd, const git_oid *id,
		       struct rolling_push_log_result *res, int *refused)
{
	struct rolling_raw_object object = ROLLING_RAW_OBJECT_INIT, tree = ROLLING_RAW_OBJECT_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	struct strbuf why = STRBUF_INIT;
	git_oid blob;
	int err, entries;

	memset(data, 0, sizeof(*data));
	memset(record, 0, sizeof(*record));
	git_oid_tostr(hex, sizeof(hex), id);
	if ((err = read_object(&object, rd, id, GIT_OBJECT_COMMIT, MAX_LOG_OBJECT, res,
			       refused)) < 0 || *refused)
		goto out;
	if (parse_commit(commit, object.data, object.size) < 0) {
		*refused = 1;
		err = fail(res, ROLLING_PUSH_LOG_RECORD, "push log %s: commit %.12s does not parse",
			   rd->what, hex);
		goto out;
	}
	if (commit->parents > 1) {
		*refused = 1;
		err = fail(res, ROLLING_PUSH_LOG_RECORD,
			   "push log %s: commit %.12s is a merge: a push log only appends",
			   rd->what, hex);
		goto out;
	}
	/*
	 * The commit's message is the record's Subject, "post-receive:
	 * <repo>" (public-inbox v2, kernel.org's log, contrib/hooks/push-log):
	 * one that cannot name the repository, by the test the record's own
	 * bytes get (push-record.h), skips the record unread, its tree and
	 * blob (most of the cost of a log of every repository of a server,
	 * p8000).  Sound: the message is covered by the commit's id as the
	 * blob is, and the log's tamper-evidence is its commit history, read
	 * in full still (parents, merges, the commit read last time); a
	 * record skipped for a misleading subject is one the log left out,
	 * which its writer can do anyway.  The record is then never evidence,
	 * even when its blob names the repository, nor refused when malformed
	 * (or not one message m); a merge is refused, read from the commit.
	 */
	if (rd->repo_core && *rd->repo_core &&
	    !rolling_push_record_may_name(commit->message, commit->message_size, rd->repo_core))
		goto out;
	if ((err = read_object(&tree, rd, &commit->tree, GIT_OBJECT_TREE, MAX_LOG_OBJECT, res,
			       refused)) < 0 || *refused)
		goto out;
	err = tree_message(&blob, tree.data, tree.size, &entries);
	if (err <= 0 || entries != 1) {
		*refused = 1;
		err = fail(res, ROLLING_PUSH_LOG_RECORD,
			   "push log %s: commit %.12s does not add one message m (a deletion?):"
			   " a push log only appends", rd->what, hex);
		goto out;
	}
	if ((err = read_object(data, rd, &blob, GIT_OBJECT_BLOB, ROLLING_PUSH_RECORD_MAX_SIZE, res,
			       refused)) < 0 || *refused)
		goto out;
	{
		const struct rolling_raw_object *objects[] = { &object, &tree, data };
		const git_oid *ids[] = { id, &commit->tree, &blob };

		if ((err = check_ids(rd, objects, ids, 3, res, refused)) < 0 || *refused)
			goto out;
	}
	err = rolling_push_record_parse_for(record, data->data, data->size, rd->repo_core);
	if (err > 0) {
		err = 0;        /* MIME checked; it cannot be the repository's */
	} else if (err < 0 || (err = check_log_attachments(record, &why)) > 0) {
		*refused = 1;
		err = fail(res, ROLLING_PUSH_LOG_RECORD, "push log %s: record %.12s: %s", rd->what,
			   hex, why.len ? why.buf : rolling_last_error());
	}
out:
	strbuf_release(&why);
	rolling_raw_object_release(&object);
	rolling_raw_object_release(&tree);
	return err;
}

/* The certificate's time, else the Date header's. */
static long long record_time(const struct rolling_push_record *record)
{
	const struct rolling_push_attachment *a = rolling_push_record_attachment(record,
										 CERT_ATTACHMENT);
	struct rolling_push_cert cert;
	long long t = -1;

	memset(&cert, 0, sizeof(cert));
	if (a && !rolling_push_cert_parse(&cert, a->data, a->size))
		t = cert.pusher_time;
	rolling_push_cert_release(&cert);
	return t >= 0 ? t : date_header_time(record->date);
}

static int open_epoch(struct reader *rd, const struct epoch *e, char *what, size_t what_size)
{
	int err;

	snprintf(what, what_size, "%u.git", e->epoch);
	rd->what = what;
	if ((err = git_repository_open_ext(&rd->repo, e->path, GIT_REPOSITORY_OPEN_NO_SEARCH,
					   NULL)) < 0)
		return rolling_git_error(err, "cannot open the push log %s", e->path);
	if ((err = git_repository_odb(&rd->odb, rd->repo)) < 0)
		return rolling_git_error(err, "cannot open the push log %s", e->path);
	return 0;
}

/*
 * The commit the epoch's HEAD names.  An epoch cloned by a git that
 * writes reftable (2.45 and later, with init.defaultRefFormat or Git 3.0's
 * default) has refs libgit2 1.5 to 1.9 cannot read: git reads that one
 * HEAD (rev-parse reads no hook or program from the log's configuration);
 * the records themselves are still read from the objects here.
 */
static int epoch_head(git_oid *head, struct reader *rd, const struct epoch *e)
{
	git_config *config = NULL;
	char *refstorage = NULL;
	const char *line;
	int err;

	if ((err = git_repository_config_snapshot(&config, rd->repo)) < 0)
		return rolling_git_error(err, "cannot read the push log %s", e->path);
	err = rolling_config_get_string(&refstorage, config, "extensions.refstorage");
	git_config_free(config);
	if (err < 0)
		return err;
	if (!refstorage || !strcmp(refstorage, "files")) {
		free(refstorage);
		return git_reference_name_to_id(head, rd->repo, "HEAD");
	}
	free(refstorage);
	{
		struct rolling_child git = ROLLING_CHILD_INIT;

		rolling_strvec_pushl(&git.args, "--git-dir", e->path, "rev-parse", "-q", "--verify",
				     "HEAD^{commit}", NULL);
		git.out = ROLLING_CHILD_CAPTURE;
		git.err = ROLLING_CHILD_ERR_DISCARD;
		err = rolling_child_run(&git);
		line = git.captured.buf;
		if (err == 1)
			err = GIT_ENOTFOUND;
		else if (err > 0 || (!err && (strlen(line) < GIT_OID_HEXSZ ||
					      git_oid_fromstrn(head, line, GIT_OID_HEXSZ) < 0)))
			err = rolling_error("push log %s: git cannot read its HEAD", e->path);
		rolling_child_release(&git);
	}
	return err;
}

static void close_epoch(struct reader *rd)
{
	git_odb_free(rd->odb);
	git_repository_free(rd->repo);
	rd->odb = NULL;
	rd->repo = NULL;
}

/*
 * One epoch's read.  The caller opens the epoch and reads its HEAD (which
 * may run git, epoch_head()); the walk back from there, the most of a
 * first check's time on a log of a whole server (p8000), runs on a worker
 * thread, each epoch its own repository handle and its own results, so
 * that they are taken in the log's order afterwards whatever order the
 * threads finished in (read_log()).
 */
struct epoch_job {
	const struct epoch *e;
	struct epoch_state before;
	int has_before;
	const struct rolling_push_log_options *o;
	int full;
	struct reader rd;
	char what[32];
	char *core;
	git_oid head;
	int empty;                   /* no HEAD: nothing to read */

	/* What the walk found: the records for the repository and ref, newest first. */
	struct rolling_push_log_entry *found;
	size_t found_nr, found_alloc;
	struct rolling_push_log_result res;     /* failures and records_read only */
	int refused;
	int err;
	char *error;                 /* err's message, taken from the thread that had it */
	int read_any;
	long long head_time;
};

static void epoch_job_release(struct epoch_job *job)
{
	close_epoch(&job->rd);
	free(job->core);
	free(job->found);
	free(job->error);
	rolling_push_log_result_release(&job->res);
	memset(job, 0, sizeof(*job));
}

/* Open the epoch and read its HEAD: in the calling thread, as it may run git. */
static int epoch_job_start(struct epoch_job *job, const struct state *s, const struct epoch *e,
			   const struct rolling_push_log_options *o, int full)
{
	const struct epoch_state *before = state_epoch(s, e->epoch);
	char date[32];
	int err;

	job->e = e;
	job->o = o;
	job->full = full;
	job->head_time = -1;
	if (before) {
		job->before = *before;
		job->has_before = 1;
	}
	if (!(job->core = repo_core(o->repo_name)))
		return rolling_error_nomem();
	job->rd.repo_core = job->core;
	if ((err = open_epoch(&job->rd, e, job->what, sizeof(job->what))) < 0)
		return err;
	err = epoch_head(&job->head, &job->rd, e);
	if (err == GIT_ENOTFOUND || err == GIT_EUNBORNBRANCH) {
		job->empty = 1;
		if (!before)
			return 0;
		job->refused = 1;
		return fail(&job->res, ROLLING_PUSH_LOG_GROWS,
			    "the push log was rewritten since %s: %s is empty",
			    rolling_push_log_date(date, sizeof(date), before->time), job->what);
	}
	if (err == ROLLING_ERROR)
		return err;
	if (err < 0)
		return rolling_git_error(err, "push log %s: cannot read HEAD", job->what);
	return 0;
}

/*
 * Walk the epoch from its HEAD back to the commit read last time (or its
 * root), keeping the records for the repository and ref.  When the
 * remembered commit is not on the chain, the log was rewritten.  Runs on
 * a worker thread: touches nothing but the job (error.h's message is the
 * thread's own).
 */
static int walk_epoch(struct epoch_job *job)
{
	const struct epoch_state *before = job->has_before ? &job->before : NULL;
	struct rolling_push_log_result *res = &job->res;
	char date[32], hex[GIT_OID_HEXSZ + 1];
	int err = 0, met = 0;
	git_oid id;

	if (job->empty)
		return 0;
	for (id = job->head; !job->refused;) {
		struct rolling_push_record record;
		const struct rolling_push_change *change;
		struct rolling_raw_object data = ROLLING_RAW_OBJECT_INIT;
		struct raw_commit commit;

		/* Read in full, the commit read before must still be met on the way. */
		if (before && git_oid_equal(&id, &before->last)) {
			if (!job->full)
				break;
			met = 1;
		}
		err = read_record(&record, &data, &commit, &job->rd, &id, res, &job->refused);
		if (!err && !job->refused) {
			if (!job->read_any)
				job->head_time = commit.time;
			job->read_any = 1;
			res->records_read++;
			if ((change = record_change(&record, job->o))) {
				struct rolling_push_log_entry *entry;

				if (ALLOC_GROW(job->found, job->found_nr + 1, job->found_alloc) < 0) {
					err = ROLLING_ERROR;
				} else {
					entry = &job->found[job->found_nr++];
					entry->epoch = job->e->epoch;
					entry->commit = id;
					entry->old_id = change->old_id;
					entry->new_id = change->new_id;
					entry->time = record_time(&record);
				}
			}
		}
		rolling_push_record_release(&record);
		rolling_raw_object_release(&data);
		if (err < 0 || job->refused)
			break;
		if (!commit.parents) {
			if (before && !met) {
				job->refused = 1;
				err = fail(res, ROLLING_PUSH_LOG_GROWS,
					   "the push log was rewritten since %s: %s no longer holds"
					   " %.12s, read before",
					   rolling_push_log_date(date, sizeof(date), before->time),
					   job->what, git_oid_tostr(hex, sizeof(hex), &before->last));
			}
			break;
		}
		id = commit.parent;
	}
	return err;
}

/* The jobs the workers share: each takes the next one not yet taken. */
struct epoch_jobs {
	struct epoch_job *jobs;
	size_t nr;
	size_t next;
	/* The first job (in the log's order) that failed: later ones need not run. */
	size_t first_failed;
	pthread_mutex_t lock;
};

static void *epoch_worker(void *arg)
{
	struct epoch_jobs *all = arg;

	for (;;) {
		struct epoch_job *job;
		size_t i;

		pthread_mutex_lock(&all->lock);
		i = all->next < all->first_failed ? all->next++ : all->nr;
		pthread_mutex_unlock(&all->lock);
		if (i >= all->nr)
			break;
		job = &all->jobs[i];
		if ((job->err = walk_epoch(job)) < 0)
			job->error = rolling_error_take();
		/* Its pack's pages go with it: memory held is the open epochs', not the log's. */
		close_epoch(&job->rd);
		if (job->err < 0 || job->refused) {
			pthread_mutex_lock(&all->lock);
			if (i < all->first_failed)
				all->first_failed = i;
			pthread_mutex_unlock(&all->lock);
		}
	}
	/* The thread's own message (error.h), when some call left one. */
	free(rolling_error_take());
	return NULL;
}

/*
 * How many threads walk the epochs: one per processor, at most
 * MAX_WORKERS (as git grep's default; each holds an epoch's pack windows
 * and delta base cache, so memory stays bounded on a large machine) and
 * at most one per epoch.  GIT_ROLLING_TEST_PUSH_LOG_THREADS sets it for
 * the tests, which check that the answer does not depend on it.
 */
#define MAX_WORKERS 8

static size_t worker_count(size_t jobs)
{
	const char *forced = getenv("GIT_ROLLING_TEST_PUSH_LOG_THREADS");
	long n = forced && *forced ? strtol(forced, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		n = 1;
	if (n > MAX_WORKERS && !(forced && *forced))
		n = MAX_WORKERS;
	return (size_t)n < jobs ? (size_t)n : jobs;
}

/* Walk every job, on up to worker_count() threads, the calling one among them. */
static void walk_epochs(struct epoch_job *jobs, size_t nr)
{
	struct epoch_jobs all;
	pthread_t *threads = NULL;
	size_t workers = worker_count(nr), started = 0, i;

	all.jobs = jobs;
	all.nr = nr;
	all.next = 0;
	all.first_failed = nr;
	pthread_mutex_init(&all.lock, NULL);
	if (workers > 1 && (threads = calloc(workers - 1, sizeof(*threads))))
		/* A thread that cannot be started leaves its share to the others. */
		for (i = 0; i + 1 < workers; i++)
			if (!pthread_create(&threads[started], NULL, epoch_worker, &all))
				started++;
	{
		/* The calling thread's message is its caller's: keep it apart. */
		char *mine = rolling_error_take();

		epoch_worker(&all);
		rolling_error_restore(0, mine);
	}
	for (i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	free(threads);
	pthread_mutex_destroy(&all.lock);
}

/* Take what one walked epoch found into the state: its records, oldest first, and its HEAD. */
static int take_epoch(struct state *s, struct epoch_job *job)
{
	struct epoch_state *es = NULL;
	size_t k;

	for (k = job->found_nr; k-- > 0;) {
		if (ALLOC_GROW(s->entries, s->entries_nr + 1, s->entries_alloc) < 0)
			return ROLLING_ERROR;
		s->entries[s->entries_nr++] = job->found[k];
	}
	if (job->empty)
		return 0;
	for (k = 0; k < s->epochs_nr && !es; k++)
		if (s->epochs[k].epoch == job->e->epoch)
			es = &s->epochs[k];
	if (!es) {
		if (ALLOC_GROW(s->epochs, s->epochs_nr + 1, s->epochs_alloc) < 0)
			return ROLLING_ERROR;
		es = &s->epochs[s->epochs_nr++];
		es->epoch = job->e->epoch;
		es->time = -1;
	}
	es->last = job->head;
	if (job->read_any)
		es->time = job->head_time;
	return 0;
}

/* A job's failures (fail()) and count, moved into the caller's result. */
static int take_result(struct rolling_push_log_result *res, struct rolling_push_log_result *from)
{
	size_t i;

	res->records_read += from->records_read;
	for (i = 0; i < from->failures_nr; i++) {
		if (ALLOC_GROW(res->failures, res->failures_nr + 1, res->failures_alloc) < 0)
			return ROLLING_ERROR;
		res->failures[res->failures_nr++] = from->failures[i];
		from->failures[i].message = NULL;
	}
	return 0;
}

/*
 * Read what is new in every epoch, appending the records found to the
 * state's index: as if one epoch after the other, the first failure or
 * error in the log's order the one reported.
 */
static int read_log(struct state *s, const struct archive *a,
		    const struct rolling_push_log_options *o, struct rolling_push_log_result *res,
		    int full, int *refused)
{
	struct epoch_job *jobs;
	size_t i, opened;
	char date[32];
	int err = 0;

	/* An epoch read before and gone now: the log was cut. */
	for (i = 0; i < s->epochs_nr; i++) {
		size_t j;

		for (j = 0; j < a->epochs_nr && a->epochs[j].epoch != s->epochs[i].epoch; j++)
			;
		if (j == a->epochs_nr) {
			*refused = 1;
			return fail(res, ROLLING_PUSH_LOG_GROWS,
				    "the push log was rewritten since %s: epoch %u.git is gone",
				    rolling_push_log_date(date, sizeof(date), s->epochs[i].time),
				    s->epochs[i].epoch);
		}
	}
	if (!a->epochs_nr)
		return 0;
	if (!(jobs = calloc(a->epochs_nr, sizeof(*jobs))))
		return rolling_error_nomem();
	/* Opened in order: the first that fails ends the read there, the epochs before it walked. */
	for (opened = 0; opened < a->epochs_nr; opened++) {
		struct epoch_job *job = &jobs[opened];

		if ((job->err = epoch_job_start(job, s, &a->epochs[opened], o, full)) < 0)
			job->error = rolling_error_take();
		if (job->err < 0 || job->refused)
			break;
	}
	walk_epochs(jobs, opened);
	/* Their results, and the failure of the one that did not open. */
	for (i = 0; i <= opened && i < a->epochs_nr && !err; i++) {
		struct epoch_job *job = &jobs[i];

		if ((err = take_result(res, &job->res)) < 0)
			break;
		if (job->err < 0) {
			err = rolling_error_restore(job->err, job->error);
			job->error = NULL;
			break;
		}
		if (job->refused) {
			*refused = 1;
			break;
		}
		err = take_epoch(s, job);
	}
	for (i = 0; i < a->epochs_nr; i++)
		epoch_job_release(&jobs[i]);
	free(jobs);
	return err;
}

/* --- the checks ---------------------------------------------------------------- */

static const char *short_ref(const char *ref)
{
	return !strncmp(ref, "refs/heads/", 11) ? ref + 11 : ref;
}

/* Two records claiming one new: a replayed certificate cannot be told from a real push. */
static int check_duplicates(const struct state *s, struct rolling_push_log_result *res,
			    int *refused)
{
	struct rolling_oidmap seen = { NULL, 0, 0 };
	size_t i, at;
	int err = 0;

	for (i = 0; i < s->entries_nr && !err; i++) {
		const struct rolling_push_log_entry *e = &s->entries[i];
		char hex[GIT_OID_HEXSZ + 1], a[GIT_OID_HEXSZ + 1], b[GIT_OID_HEXSZ + 1];

		if (git_oid_is_zero(&e->new_id))
			continue;
		if (rolling_oidmap_get(&seen, &e->new_id, &at)) {
			*refused = 1;
			err = fail(res, ROLLING_PUSH_LOG_RECORD,
				   "two records claim the push of %s: %u.git %.12s and %u.git %.12s"
				   " (a replayed push cannot be told from a real one)",
				   git_oid_tostr(hex, sizeof(hex), &e->new_id), s->entries[at].epoch,
				   git_oid_tostr(a, sizeof(a), &s->entries[at].commit), e->epoch,
				   git_oid_tostr(b, sizeof(b), &e->commit));
			break;
		}
		err = rolling_oidmap_put(&seen, &e->new_id, i);
	}
	rolling_oidmap_release(&seen);
	return err;
}

/* Whether any of the user's pushers names this signer. */
static int pusher_listed(const struct rolling_push_log_options *o,
			 const struct rolling_push_signer *signer)
{
	size_t i;

	for (i = 0; i < o->pushers_nr; i++) {
		const char *p = o->pushers[i];

		if ((signer->signer && !strcmp(p, signer->signer)) ||
		    (signer->fingerprint && !strcasecmp(p, signer->fingerprint)) ||
		    (signer->primary_fingerprint && !strcasecmp(p, signer->primary_fingerprint)))
			return 1;
		/* A GnuPG user id "Name <email>" is named by its email too. */
		if (signer->signer && signer->primary_fingerprint) {
			const char *lt = strrchr(signer->signer, '<');
			size_t len = strlen(p);

			if (lt && !strncmp(lt + 1, p, len) && lt[1 + len] == '>')
				return 1;
		}
	}
	return 0;
}

/* The certificate's command for the ref, which must say what the YAML says. */
static int cert_matches(const struct rolling_push_cert *cert,
			const struct rolling_push_change *change, const char **why)
{
	size_t i, len = strlen(change->ref);

	for (i = 0; i < cert->commands_nr; i++) {
		const struct rolling_push_cert_command *c = &cert->commands[i];

		if (c->ref_len != len || memcmp(c->ref, change->ref, len))
			continue;
		if (!git_oid_equal(&c->old_id, &change->old_id) ||
		    !git_oid_equal(&c->new_id, &change->new_id)) {
			*why = "it certifies another <old> <new> for the ref than the YAML records";
			return 0;
		}
		return 1;
	}
	*why = "it does not name the ref";
	return 0;
}

/*
 * The tip's record, read again from the log (the index is not
 * evidence), its certificate checked against the YAML and the
 * repository, its signature checked.  *stale when the log does not say
 * what the index says.
 */
static int check_published(struct rolling_push_log_result *res, git_repository *repo,
			   const struct archive *a, const struct rolling_push_log_entry *entry,
			   const struct rolling_push_log_options *o, int *stale)
{
	struct rolling_push_record record;
	struct rolling_push_cert cert;
	struct rolling_push_signer signer;
	const struct rolling_push_change *change;
	const struct rolling_push_attachment *att;
	struct reader rd = { NULL, NULL, NULL, NULL };
	struct rolling_raw_object data = ROLLING_RAW_OBJECT_INIT;
	struct raw_commit commit;
	char what[32], hex[GIT_OID_HEXSZ + 1], *pushee = NULL;
	const char *why = NULL;
	char *core = NULL;
	size_t i;
	int err, refused = 0;

	memset(&cert, 0, sizeof(cert));
	memset(&signer, 0, sizeof(signer));
	memset(&record, 0, sizeof(record));
	for (i = 0; i < a->epochs_nr && a->epochs[i].epoch != entry->epoch; i++)
		;
	if (i == a->epochs_nr) {
		*stale = 1;
		return 0;
	}
	/*
	 * Read as read_epoch() reads it: a record the log's walk skips (its
	 * subject cannot name the repository) is not the tip's whatever an
	 * index written by another version says.
	 */
	if (!(core = repo_core(o->repo_name))) {
		err = rolling_error_nomem();
		goto out;
	}
	if ((err = open_epoch(&rd, &a->epochs[i], what, sizeof(what))) < 0)
		goto out;
	rd.repo_core = core;
	if ((err = read_record(&record, &data, &commit, &rd, &entry->commit, res, &refused)) < 0 ||
	    refused)
		goto out;
	change = record_change(&record, o);
	if (!change || !git_oid_equal(&change->new_id, &entry->new_id) ||
	    !git_oid_equal(&change->old_id, &entry->old_id)) {
		*stale = 1;
		goto out;
	}
	git_oid_tostr(hex, sizeof(hex), &entry->commit);
	att = rolling_push_record_attachment(&record, CERT_ATTACHMENT);
	if (!record.cert_status && record.nonce_status) {
		err = fail(res, ROLLING_PUSH_LOG_PUBLISHED,
			   "the record %s %.12s of the push is not evidence: git_push_cert_nonce_status"
			   " is %.16s (the server did not tie the certificate to this push)", what, hex,
			   record.nonce_status);
		goto out;
	}
	if (!record.cert_status || strcmp(record.cert_status, "G")) {
		err = fail(res, ROLLING_PUSH_LOG_PUBLISHED,
			   "the record %s %.12s of the push is not evidence: git_push_cert_status"
			   " is %.16s, not G (good)", what, hex,
			   record.cert_status ? record.cert_status : "absent");
		goto out;
	}
	if (!att) {
		err = fail(res, ROLLING_PUSH_LOG_PUBLISHED,
			   "the record %s %.12s of the push is not evidence: it has no push"
			   " certificate", what, hex);
		goto out;
	}
	if (rolling_push_cert_parse(&cert, att->data, att->size) < 0) {
		err = fail(res, ROLLING_PUSH_LOG_PUBLISHED,
			   "the record %s %.12s of the push is not evidence: %s", what, hex,
			   rolling_last_error());
		goto out;
	}
	if (!cert_matches(&cert, change, &why)) {
		err = fail(res, ROLLING_PUSH_LOG_PUBLISHED,
			   "the record %s %.12s of the push is not evidence: its certificate"
			   " disagrees with its YAML: %s", what, hex, why);
		goto out;
	}
	pushee = cert.pushee ? rolling_push_log_repo_of_url(cert.pushee) : NULL;
	if (!pushee || !pushee_names(pushee, o->repo_name)) {
		err = fail(res, ROLLING_PUSH_LOG_PUBLISHED,
			   "the record %s %.12s of the push is not evidence: its certificate is"
			   " for another repository (pushee %.200s, not %s)", what, hex,
			   cert.pushee ? cert.pushee : "absent", o->repo_name);
		goto out;
	}
	if ((err = rolling_push_cert_signature(&signer, repo, cert.data, cert.payload_size,
					       cert.data + cert.payload_size,
					       cert.size - cert.payload_size)) < 0)
		goto out;
	if (signer.status != ROLLING_SIGNATURE_GOOD) {
		err = fail(res, ROLLING_PUSH_LOG_PUBLISHED,
			   "the record %s %.12s of the push is not evidence: its certificate's"
			   " signature: %s: %s", what, hex,
			   rolling_signature_status_name(signer.status),
			   signer.why ? signer.why : "not good");
		goto out;
	}
	if (o->pushers_nr && !pusher_listed(o, &signer)) {
		err = fail(res, ROLLING_PUSH_LOG_PUBLISHED,
			   "the record %s %.12s of the push is not evidence: signed by %s (%s),"
			   " who is not listed in %s", what, hex, signer.signer,
			   signer.fingerprint, o->pushers_key ? o->pushers_key : "the pushers");
		goto out;
	}
	res->published = 1;
	res->signer = signer.signer;
	res->fingerprint = signer.fingerprint;
	signer.signer = signer.fingerprint = NULL;
out:
	free(core);
	free(pushee);
	rolling_push_signer_release(&signer);
	rolling_push_cert_release(&cert);
	rolling_push_record_release(&record);
	rolling_raw_object_release(&data);
	close_epoch(&rd);
	return err;
}

static long index_of_new(const struct state *s, const git_oid *id)
{
	size_t i;

	for (i = s->entries_nr; i-- > 0;)
		if (git_oid_equal(&s->entries[i].new_id, id))
			return (long)i;
	return -1;
}

/* The first-parent chain of the tip down to (not including) `stop`; *reached when found. */
static int first_parents(struct rolling_oidmap *chain, int *reached, git_repository *repo,
			 const git_oid *tip, const git_oid *stop)
{
	git_oid id = *tip;
	int err;

	*reached = 0;
	for (;;) {
		git_commit *commit;

		if (git_oid_equal(&id, stop)) {
			*reached = 1;
			return 0;
		}
		if ((err = rolling_oidmap_put(chain, &id, 0)) < 0)
			return err;
		if ((err = git_commit_lookup(&commit, repo, &id)) < 0)
			return rolling_git_error(err, "cannot read the branch's chain");
		if (!git_commit_parentcount(commit)) {
			git_commit_free(commit);
			return 0;
		}
		id = *git_commit_parent_id(commit, 0);
		git_commit_free(commit);
	}
}

static int check_unbroken(struct rolling_push_log_result *res, git_repository *repo,
			  const struct state *s, long tip_at)
{
	struct rolling_oidmap chain = { NULL, 0, 0 };
	char a[GIT_OID_HEXSZ + 1], b[GIT_OID_HEXSZ + 1], c[GIT_OID_HEXSZ + 1];
	long from, k;
	int err, reached;
	size_t unused;

	if (!s->has_checked || git_oid_equal(&s->checked, &res->tip))
		return 0;
	res->has_checked = 1;
	res->checked = s->checked;
	git_oid_tostr(a, sizeof(a), &s->checked);
	if ((from = index_of_new(s, &s->checked)) < 0)
		return fail(res, ROLLING_PUSH_LOG_UNBROKEN,
			    "the push last checked, %.12s, is not in the push log", a);
	if (from > tip_at)
		return fail(res, ROLLING_PUSH_LOG_UNBROKEN,
			    "rewind: the tip was pushed before %.12s, the push last checked", a);
	if ((err = first_parents(&chain, &reached, repo, &res->tip, &s->checked)) < 0)
		goto out;
	if (!reached) {
		err = fail(res, ROLLING_PUSH_LOG_UNBROKEN,
			   "rewind: %.12s, the push last checked, is not on the tip's first-parent"
			   " chain", a);
		goto out;
	}
	for (k = from + 1; k <= tip_at && !err; k++) {
		const struct rolling_push_log_entry *e = &s->entries[k], *prev = &s->entries[k - 1];

		res->chain_nr++;
		if (!git_oid_equal(&e->old_id, &prev->new_id)) {
			err = fail(res, ROLLING_PUSH_LOG_UNBROKEN,
				   "gap: the push %u.git %.12s moved the ref from %.12s, but the push"
				   " before it left %.12s", e->epoch,
				   git_oid_tostr(a, sizeof(a), &e->commit),
				   git_oid_tostr(b, sizeof(b), &e->old_id),
				   git_oid_tostr(c, sizeof(c), &prev->new_id));
			break;
		}
		if (!rolling_oidmap_get(&chain, &e->new_id, &unused))
			err = fail(res, ROLLING_PUSH_LOG_UNBROKEN,
				   "rewind: the push %u.git %.12s of %.12s is not on the tip's"
				   " first-parent chain", e->epoch,
				   git_oid_tostr(a, sizeof(a), &e->commit),
				   git_oid_tostr(b, sizeof(b), &e->new_id));
	}
out:
	rolling_oidmap_release(&chain);
	return err;
}

static int check_newest(struct rolling_push_log_result *res, const struct state *s, long tip_at,
			const struct rolling_push_log_options *o)
{
	char hex[GIT_OID_HEXSZ + 1], date[32];

	if (!s->entries_nr)
		return 0;
	res->has_newest = 1;
	res->newest = s->entries[s->entries_nr - 1];
	if (tip_at < 0 || (size_t)tip_at == s->entries_nr - 1)
		return 0;
	res->later = s->entries_nr - 1 - (size_t)tip_at;
	if (!o->require_latest)
		return 0;
	return fail(res, ROLLING_PUSH_LOG_NEWEST,
		    "the push log records %zu later push%s to %s, newest %.12s on %s: this copy"
		    " is behind", res->later, res->later == 1 ? "" : "es", short_ref(o->ref),
		    git_oid_tostr(hex, sizeof(hex), &res->newest.new_id),
		    rolling_push_log_date(date, sizeof(date), res->newest.time));
}

/* One pass; *stale when the index turned out not to say what the log says. */
static int check_once(struct rolling_push_log_result *res, git_repository *repo,
		      const struct archive *a, const struct rolling_push_log_options *o,
		      const char *refname, const struct strbuf *identity, int fresh, int *stale)
{
	struct state s;
	git_oid ref_id;
	int had_ref = 0, err, refused = 0, loaded;
	long tip_at;
	char hex[GIT_OID_HEXSZ + 1];

	memset(&s, 0, sizeof(s));
	if ((err = state_read(&s, &had_ref, &ref_id, repo, refname, identity)) < 0)
		goto out;
	/*
	 * Read anew, the index is dropped but not what was read before (the
	 * log must still hold it) nor the tip last checked.
	 */
	if (fresh)
		s.entries_nr = 0;
	loaded = s.epochs_nr != 0;
	if ((err = read_log(&s, a, o, res, fresh, &refused)) < 0 || refused ||
	    (err = check_duplicates(&s, res, &refused)) < 0 || refused)
		goto out;
	res->records_relevant = s.entries_nr;
	tip_at = index_of_new(&s, &res->tip);
	if (tip_at < 0) {
		err = fail(res, ROLLING_PUSH_LOG_PUBLISHED,
			   "%.12s was never pushed to %s of %s: no record of the push log has it"
			   " as new", git_oid_tostr(hex, sizeof(hex), &res->tip), short_ref(o->ref),
			   o->repo_name);
	} else {
		res->tip_found = 1;
		res->tip_entry = s.entries[tip_at];
		err = check_published(res, repo, a, &s.entries[tip_at], o, stale);
		if (err < 0 || *stale)
			goto out;
	}
	if (err >= 0)
		err = check_newest(res, &s, tip_at, o);
	if (err >= 0 && tip_at >= 0)
		err = check_unbroken(res, repo, &s, tip_at);
	if (err < 0)
		goto out;
	/*
	 * A verdict against the tip that rests on the index (a record it
	 * lacks, later pushes it lists, a chain it breaks) is confirmed by
	 * reading the log in full once: the index is a cache in a repository
	 * that other programs write too.
	 */
	if (!fresh && loaded && res->failures_nr) {
		*stale = 1;
		goto out;
	}
	/* What was read is remembered; the tip as checked only when it passed. */
	if (!res->failures_nr) {
		s.has_checked = 1;
		s.checked = res->tip;
	}
	err = state_write(repo, refname, had_ref, &ref_id, identity, &s);
out:
	state_release(&s);
	return err;
}

static void clear_result(struct rolling_push_log_result *res)
{
	git_oid tip = res->tip;

	rolling_push_log_result_release(res);
	res->tip = tip;
}

int rolling_push_log_check(struct rolling_push_log_result *res, git_repository *repo,
			   const git_oid *tip, const struct rolling_push_log_options *o)
{
	struct archive a;
	struct strbuf identity = STRBUF_INIT, refname = STRBUF_INIT;
	int err, stale = 0;

	memset(res, 0, sizeof(*res));
	res->tip = *tip;
	if ((err = archive_open(&a, o->log)) < 0 ||
	    (err = state_identity(&identity, a.path, o)) < 0 ||
	    (err = state_refname(&refname, &identity)) < 0)
		goto out;
	err = check_once(res, repo, &a, o, refname.buf, &identity, 0, &stale);
	if (!err && stale) {
		/* The index does not say what the log says: read the log anew. */
		clear_result(res);
		stale = 0;
		err = check_once(res, repo, &a, o, refname.buf, &identity, 1, &stale);
		if (!err && stale)
			err = rolling_error("the push log changed while it was read");
	}
out:
	strbuf_release(&identity);
	strbuf_release(&refname);
	archive_release(&a);
	return err;
}

void rolling_push_log_result_release(struct rolling_push_log_result *res)
{
	size_t i;

	for (i = 0; i < res->failures_nr; i++)
		free(res->failures[i].message);
	free(res->failures);
	free(res->signer);
	free(res->fingerprint);
	memset(res, 0, sizeof(*res));
}
