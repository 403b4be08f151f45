#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include "ref-journal.h"
#include "error.h"
#include "fd-io.h"

#define JOURNAL_PREFIX "rolling-ref-tx."
#define LOCK_SUFFIX ".lock"
/* ref-transaction.c keeps a replaced ref file under this name */
#define OLD_SUFFIX ".rolling-old.lock"

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

int rolling_ref_journal_write(struct rolling_ref_journal *j, const char *common_dir)
{
	if (strbuf_oom(&j->records))
		return rolling_error_nomem();
	if (j->fd < 0) {
		if (asprintf(&j->path, "%s" JOURNAL_PREFIX "%ld", common_dir, (long)getpid()) < 0) {
			j->path = NULL;
			return rolling_error_nomem();
		}
		/* One of a dead run with our pid is a dead run's: swept first. */
		if ((j->fd = open(j->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)) < 0 ||
		    flock(j->fd, LOCK_EX) < 0)
			return rolling_error("cannot write '%s': %s", j->path, strerror(errno));
	}
	if (rolling_write_all(j->fd, j->records.buf + j->written, j->records.len - j->written) < 0)
		return rolling_error("cannot write '%s': %s", j->path, strerror(errno));
	j->written = j->records.len;
	return 0;
}

void rolling_ref_journal_release(struct rolling_ref_journal *j)
{
	if (j->path && j->fd >= 0)
		unlink(j->path);
	if (j->fd >= 0)
		close(j->fd);
	free(j->path);
	strbuf_release(&j->records);
	j->path = NULL;
	j->fd = -1;
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

	if (len < strlen(LOCK_SUFFIX) ||
	    asprintf(&old, "%.*s" OLD_SUFFIX, (int)(len - strlen(LOCK_SUFFIX)), lock) < 0)
		return;
	unlink(old);
	free(old);
}

/* Back to `size` bytes; -1: the reflog was not there. */
static void cut_log(const char *log, long long size)
{
	if (size < 0)
		unlink(log);
	else if (truncate(log, size) < 0)
		return;         /* gone, or not ours to cut: git will say */
}

/* One pass over the records: the reflogs (pass 0), then the locks (pass 1). */
static void undo_records(const char *buf, size_t len, int pass)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *a = p + 1, *b, *c = NULL;

		if (!(b = memchr(a, '\0', end - a)) || ++b >= end || !memchr(b, '\0', end - b))
			return;         /* a record cut short: the run died writing it */
		if (*p == 'T') {
			c = b + strlen(b) + 1;
			if (c >= end || !memchr(c, '\0', end - c))
				return;
			/* the lock still there: its rename, which the lines record, never happened */
			if (!pass && !access(c, F_OK))
				cut_log(b, strtoll(a, NULL, 10));
			p = c + strlen(c) + 1;
		} else if (*p == 'L') {
			if (pass && is_own_lock(b, a))
				unlink(b);
			if (pass)
				remove_old_file(b);
			p = b + strlen(b) + 1;
		} else {
			return;
		}
	}
}

static void sweep_one(const char *path)
{
	struct strbuf records = STRBUF_INIT;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	/* Held: its run is alive (or it is ours, from a run with our pid: not yet written). */
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		close(fd);
		return;
	}
	if (strbuf_read_fd(&records, fd) >= 0 && !strbuf_oom(&records)) {
		undo_records(records.buf, records.len, 0);
		undo_records(records.buf, records.len, 1);
		unlink(path);
	}
	strbuf_release(&records);
	close(fd);
}

void rolling_ref_journal_sweep(const char *common_dir)
{
	DIR *dir = opendir(common_dir);
	struct dirent *entry;

	if (!dir)
		return;
	while ((entry = readdir(dir))) {
		char *path;

		if (strncmp(entry->d_name, JOURNAL_PREFIX, strlen(JOURNAL_PREFIX)) ||
		    asprintf(&path, "%s%s", common_dir, entry->d_name) < 0)
			continue;
		sweep_one(path);
		free(path);
	}
	closedir(dir);
}
