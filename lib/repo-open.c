#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <git2/sys/repository.h>
#include "repo-open.h"
#include "config-worktree.h"
#include "error.h"
#include "git2-compat.h"
#include "hazard.h"
#include "repo-format.h"
#include "refs.h"
#include "repo-owner.h"
#include "run-command.h"
#include "strbuf.h"
#include "path.h"

/* A variable of git's environment; git takes an empty one as unset, and so do we. */
static const char *env(const char *name)
{
	const char *value = getenv(name);

	return value && *value ? value : NULL;
}

/* --- finding the git directory ------------------------------------------ */

/*
 * libgit2 checks no owner (setup.h): git checks the owner of a
 * repository it finds by searching (search_refused()), not of one it is
 * told to use.
 */
static int open_gitdir(git_repository **repo, const char *gitdir, unsigned flags)
{
	return git_repository_open_ext(repo, gitdir, flags | GIT_REPOSITORY_OPEN_NO_SEARCH |
				       GIT_REPOSITORY_OPEN_NO_DOTGIT, NULL);
}

static int across_filesystems(void)
{
	const char *across = env("GIT_DISCOVERY_ACROSS_FILESYSTEM");
	int yes = 0;

	if (across && git_config_parse_bool(&yes, across) < 0)
		yes = 0;
	return yes;
}

static unsigned search_flags(void)
{
	return across_filesystems() ? GIT_REPOSITORY_OPEN_CROSS_FS : 0;
}

/* From the current directory up, as git searches. */
static int search(git_repository **repo)
{
	return git_repository_open_ext(repo, ".", search_flags(), getenv("GIT_CEILING_DIRECTORIES"));
}

/* --- what git sees when libgit2 sees nothing ----------------------------- */

/* The last line of `text` that is not empty, cut at its end; "" when none. */
static char *last_line(char *text)
{
	size_t len = strlen(text);
	char *line;

	while (len && text[len - 1] == '\n')
		text[--len] = '\0';
	line = strrchr(text, '\n');
	return line ? line + 1 : text;
}

/*
 * git refused the repository: its own words, from "fatal: " on (the
 * dubious ownership refusal with its hint, or "not a git repository"),
 * become the error.  0 when git said nothing of the kind.
 */
static int git_refusal(char *said)
{
	const char *fatal;

	if (!rolling_git_said_fatal(said))
		return 0;
	fatal = rolling_git_words(said, ROLLING_GIT_WORDS_ALL);
	return rolling_error_code(strncmp(fatal, "not a git repository", 20) ? ROLLING_ERROR :
				  ROLLING_ENOTFOUND, "%s", fatal);
}

static int sha256_error(const char *gitdir)
{
	int major = 0, minor = 0, rev = 0;

	git_libgit2_version(&major, &minor, &rev);
	return rolling_error("'%s' is a SHA-256 repository (extensions.objectFormat = sha256):"
			     " git rolling reads SHA-1 repositories only; libgit2 %d.%d.%d, like"
			     " every libgit2 release in its default build, cannot read SHA-256"
			     " ones", gitdir, major, minor, rev);
}

/*
 * git accepts the repository libgit2 could not open: the SHA-256 error
 * for a SHA-256 one, else 0 (libgit2's reason stands).
 */
static int git_accepts(char *said)
{
	char *format = last_line(said), *dir = ".";

	if (format > said) {
		format[-1] = '\0';
		dir = last_line(said);
	}
	return strcmp(format, "sha256") ? 0 : sha256_error(dir);
}

/*
 * libgit2 could not open the repository: ask git, so that a repository
 * git refuses gets git's refusal, whatever libgit2 made of it.  `why`
 * is libgit2's reason, the error when git cannot tell.
 */
