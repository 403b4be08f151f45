#include <git2.h>
#include "setup.h"
#include "error.h"

/*
 * The commands read a few objects per rolling step or tag, scattered
 * over packs that hold the whole history.  libgit2 maps packs in windows
 * of up to 1 GiB and keeps up to 8 GiB mapped; small windows under a
 * small limit keep the memory a command touches in proportion to what it
 * reads, not to the size of the packs, at the cost of a few more mmap()s.
 */
#define PACK_WINDOW_SIZE ((size_t)1 << 20)
#define PACK_MAPPED_LIMIT ((size_t)16 << 20)

/*
 * The repository extensions git knows that libgit2 refuses to open a
 * repository of format 1 with (libgit2 1.5 and 1.7 know only "noop" and
 * "objectformat"; 1.8 added "worktreeconfig" and "preciousobjects"),
 * though nothing git-rolling does depends on them:
 *  - worktreeconfig: `git sparse-checkout` and `git worktree` users
 *    set it; config.worktree is read where libgit2 does not (see
 *    config-worktree.h);
 *  - partialclone: the promisor remote of a partial clone, which older
 *    git recorded here; git-rolling reads commits and trees only, and
 *    the git it runs to update a work tree fetches missing blobs;
 *  - preciousobjects: objects must not be deleted, and git-rolling
 *    deletes none (a fetch quarantine holds only its own);
 *  - refstorage: refs kept in another format than libgit2's files
 *    (reftable); rolling_repo_format_check() (repo-format.h) reads the
 *    format after every open, gives a reftable repository a ref
 *    database of git-rolling's own that reads the tables
 *    (refdb-reftable.h), and refuses any other format, so libgit2's
 *    own never reads or writes a ref of such a repository.
 * objectformat stays libgit2's to judge: a SHA-256 repository must not
 * be read as SHA-1.  libgit2 main knows refstorage itself and reads
 * reftable with a ref database of its own, which git-rolling replaces all
 * the same (git2-compat.h); it refuses to open a repository of another
 * ref format.
 */
static const char *const git_extensions[] = { "worktreeconfig", "partialclone", "preciousobjects",
						    "refstorage" };

int rolling_setup(void)
{
	int err;

	if ((err = git_libgit2_init()) < 0)
		return rolling_git_error(err, "cannot initialise libgit2");
	/*
	 * libgit2's check of a repository's owner is not git's: it checks a
	 * repository named by GIT_DIR, which git never does, reads
	 * safe.directory from the global file only (not `git -c`), and
	 * reads SUDO_UID otherwise.  git-rolling makes git's check itself,
	 * asking git where safe.directory decides (repo-open.h,
	 * repo-owner.h), so libgit2's is off, once, for the whole process:
	 * no open relies on it, and no call turns it off and on again.
	 */
	if ((err = git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, 0)) < 0 ||
	    (err = git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, PACK_WINDOW_SIZE)) < 0 ||
	    (err = git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, PACK_MAPPED_LIMIT)) < 0 ||
	    (err = git_libgit2_opts(GIT_OPT_SET_EXTENSIONS, git_extensions,
				    sizeof(git_extensions) / sizeof(git_extensions[0]))) < 0)
		return rolling_git_error(err, "cannot configure libgit2");
	return 0;
}

void rolling_teardown(void)
{
	git_libgit2_shutdown();
}
