#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "owner-file.h"
#include "fd-io.h"
#include "strbuf.h"

#define DRAFT_MARK ".draft-"
#define DRAFT_TRIES 8

/* A draft of `path` of our own: a random name, so that no other run's is ever touched. */
static int create_draft(struct rolling_tempfile *draft, const char *path, int flags,
			mode_t mode)
{
	int i;

	for (i = 0; i < DRAFT_TRIES; i++) {
		unsigned int nonce;
		char *name;
		int ok, saved;

		if (getrandom(&nonce, sizeof(nonce), 0) != sizeof(nonce))
			nonce = (unsigned int)getpid() * 2654435761u + (unsigned int)i;
		if (!(name = rolling_strfmt("%s" DRAFT_MARK "%08x", path, nonce))) {
			errno = ENOMEM;
			return -1;
		}
		ok = !rolling_tempfile_create(draft, name, flags, mode);
		saved = errno;
		free(name);
		if (ok)
			return 0;
		if (saved != EEXIST) {
			errno = saved;
			return -1;
		}
	}
	errno = EEXIST;
	return -1;
}

int rolling_owner_file_create(struct rolling_tempfile *t, const char *path, int flags,
			      mode_t mode, const void *content, size_t len)
{
	struct rolling_tempfile draft = ROLLING_TEMPFILE_INIT;
	int saved;

	if (create_draft(&draft, path, flags, mode) < 0)
		return -1;
	if (flock(draft.fd, LOCK_EX) < 0 ||
	    (len && (rolling_write_all(draft.fd, content, len) < 0 || fsync(draft.fd) < 0)) ||
	    rolling_tempfile_move(&draft, path) < 0) {
		saved = errno;
		rolling_tempfile_delete(&draft);
		errno = saved;
		return -1;
	}
	*t = draft;
	return 0;
}

/* 0 with the flock taken, 1 while another holds it, -1 on another error. */
static int take_flock(int fd, long wait_ms)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	long waited = 0;

	for (;;) {
		if (!flock(fd, LOCK_EX | LOCK_NB))
			return 0;
		if (errno != EWOULDBLOCK && errno != EINTR)
			return -1;
		if (waited >= wait_ms)
			return 1;
		nanosleep(&tick, NULL);
		waited += 10;
	}
}

/* 1 when `name` (a path, or its last component) is a draft's. */
static int is_draft(const char *name)
{
	const char *base = strrchr(name, '/');

	return strstr(base ? base + 1 : name, DRAFT_MARK) != NULL;
}

int rolling_owner_file_check(const char *path, long wait_ms, int *fd)
{
	struct stat by_fd, by_name;
	int held, verdict = ROLLING_OWNER_DEAD;

	if ((*fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return errno == ENOENT ? ROLLING_OWNER_GONE : -1;
	if ((held = take_flock(*fd, wait_ms)) < 0) {
		int saved = errno;

		close(*fd);
		*fd = -1;
		errno = saved;
		return -1;
	}
	if (held)
		verdict = ROLLING_OWNER_LIVING;
	/* Its owner may have finished and removed it meanwhile: not the file we hold. */
	else if (fstat(*fd, &by_fd) < 0 || stat(path, &by_name) < 0 ||
		 by_fd.st_ino != by_name.st_ino || by_fd.st_dev != by_name.st_dev)
		verdict = ROLLING_OWNER_GONE;
	else if (is_draft(path) &&
		 by_fd.st_mtime + ROLLING_OWNER_DRAFT_GRACE >= time(NULL))
		verdict = ROLLING_OWNER_LIVING;
	if (verdict != ROLLING_OWNER_DEAD) {
		close(*fd);
		*fd = -1;
	}
	return verdict;
}