static int diagnose(int libgit2_err, char *why)
{
	const char *args[] = { "rev-parse", "--absolute-git-dir", "--show-object-format", NULL };
	struct rolling_child git = ROLLING_CHILD_INIT;
	int status, err = 0;

	rolling_strvec_pushv(&git.args, args);
	git.out = ROLLING_CHILD_CAPTURE;
	git.err = ROLLING_CHILD_ERR_TO_STDOUT;
	status = rolling_child_run(&git);
	if (status > 0)
		err = git_refusal(git.captured.buf);
	else if (!status)
		err = git_accepts(git.captured.buf);
	rolling_child_release(&git);
	if (err) {
		free(why);
		return err;
	}
	rolling_error_restore(libgit2_err, why);
	return libgit2_err == GIT_ENOTFOUND ?
	       rolling_error_code(ROLLING_ENOTFOUND, "not a git repository (or any of the parent"
				  " directories): .git") : libgit2_err;
}

/*
 * libgit2 could not open the repository named by GIT_DIR (`gitdir`), or
 * else the one the search finds: refused for a ref format git rolling
 * does not know, as an open repository would be (repo-format.h), or 0.
 */
static int ref_format_refused(const char *gitdir)
{
	git_buf found = GIT_BUF_INIT;
	int err;

	if (gitdir)
		return rolling_repo_format_check_unopened(gitdir);
	if (git_repository_discover(&found, ".", across_filesystems(),
				    getenv("GIT_CEILING_DIRECTORIES")) < 0)
		return 0;
	err = rolling_repo_format_check_unopened(found.ptr);
	git_buf_dispose(&found);
	return err;
}

/*
 * libgit2 1.7 and later refuse to open the repository over a graft or
 * shallow file, without naming it: git says where the repository's
 * directories are, and the check that the other releases make once the
 * repository is open (rolling_hazard_check_graft_files()) finds the file
 * and the line.
 */
static int graft_file_refused(int code)
{
	const char *args[] = { "rev-parse", "--path-format=absolute", "--git-dir",
			       "--git-common-dir", NULL };
	struct rolling_child git = ROLLING_CHILD_INIT;
	char *common, *libgit2_says;
	int found = 0;

	rolling_git_error(code, "cannot open the repository");
	libgit2_says = rolling_error_take();
	rolling_strvec_pushv(&git.args, args);
	git.out = ROLLING_CHILD_CAPTURE;
	git.err = ROLLING_CHILD_ERR_DISCARD;
	if (!rolling_child_run(&git) && (common = strchr(git.captured.buf, '\n'))) {
		*common++ = '\0';
		common[strcspn(common, "\n")] = '\0';
		found = rolling_hazard_check_graft_files(git.captured.buf, common) < 0;
	}
	rolling_child_release(&git);
	if (!found)
		return rolling_error_restore(code, libgit2_says);
	free(libgit2_says);
	return code;
}

/*
 * Is the current directory in the repository's git directory?  There
 * git's search stops at the git directory itself, as in a bare
 * repository, where libgit2 opens a work tree's repository from inside
 * its .git with that work tree.
 */
static int cwd_in_git_dir(git_repository *repo)
{
	char *cwd = realpath(".", NULL), *gitdir = realpath(git_repository_path(repo), NULL);
	size_t len = gitdir ? strlen(gitdir) : 0;
	int inside = cwd && gitdir && !strncmp(cwd, gitdir, len) && (!cwd[len] || cwd[len] == '/');

	free(cwd);
	free(gitdir);
	return inside;
}

/* Did the search find the git directory itself, as git's search finds a bare repository? */
static int found_as_bare(git_repository *repo)
{
	return git_repository_is_bare(repo) || cwd_in_git_dir(repo);
}

/*
 * Ask git whether it uses the repository the search found, whose git
 * directory is `gitdir`: its refusal is the error.  So is git finding
 * another repository (libgit2 and git tell a git directory apart in
 * slightly different ways): git would have vouched for that one, not
 * for the one libgit2 opened.
 */
