#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lockfile.h"
#include "error.h"
#include "strbuf.h"

/* How often a held lock is tried again while it is waited for. */
#define RETRY_MS 10

void rolling_lock_held_line(struct strbuf *lines, const char *refname, const char *lock)
{
	if (lines->len)
		strbuf_addch(lines, '\n');
	if (refname)
		strbuf_addf(lines, "cannot lock ref '%s': ", refname);
	strbuf_addf(lines, "Unable to create '%s': %s.", lock, strerror(EEXIST));
}

int rolling_lock_held_error(const struct strbuf *lines, const char *tail)
{
	if (strbuf_oom(lines))
		return rolling_error_nomem();
	return rolling_error_code(ROLLING_ELOCKED,
		"%s\n\n"
		"Another git process seems to be running in this repository, e.g.\n"
		"an editor opened by 'git commit'. Please make sure all processes\n"
		"are terminated then try again. If it still fails, a git process\n"
		"may have crashed in this repository earlier:\n"
		"remove the file manually to continue.%s%s",
		lines->buf, tail ? "\n" : "", tail ? tail : "");
}

int rolling_lock_held_error_one(const char *refname, const char *lock, const char *tail)
{
	struct strbuf line = STRBUF_INIT;
	int code;

	rolling_lock_held_line(&line, refname, lock);
	code = rolling_lock_held_error(&line, tail);
	strbuf_release(&line);
	return code;
}

static int lock_error(const char *lock, int err)
{
	int code;

	if (err == EEXIST)
		code = rolling_lock_held_error_one(NULL, lock, NULL);
	else
		code = rolling_error("Unable to create '%s': %s", lock, strerror(err));
	errno = err;
	return code;
}

int rolling_lock_acquire(struct rolling_lock *lk, const char *path, long timeout_ms)
{
	struct timespec tick = { 0, RETRY_MS * 1000 * 1000 };
	long waited = 0;
	char *lock;
	int err, saved;

	if (!(lock = rolling_strfmt("%s" ROLLING_LOCK_SUFFIX, path))) {
		lk->file = (struct rolling_tempfile)ROLLING_TEMPFILE_INIT;
		return rolling_error_nomem();
	}
	while (rolling_tempfile_create(&lk->file, lock, 0, 0666) < 0) {
		if (errno != EEXIST || waited >= timeout_ms)
			break;
		nanosleep(&tick, NULL);
		waited += RETRY_MS;
	}
	if (rolling_lock_is_held(lk))
		err = 0;
	else
		err = lock_error(lock, errno);
	saved = errno;
	free(lock);
	errno = saved;
	return err;
}

const char *rolling_lock_path(const struct rolling_lock *lk)
{
	return rolling_tempfile_path(&lk->file);
}

int rolling_lock_fd(const struct rolling_lock *lk)
{
	return lk->file.fd;
}

FILE *rolling_lock_fdopen(struct rolling_lock *lk, const char *mode)
{
	return rolling_tempfile_fdopen(&lk->file, mode);
}

int rolling_lock_is_held(const struct rolling_lock *lk)
{
	return rolling_tempfile_is_registered(&lk->file);
}

int rolling_lock_close(struct rolling_lock *lk)
{
	return rolling_tempfile_close(&lk->file);
}

int rolling_lock_commit(struct rolling_lock *lk)
{
	const char *lock = rolling_lock_path(lk);
	char *path;
	int err;

	if (!lock) {
		errno = ENOENT;
		return -1;
	}
	if (!(path = strndup(lock, strlen(lock) - strlen(ROLLING_LOCK_SUFFIX)))) {
		errno = ENOMEM;
		return -1;
	}
	if ((err = rolling_lock_close(lk)) >= 0)
		err = rolling_tempfile_rename(&lk->file, path);
	free(path);
	return err;
}

void rolling_lock_rollback(struct rolling_lock *lk)
{
	rolling_tempfile_delete(&lk->file);
}
