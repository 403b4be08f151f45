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

int rolling_setup(void)
{
	int err;

	if ((err = git_libgit2_init()) < 0)
		return rolling_git_error(err, "cannot initialise libgit2");
	if ((err = git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, PACK_WINDOW_SIZE)) < 0 ||
	    (err = git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, PACK_MAPPED_LIMIT)) < 0)
		return rolling_git_error(err, "cannot configure libgit2");
	return 0;
}

void rolling_teardown(void)
{
	git_libgit2_shutdown();
}