static int git_refuses(const char *gitdir)
{
	static const char *const args[] = { "rev-parse", "--absolute-git-dir", NULL };
	struct rolling_child git = ROLLING_CHILD_INIT;
	char *said, *found;
	int status, err = 0;

	rolling_strvec_pushv(&git.args, args);
	git.out = ROLLING_CHILD_CAPTURE;
	git.err = ROLLING_CHILD_ERR_TO_STDOUT;
	status = rolling_child_run(&git);
	said = git.captured.buf;
	if (status < 0)
		err = status;
	else if (status > 0 && !(err = git_refusal(said)))
		err = rolling_error("cannot tell whether git uses the repository at '%s': git"
				    " rev-parse exited with status %d", gitdir, status);
	else if (!status && !rolling_same_dir(found = last_line(said), gitdir))
		err = rolling_error("git finds the repository at '%s' where libgit2 finds '%s';"
				    " name one with GIT_DIR or --git-dir", found, gitdir);
	rolling_child_release(&git);
	return err;
}

/*
 * git uses a repository it finds by searching only when the current
 * user owns it or safe.directory vouches for it (setup.c,
 * ensure_valid_ownership()), and, when it finds a bare one, when
 * safe.bareRepository allows it: with "explicit", Git 3.0's default
 * (git 2.38), it uses a bare repository that GIT_DIR or --git-dir
 * names, never one it finds, and the .git directory of a work tree
 * counts as one for 2.39, not from 2.45 (is_implicit_bare_repo()).
 * libgit2 knows nothing of the second and has its own idea of the
 * first (SUDO_UID, safe.directory from `git -c`), and safe.directory is
 * git's to read: a repository of one's own in a work tree, the common
 * case, is used without running git (repo-owner.h); else git is asked,
 * once for both rules, and its refusal is the error.
 */
static int search_refused(git_repository *repo)
{
	if (!found_as_bare(repo) && rolling_repo_owned(repo))
		return 0;
	return git_refuses(git_repository_path(repo));
}

static int find(git_repository **repo)
{
	const char *gitdir = env("GIT_DIR");
	char *why;
	int err, format_err;

	/*
	 * libgit2 takes the common directory from the git directory's
	 * commondir file and cannot be told another one: refuse rather than
	 * read refs and objects git would not.
	 */
	if (env("GIT_COMMON_DIR"))
		return rolling_error("GIT_COMMON_DIR is not supported: git rolling uses the common"
				     " directory the git directory names; unset it");
	err = gitdir ? open_gitdir(repo, gitdir, 0) : search(repo);
	if (!err && !gitdir && (err = search_refused(*repo)) < 0) {
		git_repository_free(*repo);
		*repo = NULL;
		return err;
	}
	if (!err)
		return 0;
	*repo = NULL;
	if (rolling_git_error_is_grafts())
		return graft_file_refused(err);
	rolling_git_error(err, "cannot open the repository");
	why = rolling_error_take();
	if ((format_err = ref_format_refused(gitdir)) < 0) {
		free(why);
		return format_err;
	}
	return diagnose(err, why);
}

/* --- the work tree --------------------------------------------------------- */

/* A value of the repository's own configuration (its file or config.worktree). */
static int repo_value(char **out, git_config *config, const char *name, int worktree_only)
{
	git_config_entry *entry;
	int found;

	*out = NULL;
	if (git_config_get_entry(&entry, config, name) < 0)
		return 0;
	found = entry->level == ROLLING_CONFIG_LEVEL_WORKTREE ||
		(!worktree_only && entry->level == GIT_CONFIG_LEVEL_LOCAL);
	if (found && !(*out = strdup(entry->value ? entry->value : "")))
		found = rolling_error_nomem();
	git_config_entry_free(entry);
	return found;
}

/*
 * A repository that config.worktree makes bare: opened again as one, as
 * git_repository_set_bare() would write core.bare into the repository's
 * config.
 */
