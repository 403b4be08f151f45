#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "quarantine.h"
#include "repo-open.h"
#include "error.h"
#include "owner-file.h"
#include "strbuf.h"

#define PREFIX "rolling-incoming-"
#define OWNER "owner"
/*
 * A quarantine without its owner file is one whose creator is between
 * mkdtemp() and open(), or died there: only the latter is old.
 */
#define UNOWNED_GRACE_SECONDS 60
#define MAX_OPEN_FDS 16

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

static int remove_tree(const char *path)
{
	return nftw(path, remove_entry, MAX_OPEN_FDS, FTW_DEPTH | FTW_PHYS);
}

/* 1 when the quarantine at `path` has no living owner: *fd holds its flock then. */
static int is_abandoned(const char *path, int *fd)
{
	char *owner;
	struct stat st;
	int whose;

	*fd = -1;
	if (!(owner = rolling_path_join(path, OWNER)))
		return 0;
	whose = rolling_owner_file_check(owner, 0, fd);
	free(owner);
	if (whose == ROLLING_OWNER_GONE)
		return !stat(path, &st) && st.st_mtime + UNOWNED_GRACE_SECONDS < time(NULL);
	return whose == ROLLING_OWNER_DEAD;
}

static int clean_abandoned(const char *objects)
{
	DIR *dir = opendir(objects);
	struct dirent *entry;

	if (!dir)
		return rolling_error("cannot read %s: %s", objects, strerror(errno));
	while ((entry = readdir(dir))) {
		char *path;
		int fd;

		if (strncmp(entry->d_name, PREFIX, strlen(PREFIX)) ||
		    !(path = rolling_path_join(objects, entry->d_name)))
			continue;
		if (is_abandoned(path, &fd)) {
			if (remove_tree(path) < 0)
				rolling_warning("cannot remove the abandoned quarantine %s: %s",
						path, strerror(errno));
		}
		if (fd >= 0)
			close(fd);
		free(path);
	}
	closedir(dir);
	return 0;
}

/* Where git writes objects: GIT_OBJECT_DIRECTORY counts, as for git fetch. */
static int objects_dir(char **objects, git_repository *repo)
{
	*objects = rolling_repo_objects_dir(repo);
	return *objects ? 0 : rolling_error_nomem();
}

/*
 * The owner file (owner-file.h) appears already locked.  It is not a
 * registered temporary file: left by a killed run, unlocked, it tells
 * the next run at once that the quarantine is abandoned, where a
 * quarantine without one is only after a while.
 */
static int take_ownership(struct rolling_quarantine *q)
{
	struct rolling_tempfile owner_file;
	char *owner;
	int err = 0;

	if (!(owner = rolling_path_join(q->path, OWNER)))
		return rolling_error_nomem();
	if (rolling_owner_file_create(&owner_file, owner, 0, 0444, NULL, 0) < 0) {
		err = rolling_error("cannot lock the quarantine %s: %s", q->path,
				    strerror(errno));
	} else {
		rolling_tempfile_forget(&owner_file);
		q->lock_fd = owner_file.fd;
	}
	free(owner);
	return err;
}

/*
 * libgit2 reads the packs of an object directory only if pack/ exists
 * when the directory is added: make it before the fetch needs it.
 */
static int make_pack_dir(const struct rolling_quarantine *q)
{
	char *pack;
	int err = 0;

	if (!(pack = rolling_path_join(q->path, "pack")))
		return rolling_error_nomem();
	if (mkdir(pack, 0777) < 0)
		err = rolling_error("cannot create %s: %s", pack, strerror(errno));
	free(pack);
	return err;
}

int rolling_quarantine_create(struct rolling_quarantine *q, git_repository *repo)
{
	int err;

	*q = (struct rolling_quarantine)ROLLING_QUARANTINE_INIT;
	if ((err = objects_dir(&q->objects, repo)) < 0 ||
	    (err = clean_abandoned(q->objects)) < 0)
		goto fail;
	if (!(q->path = rolling_path_join(q->objects, PREFIX "XXXXXX"))) {
		err = rolling_error_nomem();
		goto fail;
	}
	if (rolling_tempfile_mkdtemp(&q->dir, q->path) < 0) {
		err = rolling_error("cannot create a quarantine in %s: %s", q->objects,
				    strerror(errno));
		free(q->path);
		q->path = NULL;
		goto fail;
	}
	if ((err = take_ownership(q)) < 0 || (err = make_pack_dir(q)) < 0)
		goto fail;
	return 0;
fail:
	rolling_quarantine_destroy(q);
	return err;
}

int rolling_quarantine_add_to(const struct rolling_quarantine *q, git_repository *repo)
{
	git_odb *odb;
	int err;

	if ((err = git_repository_odb(&odb, repo)) < 0)
		return rolling_git_error(err, "cannot open the object database");
	err = git_odb_add_disk_alternate(odb, q->path);
	git_odb_free(odb);
	return err < 0 ? rolling_git_error(err, "cannot read the quarantine") : 0;
}

#define ALTERNATES "GIT_ALTERNATE_OBJECT_DIRECTORIES"

/* `dir`, then the alternates the caller already had, if any, in *value. */
static int alternates_with(char **value, const char *dir)
{
	const char *had = getenv(ALTERNATES);

	*value = rolling_strfmt("%s%s%s", dir, had && *had ? ":" : "", had ? had : "");
	return *value ? 0 : rolling_error_nomem();
}

