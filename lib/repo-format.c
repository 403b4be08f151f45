#include <stdlib.h>
#include <string.h>
#include <git2/sys/refdb_backend.h>
#include <git2/sys/repository.h>
#include "repo-format.h"
#include "error.h"
#include "git2-compat.h"
#include "refdb-reftable.h"
#include "refs.h"
#include "run-command.h"
#include "strbuf.h"
#include "path.h"

/*
 * git reads the repository format from the repository's own config file
 * only (its common directory's), never from the global or system ones,
 * nor from a file that one includes (setup.c reads it with
 * git_config_from_file(), which follows no include): so does this, the
 * last value of the file's own lines winning, as in git.  libgit2 gives
 * an included file's entries the level of the file that includes it,
 * and their depth.  NULL (no value) or the value, which the caller
 * frees; *err negative when the config cannot be read.
 */
static char *format_value(git_repository *repo, const char *name, int *err)
{
	git_config *config = NULL;
	git_config_iterator *it = NULL;
	git_config_entry *entry;
	char *value = NULL;
	int next;

	*err = 0;
	if (git_repository_config_snapshot(&config, repo) < 0 ||
	    git_config_iterator_new(&it, config) < 0) {
		git_config_free(config);
		*err = rolling_git_error(-1, "cannot read the configuration");
		return NULL;
	}
	while (!(next = git_config_next(&entry, it))) {
		if (entry->level != GIT_CONFIG_LEVEL_LOCAL || entry->include_depth ||
		    strcasecmp(entry->name, name))
			continue;
		free(value);
		if (!(value = entry->value ? strdup(entry->value) : NULL) && entry->value) {
			*err = rolling_error_nomem();
			break;
		}
	}
	if (!*err && next != GIT_ITEROVER)
		*err = rolling_git_error(next, "cannot read the configuration");
	git_config_iterator_free(it);
	git_config_free(config);
	if (*err) {
		free(value);
		return NULL;
	}
	return value;
}

int rolling_repo_is_reftable(git_repository *repo)
{
	int format = rolling_refs_format(repo);

	return format < 0 ? format : format == ROLLING_REF_FORMAT_REFTABLE;
}

static int check_objects(git_repository *repo)
{
	const char *dir = git_repository_path(repo);
	size_t len = strlen(dir);
	int err = 0;
	char *format = format_value(repo, "extensions.objectformat", &err);

	/*
	 * libgit2 main opens a SHA-256 repository; the releases before do
	 * not, and repo-open.c refuses it as git names it (no final '/'),
	 * saying why libgit2 did not.
	 */
	if (len > 1 && dir[len - 1] == '/')
		len--;
	if (format && !strcasecmp(format, "sha256"))
		err = rolling_error("'%.*s' is a SHA-256 repository (extensions.objectFormat ="
				    " sha256): git rolling reads SHA-1 repositories only",
				    (int)len, dir);
	else if (format && strcasecmp(format, "sha1"))
		err = rolling_error("'%s' stores its objects in the %s format"
				    " (extensions.objectFormat): git rolling reads SHA-1"
				    " repositories only", git_repository_commondir(repo), format);
	free(format);
	return err;
}

/*
 * git writes every ref of a reftable repository, so the git on PATH must
 * read this repository, and find the same one here: a git too old for
 * reftable (before 2.45) refuses it, and so do we, with git's words,
 * before anything is read or written.
 */
static int check_git_agrees(git_repository *repo)
{
	struct rolling_child git = ROLLING_CHILD_INIT;
	char *out, *format;
	int status, err = 0;

	rolling_strvec_pushl(&git.args, "rev-parse", "--absolute-git-dir", "--show-ref-format",
			     NULL);
	git.out = ROLLING_CHILD_CAPTURE;
	git.err = ROLLING_CHILD_ERR_CAPTURE;
	status = rolling_child_run(&git);
	out = git.captured.buf;
	if (status < 0) {
		err = status;
	} else if (status) {
		/* git's words on one line: "...found:\n\trefstorage" */
		const char *why = rolling_git_words(git.said.buf, ROLLING_GIT_WORDS_JOINED);

		err = rolling_error("'%s' keeps its refs in reftable, which only git writes, but"
				    " git cannot use it: %s", git_repository_commondir(repo),
				    *why ? why : "(it said nothing)");
	} else if (!(format = strchr(out, '\n'))) {
		err = rolling_error("git rev-parse said nothing of the repository");
	} else {
		*format++ = '\0';
		format[strcspn(format, "\n")] = '\0';
		if (!rolling_same_dir(out, git_repository_path(repo)))
			err = rolling_error("git finds the repository '%s' here, not '%s'", out,
					    git_repository_path(repo));
		else if (strcmp(format, "reftable"))
			err = rolling_error("git reads the refs of '%s' as '%s', not reftable", out,
					    format);
	}
	rolling_child_release(&git);
	return err;
}