static int reopen_bare(git_repository **repo)
{
	char *path;
	int err;

	if (!(path = strdup(git_repository_path(*repo))))
		return rolling_error_nomem();
	git_repository_free(*repo);
	*repo = NULL;
	err = open_gitdir(repo, path, GIT_REPOSITORY_OPEN_BARE);
	free(path);
	if (err < 0)
		return rolling_git_error(err, "cannot open the repository");
	return rolling_config_worktree_add(*repo) < 0 ? -1 : 0;
}

/* Is `dir` the work tree libgit2 has, "<real path>/" (as its set_workdir compares)? */
static int is_workdir(git_repository *repo, const char *dir)
{
	const char *current = git_repository_workdir(repo);
	char *real = current ? realpath(dir, NULL) : NULL;
	size_t len;
	int same;

	if (!real)
		return 0;
	len = strlen(real);
	same = !strncmp(current, real, len) &&
	       (!strcmp(current + len, "/") || (len && real[len - 1] == '/' && !current[len]));
	free(real);
	return same;
}

static int set_workdir(git_repository *repo, const char *dir, const char *what)
{
	int err;

	/*
	 * libgit2 (1.5 to 1.9) leaks its copy of the path when it is the
	 * work tree the repository has already: that case is told here.
	 */
	if (is_workdir(repo, dir))
		return 0;
	err = git_repository_set_workdir(repo, dir, 0);
	return err < 0 ? rolling_git_error(err, "cannot use %s '%s' as the work tree", what, dir) : 0;
}

/*
 * The work tree git finds, where libgit2's is not it: which one depends
 * on how the repository was found (the directory holding the .git
 * directory or file, GIT_DIR and the current directory, core.worktree),
 * and git is asked rather than told apart here.  Inside the git
 * directory, without core.worktree, git has none (setup.c,
 * setup_bare_git_dir()): the repository is opened without one, as a
 * bare one though git does not call it bare (rolling_repo_is_bare()):
 * the commands that read work, as in git, and the branch HEAD names,
 * checked out in a work tree out of reach, stays where it is
 * (branch-move.c).  A git that fails to answer has no work tree to give
 * either.
 */
static int work_tree_git_finds(git_repository **repo)
{
	static const char *const args[] = { "rev-parse", "--show-toplevel", NULL };
	struct rolling_child git = ROLLING_CHILD_INIT;
	char *top = NULL;
	size_t len;
	int status, err;

	rolling_strvec_pushv(&git.args, args);
	git.out = ROLLING_CHILD_CAPTURE;
	git.err = ROLLING_CHILD_ERR_DISCARD;
	status = rolling_child_run(&git);
	if (status < 0) {
		err = status;
	} else if (status > 0) {
		err = git_repository_is_bare(*repo) ? 0 : reopen_bare(repo);
	} else {
		/* One line, unquoted: a directory's name may end in a newline of its own. */
		top = git.captured.buf;
		len = git.captured.len;
		if (len && top[len - 1] == '\n')
			top[len - 1] = '\0';
		err = set_workdir(*repo, top, "the work tree git finds");
	}
	rolling_child_release(&git);
	return err;
}

/*
 * libgit2 before 1.8 decided bareness without config.worktree, where
 * git reads core.bare when extensions.worktreeConfig is set, over the
 * repository's config: either way, true there over false or nothing in
 * the config, or false there over true.  1 for the second: the work
 * tree is then git's to say (choose_workdir()).
 */
static int worktree_config_bare(git_repository **repo)
{
	git_config *config;
	char *bare = NULL;
	int yes = 0, err;

	if (env("GIT_WORK_TREE"))
		return 0;
	if ((err = git_repository_config_snapshot(&config, *repo)) < 0)
		return rolling_git_error(err, "cannot read the configuration");
	err = repo_value(&bare, config, "core.bare", 1);
	git_config_free(config);
	if (err > 0 && git_config_parse_bool(&yes, bare) < 0)
		err = 0;
	free(bare);
	if (err <= 0 || yes == git_repository_is_bare(*repo))
		return err < 0 ? err : 0;
	return yes ? reopen_bare(repo) : 1;
}

