#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ref-journal.h"
#include "alloc.h"
#include "error.h"
#include "lockfile.h"
#include "fd-io.h"
#include "owner-file.h"
#include "tempfile.h"

#define JOURNAL_PREFIX "rolling-ref-tx."

/* Records: 'L' <content> NUL <lock> NUL, or 'T' <size> NUL <log> NUL <lock> NUL. */
void rolling_ref_journal_lock(struct rolling_ref_journal *j, const char *lock,
			      const char *content)
{
	strbuf_addch(&j->records, 'L');
	strbuf_add(&j->records, content, strlen(content) + 1);
	strbuf_add(&j->records, lock, strlen(lock) + 1);
}

void rolling_ref_journal_log(struct rolling_ref_journal *j, const char *log, off_t size,
			     const char *lock)
{
	strbuf_addf(&j->records, "T%lld", (long long)size);
	strbuf_addch(&j->records, '\0');
	strbuf_add(&j->records, log, strlen(log) + 1);
	strbuf_add(&j->records, lock, strlen(lock) + 1);
}

/*
 * The file, an owner file (owner-file.h): it appears flocked, so that no
 * other run's sweep takes it for a dead run's.  Registered (tempfile.h)
 * as one that names others: a run killed by a signal removes its locks
 * first, then this.  It can go with them: the renames of a transaction
 * and its reflog lines are made with the signals held
 * (refs-files.c), so that no lock the handler removes had lines
 * appended for it.
 */
static int journal_create(struct rolling_ref_journal *j, const char *common_dir)
{
	char *path = rolling_strfmt("%s" JOURNAL_PREFIX "%ld", common_dir, (long)getpid());
	int err = 0;

	if (!path)
		return rolling_error_nomem();
	/* One of a dead run with our pid is a dead run's: swept first. */
	unlink(path);
	if (rolling_owner_file_create(&j->file, path, ROLLING_TEMPFILE_LAST, 0666, NULL, 0) < 0)
		err = rolling_error("cannot write '%s': %s", path, strerror(errno));
	free(path);
	return err;
}

int rolling_ref_journal_write(struct rolling_ref_journal *j, const char *common_dir)
{
	int err;

	if (strbuf_oom(&j->records))
		return rolling_error_nomem();
	if (!rolling_tempfile_is_registered(&j->file) &&
	    (err = journal_create(j, common_dir)) < 0)
		return err;
	if (rolling_write_all(j->file.fd, j->records.buf + j->written,
			      j->records.len - j->written) < 0)
		return rolling_error("cannot write '%s': %s", rolling_tempfile_path(&j->file),
				     strerror(errno));
	j->written = j->records.len;
	return 0;
}

void rolling_ref_journal_release(struct rolling_ref_journal *j)
{
	rolling_tempfile_delete(&j->file);
	strbuf_release(&j->records);
	j->written = 0;
}

/* --- after a dead run -------------------------------------------------- */