/*
 * libgit2 main chooses a repository's ref database by extensions.refStorage
 * as it reads it, through [include]s, which git does not follow there
 * (git2-compat.h): one git reads as files gets libgit2's files backend,
 * whatever libgit2 made of it.  Releases up to 1.9 know files only.
 */
static int files_refdb(git_repository *repo)
{
	git_refdb_backend *backend = NULL;
	git_refdb *refdb = NULL;
	int err;

	if (!ROLLING_LIBGIT2_READS_REFTABLE)
		return 0;
	if ((err = git_refdb_backend_fs(&backend, repo)) < 0)
		return rolling_git_error(err, "cannot set up the ref database");
	if ((err = git_refdb_new(&refdb, repo)) < 0 ||
	    (err = git_refdb_set_backend(refdb, backend)) < 0) {
		backend->free(backend);
		git_refdb_free(refdb);
		return rolling_git_error(err, "cannot set up the ref database");
	}
	err = git_repository_set_refdb(repo, refdb);
	git_refdb_free(refdb);
	return err < 0 ? rolling_git_error(err, "cannot set up the ref database") : 0;
}

static int unknown_ref_format(const char *commondir, const char *format)
{
	return rolling_error("'%s' stores its refs in the '%s' format"
			     " (extensions.refStorage), which git rolling cannot read;"
			     " git 2.46 or later converts it with"
			     " 'git refs migrate --ref-format=files'", commondir, format);
}

/*
 * The common directory of the git directory `gitdir`, with a final '/'
 * as libgit2 spells it: the one its commondir file names (relative to
 * it), else itself.  NULL when out of memory or when it does not exist.
 */
static char *common_dir_of(const char *gitdir)
{
	char *file = rolling_path_join(gitdir, "commondir"), *dir = NULL, *real;
	struct strbuf named = STRBUF_INIT;

	if (file && !strbuf_read_file(&named, file)) {
		while (named.len && (named.buf[named.len - 1] == '\n' ||
				     named.buf[named.len - 1] == '\r'))
			strbuf_setlen(&named, named.len - 1);
		dir = named.buf[0] == '/' ? strdup(named.buf) : rolling_path_join(gitdir, named.buf);
	} else if (file) {
		dir = strdup(gitdir);
	}
	real = dir && !strbuf_oom(&named) ? realpath(dir, NULL) : NULL;
	free(file);
	free(dir);
	strbuf_release(&named);
	dir = real ? rolling_path_join(real, "") : NULL;
	free(real);
	return dir;
}

int rolling_repo_format_check_unopened(const char *gitdir)
{
	char *common = common_dir_of(gitdir), *path = common ? rolling_path_join(common, "config") : NULL;
	git_config *config = NULL;
	git_config_entry *entry = NULL;
	int err = 0;

	if (path && !git_config_open_ondisk(&config, path) &&
	    !git_config_get_entry(&entry, config, "extensions.refstorage") && entry->value &&
	    strcasecmp(entry->value, "files") && strcasecmp(entry->value, "reftable"))
		err = unknown_ref_format(common, entry->value);
	git_config_entry_free(entry);
	git_config_free(config);
	free(path);
	free(common);
	return err;
}

int rolling_repo_format_check(git_repository *repo)
{
	int err;
	char *format;

	if ((err = check_objects(repo)) < 0)
		return err;
	/* Read once, here: the ref layer (refs.h) keeps it until the repository is freed. */
	format = format_value(repo, "extensions.refstorage", &err);
	if (err < 0 || !format || !strcasecmp(format, "files")) {
		free(format);
		if (err < 0 || (err = files_refdb(repo)) < 0)
			return err;
		return rolling_refs_init(repo, ROLLING_REF_FORMAT_FILES);
	}
	if (!strcasecmp(format, "reftable")) {
		if (!(err = check_git_agrees(repo)) &&
		    !(err = rolling_refdb_reftable_install(repo)))
			err = rolling_refs_init(repo, ROLLING_REF_FORMAT_REFTABLE);
	}
	else
		err = unknown_ref_format(git_repository_commondir(repo), format);
	free(format);
	return err;
}