/* core.worktree of config.worktree, relative to the git directory, as git reads it. */
static int worktree_config_workdir(git_repository *repo)
{
	struct strbuf dir = STRBUF_INIT;
	git_config *config;
	char *value = NULL;
	int err;

	if ((err = git_repository_config_snapshot(&config, repo)) < 0)
		return rolling_git_error(err, "cannot read the configuration");
	err = repo_value(&value, config, "core.worktree", 1);
	git_config_free(config);
	if (err <= 0)
		return err;
	if (*value != '/')
		strbuf_addstr(&dir, git_repository_path(repo));
	strbuf_addstr(&dir, value);
	err = strbuf_oom(&dir) ? rolling_error_nomem() : set_workdir(repo, dir.buf, "core.worktree");
	strbuf_release(&dir);
	free(value);
	return err;
}

/*
 * core.worktree; else, when GIT_DIR named the repository, the current
 * directory; else the one libgit2 found.  libgit2 knows core.worktree
 * of the repository's file; `own_worktree_config` says that libgit2 did
 * not read config.worktree.
 */
static int configured_workdir(git_repository *repo, int own_worktree_config)
{
	git_config *config;
	char *value = NULL, *cwd;
	int err;

	if (own_worktree_config && (err = worktree_config_workdir(repo)) != 0)
		return err < 0 ? err : 0;
	if (!env("GIT_DIR"))
		return 0;
	if ((err = git_repository_config_snapshot(&config, repo)) < 0)
		return rolling_git_error(err, "cannot read the configuration");
	err = repo_value(&value, config, "core.worktree", 0);
	git_config_free(config);
	free(value);
	if (err)
		return err < 0 ? err : 0;
	if (!(cwd = getcwd(NULL, 0)))
		return rolling_error("cannot find the current directory: %s", strerror(errno));
	err = set_workdir(repo, cwd, "the current directory");
	free(cwd);
	return err;
}

/*
 * The work tree, as git's setup chooses it: GIT_WORK_TREE; else none
 * for a bare repository; else configured_workdir().  git is asked where
 * libgit2 has it wrong: a repository that config.worktree made not bare
 * (`unbared`: libgit2 opened it as bare), and one the search found from
 * inside its git directory, where libgit2 takes the directory above it
 * (or the one its gitdir file names, in a linked work tree's) for the
 * work tree and git takes none but core.worktree.
 */
static int choose_workdir(git_repository **repo, int own_worktree_config, int unbared)
{
	const char *dir = env("GIT_WORK_TREE");

	if (dir)
		return set_workdir(*repo, dir, "GIT_WORK_TREE");
	if (unbared || (!git_repository_is_bare(*repo) && !env("GIT_DIR") && cwd_in_git_dir(*repo)))
		return work_tree_git_finds(repo);
	if (git_repository_is_bare(*repo))
		return 0;
	return configured_workdir(*repo, own_worktree_config);
}

/* --- objects ----------------------------------------------------------------- */

/*
 * The next directory of a GIT_ALTERNATE_OBJECT_DIRECTORIES list: entries
 * are separated by ':', and one that starts with '"' is quoted as git
 * quotes C strings.  Returns the position after it, or NULL at the end.
 */
static const char *next_alternate(struct strbuf *dir, const char *p)
{
	strbuf_reset(dir);
	while (*p == ':')
		p++;
	if (!*p)
		return NULL;
	if (*p != '"') {
		const char *end = strchrnul(p, ':');

		strbuf_add(dir, p, (size_t)(end - p));
		return end;
	}
	for (p++; *p && *p != '"'; p++) {
		if (*p != '\\' || !p[1]) {
			strbuf_addch(dir, *p);
		} else if (p[1] >= '0' && p[1] <= '3' && p[2] >= '0' && p[2] <= '7' &&
			   p[3] >= '0' && p[3] <= '7') {
			strbuf_addch(dir, (p[1] - '0') << 6 | (p[2] - '0') << 3 | (p[3] - '0'));
			p += 3;
		} else {
			p++;
			strbuf_addch(dir, *p == 'n' ? '\n' : *p == 't' ? '\t' : *p);
		}
	}
	return *p ? p + 1 : p;
}