/* 1 when `lock` exists and is the dead run's: empty, or what it was to hold. */
static int is_own_lock(const char *lock, const char *content)
{
	char buf[512];
	ssize_t len = -1;
	int fd = open(lock, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	len = read(fd, buf, sizeof(buf));
	close(fd);
	return len == 0 || ((size_t)len == strlen(content) && !memcmp(buf, content, len));
}

static void remove_old_file(const char *lock)
{
	size_t len = strlen(lock);
	char *old;

	if (len < strlen(ROLLING_LOCK_SUFFIX) ||
	    !(old = rolling_strfmt("%.*s" ROLLING_REF_OLD_SUFFIX,
				   (int)(len - strlen(ROLLING_LOCK_SUFFIX)), lock)))
		return;
	unlink(old);
	free(old);
}

int rolling_reflog_cut(const char *log, off_t size)
{
	return size < 0 ? unlink(log) : truncate(log, size);
}

/*
 * The records of a journal in turn: *kind 'L' with `lock` and its
 * `content`, or 'T' with `log`, its `size` and `lock`.  0 at the end or
 * at a record cut short (its run died writing it).
 */
struct record {
	char kind;
	const char *lock, *content, *log, *size;
};

static int next_record(struct record *r, const char **p, const char *end)
{
	const char *field[3];
	int i, n;

	if (*p >= end || (**p != 'L' && **p != 'T'))
		return 0;
	r->kind = **p;
	n = r->kind == 'L' ? 2 : 3;
	field[0] = *p + 1;
	for (i = 0; i < n; i++) {
		const char *nul = memchr(field[i], '\0', end - field[i]);

		if (!nul)
			return 0;
		if (i + 1 < n)
			field[i + 1] = nul + 1;
		else
			*p = nul + 1;
	}
	if (r->kind == 'L') {
		r->content = field[0];
		r->lock = field[1];
	} else {
		r->size = field[0];
		r->log = field[1];
		r->lock = field[2];
	}
	return 1;
}

/* What the journal says `lock` holds, NULL when it names no such lock. */
static const char *lock_content(const struct strbuf *records, const char *lock)
{
	const char *p = records->buf, *end = records->buf + records->len;
	struct record r;

	while (next_record(&r, &p, end))
		if (r.kind == 'L' && !strcmp(r.lock, lock))
			return r.content;
	return NULL;
}

/*
 * Undo what the dead run of `records` left, but for the files of a
 * lock a living run names in `living` (which took it since): first the
 * reflog lines whose ref's lock is still the dead run's own (its rename
 * never happened), then its locks and the old files kept beside them.
 */
static void undo_records(const struct strbuf *records, const struct strbuf *living)
{
	const char *end = records->buf + records->len, *p;
	struct record r;

	for (p = records->buf; next_record(&r, &p, end);) {
		const char *content;

		if (r.kind == 'T' && !lock_content(living, r.lock) &&
		    (content = lock_content(records, r.lock)) && is_own_lock(r.lock, content))
			rolling_reflog_cut(r.log, strtoll(r.size, NULL, 10));   /* else git will say */
	}
	for (p = records->buf; next_record(&r, &p, end);) {
		if (r.kind != 'L' || lock_content(living, r.lock))
			continue;
		if (is_own_lock(r.lock, r.content))
			unlink(r.lock);
		remove_old_file(r.lock);
	}
}

/* Append what `fd` holds, up to the end of its last whole record. */
static void read_records(struct strbuf *sb, int fd)
{
	struct strbuf one = STRBUF_INIT;
	const char *p, *end;
	struct record r;

	if (strbuf_read_fd(&one, fd) >= 0) {
		for (p = one.buf, end = one.buf + one.len; next_record(&r, &p, end);)
			;
		strbuf_add(sb, one.buf, p - one.buf);
	}
	strbuf_release(&one);
}

struct dead_journal {
	char *path;
	int fd;          /* its flock, ours while we undo it */
	struct strbuf records;
};

/* Append the records of the journal at `path`, if it is still there. */
static void read_records_at(struct strbuf *sb, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		read_records(sb, fd);
		close(fd);
	}
}

/*
 * The journals in `common_dir`: the dead ones (whose flock we could
 * take, and hold) in *dead, the records of the living ones (their run
 * holds the flock: it is alive, or is this one) in `living`.  A draft
 * (owner-file.h) holds no record yet: a dead one is only removed.
 */
static int list_journals(struct dead_journal **dead, size_t *nr, struct strbuf *living,
			 const char *common_dir)
{
	DIR *dir = opendir(common_dir);
	struct dirent *entry;
	size_t alloc = 0;

	if (!dir)
		return -1;
	while ((entry = readdir(dir))) {
		struct dead_journal *d;
		char *path;
		int fd, owner;

		if (strncmp(entry->d_name, JOURNAL_PREFIX, strlen(JOURNAL_PREFIX)) ||
		    !(path = rolling_strfmt("%s%s", common_dir, entry->d_name)))
			continue;
		owner = rolling_owner_file_check(path, 0, &fd);
		if (owner == ROLLING_OWNER_LIVING) {
			read_records_at(living, path);
		} else if (owner == ROLLING_OWNER_DEAD && ALLOC_GROW(*dead, *nr + 1, alloc) < 0) {
			/* No room to undo it now: what it names stays, as a living run's does. */
			read_records(living, fd);
			owner = ROLLING_OWNER_LIVING;
		}
		if (owner != ROLLING_OWNER_DEAD) {
			if (fd >= 0)
				close(fd);
			free(path);
			continue;
		}
		d = &(*dead)[(*nr)++];
		d->path = path;
		d->fd = fd;
		d->records = (struct strbuf)STRBUF_INIT;
		read_records(&d->records, fd);
	}
	closedir(dir);
	return 0;
}

void rolling_ref_journal_sweep(const char *common_dir)
{
	struct strbuf living = STRBUF_INIT;
	struct dead_journal *dead = NULL;
	size_t nr = 0, i;

	if (!list_journals(&dead, &nr, &living, common_dir) && !strbuf_oom(&living))
		for (i = 0; i < nr; i++)
			if (!strbuf_oom(&dead[i].records)) {
				undo_records(&dead[i].records, &living);
				unlink(dead[i].path);
			}
	for (i = 0; i < nr; i++) {
		close(dead[i].fd);
		free(dead[i].path);
		strbuf_release(&dead[i].records);
	}
	free(dead);
	strbuf_release(&living);
}
