#ifndef ROLLING_FETCH_VIEW_H
#define ROLLING_FETCH_VIEW_H

#include <sys/types.h>
#include <git2.h>
#include "quarantine.h"
#include "run-command.h"
#include "tags.h"

/*
 * Where the quarantined git fetch runs: a git directory of its own
 * inside the quarantine (its "view" of the repository), in which git may
 * write refs that no one else ever sees, and which dies with the
 * quarantine.  The fetch is one connection to the server: git fetch with
 * a refspec per branch whose destination is a ref of the view
 * (rolling_fetch_view_ref()), and git's own tag following, which brings
 * in that same connection the server's tags that point into what it
 * sends (include-tag) or at objects the repository has, each as
 * refs/tags/<name> of the view.  The view's refs are then what the
 * server advertised for those refspecs: the branches' tips and the tags
 * the new steps can need, read in place of a listing (remote-refs.h).
 *
 * The view is the repository as git fetch sees it, but for its refs:
 *
 * - objects: the quarantine (GIT_OBJECT_DIRECTORY), with the object
 *   store as its alternate (which brings the store's own alternates);
 *
 * - configuration: the repository's, as git reads it there (includes and
 *   includeIf gitdir:, onbranch:, hasconfig: evaluated in the
 *   repository, config.worktree with extensions.worktreeConfig), written
 *   out entry by entry, with the repository's format version and
 *   extensions except the ref storage (the view is a files-format git
 *   directory whatever the repository's refs are stored in) and
 *   worktreeConfig.  remote.*.tagOpt is left out: a clone made with
 *   --no-tags has remote.origin.tagOpt = --no-tags, which would stop the
 *   tag following (git has no value that resets it).  When the system
 *   or global configuration has an includeIf on gitdir: (which the
 *   view's directory would not match as the repository's does) or a
 *   tagOpt, those are written out too and git reads no other
 *   (GIT_CONFIG_NOSYSTEM, GIT_CONFIG_GLOBAL=/dev/null);
 *
 * - HEAD, shallow, info/grafts: copies of the repository's;
 *
 * - refs: packed-refs names every ref of the repository (but for its
 *   symbolic refs and any under refs/rolling-fetch), so that git
 *   follows no tag the repository has by name (a kernel clone would
 *   otherwise get its 5,000 tags written into the view at each fetch,
 *   a second or more), and replace refs work as in the repository;
 *   but for a release tag that the tags the view is made with do not
 *   have (another fetch wrote it since they were read, or they skipped
 *   it): git follows that one, so that the fetch's plan finds every
 *   release either among those tags or among the server's.  The
 *   values are the objects git needs as haves: each ref's own object,
 *   except that of the release tags only the newest sound one of each
 *   series (its tag objects read to its commit) stands for them all,
 *   given as that commit.
 *   packed-refs is written here directly: git would write each ref
 *   given to it as a loose file.
 *
 * git fetch marks every local ref complete before it negotiates, and its
 * connectivity check walks from the new tips down to everything --all
 * names.  In the repository both read every annotated tag object to
 * reach its commit (on the p7000 bench, 5,435 tags, twice per fetch);
 * through the view both start from the ~100 series' commits and read
 * only the other tags (435 there).
 *
 * The connectivity check stays whole.  The objects it starts from are
 * those the refs finally name: each is complete because its ref is
 * (git gc and the object transfer keep every ref's history whole), and
 * the tag objects left out only end a walk earlier where a walk reaches
 * them, which it does not from a fetched commit or tree (nothing but a
 * tag names a tag).  Fewer starting points can only make git walk and
 * check more.  Nothing is peeled from packed-refs' "^" lines (or a
 * reftable record's peeled value): those are a cache a hostile or
 * damaged repository can lie in, and a commit named as a have is taken
 * as complete: a lie naming a planted commit without its tree would let
 * a fetch move the verified ref onto history whose trees are missing.
 * The release commits come from their tag objects
 * (rolling_release_check()); every other tag is given unpeeled and git
 * reads it, as it does in the repository.
 * The older releases of a series are ancestors of the newest on the
 * series' branch, so the walks stop at them all the same, and a
 * kernel's 5,400 tags become its ~100 series (git parses every distinct
 * have once in the negotiation and once in the connectivity check:
 * without a commit-graph, ~20 us each from the pack).  Where an older
 * release is not an ancestor of the newest (a rewritten stable branch),
 * git only walks further; it never checks less.
 *
 * Nothing git writes there reaches the repository: the view has no
 * commondir (its refs, FETCH_HEAD, logs and config are its own),
 * GIT_COMMON_DIR and GIT_NAMESPACE are removed from git's environment,
 * and the fetch runs no hook (core.hooksPath of the view).
 */
struct rolling_fetch_view {
	char *git_dir;       /* <quarantine>/view */
	/*
	 * The repository's work tree for GIT_WORK_TREE, so that git goes
	 * where it would have gone in the repository (its top), from which
	 * a remote's relative path is resolved.  NULL when bare, or when the
	 * current directory is inside the git directory, where git stays.
	 */
	char *work_tree;
	/*
	 * The repository borrows objects (objects/info/alternates,
	 * GIT_ALTERNATE_OBJECT_DIRECTORIES): git lists the alternates' refs
	 * as it does in the repository, else none (the view's refs have them).
	 */
	int own_alternates;
	int isolated_config;  /* the system and global configuration written in */
	/* The refs of the repository written into the view, sorted. */
	char **names;
	size_t names_nr;
};

/*
 * The repository's configuration as git reads it (git config --list
 * --includes), listed while the caller does other work: git on this
 * repository costs a process start, which the tags read meanwhile hide.
 * A listing that rolling_fetch_view_create() will not read is ended with
 * rolling_fetch_view_config_abandon() (which does nothing to one read).
 */
struct rolling_fetch_view_config {
	struct rolling_child git;
	int started;
};
int rolling_fetch_view_config_start(struct rolling_fetch_view_config *config,
				    git_repository *repo);
void rolling_fetch_view_config_abandon(struct rolling_fetch_view_config *config);

/*
 * Make the view inside the quarantine `q` of `repo`, for a fetch from
 * `remote`; `tags` (read with `patterns`) are the repository's releases,
 * `config` the listing started for it, which this finishes.  Returns 0,
 * or a negative error when the view could not be written (a full disk,
 * say), the refs or the configuration read.
 */
int rolling_fetch_view_create(struct rolling_fetch_view *view, git_repository *repo,
			      const struct rolling_quarantine *q, const char *remote,
			      const struct rolling_tags *tags, struct rolling_patterns *patterns,
			      struct rolling_fetch_view_config *config);

/* The environment of git run in the view, added to `env`, the quarantine's included. */
int rolling_fetch_view_env(struct rolling_strvec *env, const struct rolling_fetch_view *view,
			   const struct rolling_quarantine *q);

/*
 * 1 when `refname` is one of the repository's refs that the view was
 * made with (the fetch follows no tag of that name), else 0.
 */
int rolling_fetch_view_has_own(const struct rolling_fetch_view *view, const char *refname);

/*
 * The ref of the view that the server's `remote_ref` ("refs/heads/<b>")
 * is fetched into, "refs/rolling-fetch/heads/<b>"; the caller frees it,
 * NULL when out of memory.
 */
#define ROLLING_FETCH_VIEW_REFS "refs/rolling-fetch/"
char *rolling_fetch_view_ref(const char *remote_ref);

void rolling_fetch_view_release(struct rolling_fetch_view *view);

#endif