static int add_alternates(git_odb *odb, const char *list)
{
	struct strbuf dir = STRBUF_INIT;
	const char *p = list;
	int err = 0;

	while (!err && (p = next_alternate(&dir, p))) {
		if (strbuf_oom(&dir))
			err = rolling_error_nomem();
		else if (dir.len && (err = git_odb_add_disk_alternate(odb, dir.buf)) < 0)
			err = rolling_git_error(err, "cannot read the alternate object directory"
						" '%s'", dir.buf);
	}
	strbuf_release(&dir);
	return err;
}

static int object_directories(git_repository *repo)
{
	const char *objects = env("GIT_OBJECT_DIRECTORY");
	const char *alternates = env("GIT_ALTERNATE_OBJECT_DIRECTORIES");
	git_odb *odb;
	int err;

	if (!objects && !alternates)
		return 0;
	if (objects) {
		if ((err = git_odb_open(&odb, objects)) < 0)
			return rolling_git_error(err, "cannot read GIT_OBJECT_DIRECTORY '%s'", objects);
		git_repository_set_odb(repo, odb);
	} else if ((err = git_repository_odb(&odb, repo)) < 0) {
		return rolling_git_error(err, "cannot open the object database");
	}
	err = alternates ? add_alternates(odb, alternates) : 0;
	git_odb_free(odb);
	return err;
}

/* --- together ---------------------------------------------------------------- */

int rolling_repo_open_env(git_repository **repo)
{
	int added, unbared = 0, err;

	if ((err = find(repo)) < 0)
		return err;
	if ((added = err = rolling_config_worktree_add(*repo)) < 0 ||
	    (added && (unbared = err = worktree_config_bare(repo)) < 0) ||
	    (err = choose_workdir(repo, added, unbared)) < 0 ||
	    (err = object_directories(*repo)) < 0 ||
	    (err = rolling_repo_format_check(*repo)) < 0) {
		rolling_refs_release(*repo);
		git_repository_free(*repo);
		*repo = NULL;
		return err;
	}
	return 0;
}

int rolling_repo_is_bare(git_repository *repo)
{
	git_config *config;
	char *value = NULL;
	int bare = 1, found;

	if (!git_repository_is_bare(repo))
		return 0;
	/* Unreadable, it is not bare: a branch that may be checked out stays. */
	if (git_repository_config_snapshot(&config, repo) < 0)
		return 0;
	found = repo_value(&value, config, "core.bare", 0);
	git_config_free(config);
	if (found > 0 && git_config_parse_bool(&bare, value) < 0)
		bare = 0;
	free(value);
	return found < 0 ? 0 : bare;
}

char *rolling_repo_index_file(git_repository *repo)
{
	const char *name = env("GIT_INDEX_FILE"), *top;
	char *path, *cwd = NULL;

	if (!name)
		path = rolling_path_join(git_repository_path(repo), "index");
	else if (*name == '/')
		return strdup(name);
	else if ((top = git_repository_workdir(repo)))
		path = rolling_path_join(top, name);
	else if ((cwd = getcwd(NULL, 0)))
		path = rolling_path_join(cwd, name);
	else
		return NULL;
	free(cwd);
	return path;
}

char *rolling_repo_objects_dir(git_repository *repo)
{
	const char *objects = env("GIT_OBJECT_DIRECTORY");
	char *path;
	size_t len;

	if (objects)
		path = strdup(objects);
	else
		path = rolling_path_join(git_repository_commondir(repo), "objects");
	if (!path)
		return NULL;
	for (len = strlen(path); len > 1 && path[len - 1] == '/'; len--)
		path[len - 1] = '\0';
	return path;
}