int rolling_quarantine_writer_env(struct rolling_strvec *env, const struct rolling_quarantine *q)
{
	char *path = realpath(q->path, NULL), *objects = realpath(q->objects, NULL);
	char *alternates = NULL;
	int err;

	if (!path || !objects)
		err = rolling_error("cannot read the quarantine %s: %s", q->path, strerror(errno));
	else if (!(err = alternates_with(&alternates, objects)) &&
		 !(err = rolling_env_push(env, "GIT_OBJECT_DIRECTORY", path)))
		err = rolling_env_push(env, ALTERNATES, alternates);
	/*
	 * Not GIT_QUARANTINE_PATH: from git 2.51 on, git fetch prepares a
	 * ref transaction even when it updates no ref, and git refuses every
	 * transaction under that variable.  The fetch writes refs in a git
	 * directory of its own (fetch-view.h), never the repository's.  One
	 * inherited from a hook that runs us is someone else's quarantine.
	 */
	if (!err)
		err = rolling_env_push(env, "GIT_QUARANTINE_PATH", NULL);
	free(alternates);
	free(objects);
	free(path);
	return err;
}

/*
 * Put one file into the store under the same name, as git's
 * finalize_object_file() does: an object that is already there stays
 * (same name, same content), so a hard link that finds it is success.
 */
static int move_file(const char *from, const char *to)
{
	if (!link(from, to) || errno == EEXIST) {
		unlink(from);
		return 0;
	}
	if (!rename(from, to))
		return 0;
	return rolling_error("cannot move %s to %s: %s", from, to, strerror(errno));
}

/* Move <from_dir>/<name> to <to_dir>/<name>. */
static int move_entry(const char *from_dir, const char *to_dir, const char *name)
{
	struct strbuf from = STRBUF_INIT, to = STRBUF_INIT;
	int err;

	strbuf_addf(&from, "%s/%s", from_dir, name);
	strbuf_addf(&to, "%s/%s", to_dir, name);
	err = strbuf_oom(&from) || strbuf_oom(&to) ? rolling_error_nomem() :
	      move_file(from.buf, to.buf);
	strbuf_release(&from);
	strbuf_release(&to);
	return err;
}

static int is_hex_dir(const char *name)
{
	return strlen(name) == 2 && strspn(name, "0123456789abcdef") == 2;
}

static int migrate_loose(const struct rolling_quarantine *q, const char *fanout)
{
	char *from_dir = NULL, *to_dir = NULL;
	struct dirent *entry;
	DIR *dir = NULL;
	int err = 0;

	if (!(from_dir = rolling_path_join(q->path, fanout)) ||
	    !(to_dir = rolling_path_join(q->objects, fanout))) {
		free(from_dir);
		return rolling_error_nomem();
	}
	if (mkdir(to_dir, 0777) < 0 && errno != EEXIST)
		err = rolling_error("cannot create %s: %s", to_dir, strerror(errno));
	if (!err && !(dir = opendir(from_dir)))
		err = rolling_error("cannot read %s: %s", from_dir, strerror(errno));
	while (!err && (entry = readdir(dir)))
		if (entry->d_name[0] != '.')
			err = move_entry(from_dir, to_dir, entry->d_name);
	if (dir)
		closedir(dir);
	free(from_dir);
	free(to_dir);
	return err;
}

/*
 * The order git's tmp-objdir migrates packs in, the .idx last.  A fetch
 * from the promisor remote of a partial clone marks its pack with a
 * .promisor file, which says that the blobs its trees name may be
 * missing: without it git gc and git repack would take them for lost.
 * It goes before the .idx, so that no reader sees the pack unmarked.
 */
static int pack_rank(const char *name)
{
	const char *dot = strrchr(name, '.');

	if (!dot || strncmp(name, "pack-", 5))
		return -1;
	if (!strcmp(dot, ".pack"))
		return 0;
	if (!strcmp(dot, ".rev") || !strcmp(dot, ".promisor"))
		return 1;
	if (!strcmp(dot, ".idx"))
		return 2;
	return -1;      /* .keep and temporary files stay behind */
}

static int migrate_packs(const struct rolling_quarantine *q)
{
	char *from_dir, *to_dir;
	int rank, err = 0;

	if (!(from_dir = rolling_path_join(q->path, "pack")))
		return rolling_error_nomem();
	if (!(to_dir = rolling_path_join(q->objects, "pack"))) {
		free(from_dir);
		return rolling_error_nomem();
	}
	for (rank = 0; rank <= 2 && !err; rank++) {
		DIR *dir = opendir(from_dir);
		struct dirent *entry;

		if (!dir)
			break;
		while (!err && (entry = readdir(dir)))
			if (pack_rank(entry->d_name) == rank)
				err = move_entry(from_dir, to_dir, entry->d_name);
		closedir(dir);
	}
	free(from_dir);
	free(to_dir);
	return err;
}

int rolling_quarantine_migrate(struct rolling_quarantine *q)
{
	struct dirent *entry;
	DIR *dir = opendir(q->path);
	int err = 0;

	if (!dir)
		return rolling_error("cannot read the quarantine %s: %s", q->path, strerror(errno));
	while (!err && (entry = readdir(dir)))
		if (is_hex_dir(entry->d_name))
			err = migrate_loose(q, entry->d_name);
	closedir(dir);
	return err ? err : migrate_packs(q);
}

void rolling_quarantine_destroy(struct rolling_quarantine *q)
{
	if (q->path && remove_tree(q->path) < 0)
		rolling_warning("cannot remove the quarantine %s: %s", q->path, strerror(errno));
	rolling_tempfile_delete(&q->dir);
	if (q->lock_fd >= 0)
		close(q->lock_fd);
	free(q->path);
	free(q->objects);
	*q = (struct rolling_quarantine)ROLLING_QUARANTINE_INIT;
}
