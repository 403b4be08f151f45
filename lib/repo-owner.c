#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "repo-owner.h"
#include "strbuf.h"

/* A variable of git's environment; git takes an empty one as unset, and so do we. */
static const char *env(const char *name)
{
	const char *value = getenv(name);

	return value && *value ? value : NULL;
}

/*
 * GIT_TEST_ASSUME_DIFFERENT_OWNER, a boolean for git: anything but a
 * false value (an invalid one too, which git dies of) makes every path
 * another user's.
 */
static int assume_different_owner(void)
{
	const char *value = env("GIT_TEST_ASSUME_DIFFERENT_OWNER");
	int yes = 1;

	if (!value)
		return 0;
	return git_config_parse_bool(&yes, value) < 0 || yes;
}

/*
 * The user sudo ran us for.  git takes whatever strtoul() reads whole
 * (a sign, leading blanks); only a plain decimal number that fits a
 * uid_t is taken here, and git judges the rest.
 */
static int sudo_uid(uid_t *uid)
{
	const char *value = env("SUDO_UID");
	unsigned long n;

	if (!value || value[strspn(value, "0123456789")])
		return 0;
	errno = 0;
	n = strtoul(value, NULL, 10);
	if (errno || (uid_t)n != n)
		return 0;
	*uid = (uid_t)n;
	return 1;
}

/*
 * git's is_path_owned_by_current_uid(): lstat(), so a symbolic link is
 * judged by its own owner; root owns what it owns, and what the user
 * it runs for by sudo owns.
 */
static int owned(const char *path)
{
	struct stat st;
	uid_t euid = geteuid(), sudo;

	if (lstat(path, &st))
		return 0;
	return st.st_uid == euid || (!euid && sudo_uid(&sudo) && st.st_uid == sudo);
}

/* Is `path`, resolved, the real path `gitdir`? */
static int same_path(const char *path, const char *gitdir)
{
	char *real = path ? realpath(path, NULL) : NULL;
	int same = real && !strcmp(real, gitdir);

	free(real);
	return same;
}

/*
 * Does the .git file `path` in `dir` name `gitdir`?  "gitdir: <path>",
 * relative to `dir` unless absolute, with the line's end cut as git
 * cuts it (read_gitfile_gently()).
 */
static int gitfile_names(const char *path, const char *dir, const char *gitdir)
{
	struct strbuf file = STRBUF_INIT;
	char *target = NULL;
	const char *name;
	int same = 0;

	if (strbuf_read_file(&file, path) < 0 || strncmp(file.buf, "gitdir: ", 8))
		goto out;
	while (file.len && (file.buf[file.len - 1] == '\n' || file.buf[file.len - 1] == '\r'))
		strbuf_setlen(&file, file.len - 1);
	name = file.buf + 8;
	if (!*name || strlen(name) != file.len - 8)
		goto out;
	target = *name == '/' ? strdup(name) : rolling_path_join(dir, name);
	same = same_path(target, gitdir);
out:
	free(target);
	strbuf_release(&file);
	return same;
}

/* Is the .git in `dir` the directory `gitdir`, or a .git file that names it? */
static int dotgit_names(const char *dotgit, const char *dir, const char *gitdir)
{
	struct stat st;

	if (stat(dotgit, &st))
		return 0;
	if (S_ISDIR(st.st_mode))
		return same_path(dotgit, gitdir);
	return S_ISREG(st.st_mode) && gitfile_names(dotgit, dir, gitdir);
}

/*
 * Has `dir` a .git of any kind?  git's search stops at the first, or
 * looks past it when it is no repository: dotgit_names() tells.
 */
static int has_dotgit(const char *dir)
{
	char *dotgit = rolling_path_join(dir, ".git");
	struct stat st;
	int found = dotgit && !lstat(dotgit, &st);

	free(dotgit);
	return found;
}

/*
 * Where git's search from the current directory stops in a work tree:
 * the first directory up that has a .git.  getcwd() gives the physical
 * path, as git's search starts from.  NULL when none has, or memory
 * runs out.
 */
static char *search_stop(void)
{
	char *dir = getcwd(NULL, 0), *slash;

	while (dir && !has_dotgit(dir)) {
		if (!(slash = strrchr(dir, '/')) || !slash[1]) {
			free(dir);
			return NULL;
		}
		slash[slash == dir] = '\0';    /* up one; "/a" becomes "/" */
	}
	return dir;
}

/*
 * What git checks of a work tree: its .git (file or directory), the
 * directory holding it and the git directory; the .git must name the
 * git directory libgit2 opened, or these are not the paths git checks.
 */
static int worktree_owned(const char *dir, const char *gitdir)
{
	char *dotgit = rolling_path_join(dir, ".git");
	int yes = dotgit && owned(dotgit) && owned(dir) && owned(gitdir) &&
		  dotgit_names(dotgit, dir, gitdir);

	free(dotgit);
	return yes;
}

int rolling_repo_owned(git_repository *repo)
{
	char *gitdir, *dir = NULL;
	int yes = 0;

	if (assume_different_owner())
		return 0;
	gitdir = realpath(git_repository_path(repo), NULL);
	if (gitdir && (dir = search_stop()))
		yes = worktree_owned(dir, gitdir);
	free(dir);
	free(gitdir);
	return yes;
}
