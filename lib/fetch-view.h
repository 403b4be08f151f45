#ifndef ROLLING_FETCH_VIEW_H
#define ROLLING_FETCH_VIEW_H

#include <git2.h>
#include "quarantine.h"
#include "tags.h"

/*
 * What the quarantined git fetch sees of the repository: a git
 * directory of its own inside the quarantine, with no ref, whose
 * configuration includes the repository's, whose objects are the
 * quarantine with the repository's object store as alternate (as
 * always), and whose "alternate refs" are the repository's refs peeled
 * to the objects they finally name, as packed-refs records them.
 *
 * git fetch marks every local ref complete before it negotiates, and its
 * connectivity check walks from the new tips down to everything that
 * `--all` and the alternate refs name.  In the repository itself both
 * read every annotated tag object to reach its commit (on the p7000
 * bench, 5,435 tags, twice per fetch); through the view both start from
 * the commits, and read no tag object that packed-refs peels.
 *
 * The connectivity check stays whole.  The objects it starts from are
 * those the refs finally name: each is complete because its ref is
 * (git gc and the object transfer keep every ref's history whole), and
 * the tag objects left out only end a walk earlier where a walk reaches
 * them, which it does not from a fetched commit or tree (nothing but a
 * tag names a tag).  Fewer starting points can only make git walk and
 * check more.  The peeled values come from the same packed-refs file,
 * written in the same write, as the refs they belong to: trusting them
 * is trusting the refs, as git's own --all does; a ref that packed-refs
 * does not peel (a loose one) is given as it is, and git reads its tag.
 *
 * Of the release tags only the newest of each series is given: the
 * older ones are its ancestors on the series' branch, so the walks stop
 * at them all the same, and a kernel's 5,400 tags become its ~100
 * series (git parses every have once in the negotiation and once in the
 * connectivity check: without a commit-graph, ~20 us each from the
 * pack).  Every other ref is given, mainline tags included: a new
 * series' first release stops at the mainline tag it forked from.  Where
 * an older release is not an ancestor of the newest (a rewritten stable
 * branch), git only walks further; it never checks less.
 */
struct rolling_fetch_view {
	char *git_dir;       /* <quarantine>/view */
	char *haves;         /* <quarantine>/view-haves: one object id a line */
	char *work_tree;     /* the repository's work tree, NULL when bare */
};

/*
 * Make the view inside the quarantine `q` of `repo`; `tags` (read with
 * `patterns`) are the repository's releases, or NULL to give every ref.  Returns 1 when it
 * was made, 0 when the repository is one the view would not be
 * equivalent to (git fetch then runs in the repository itself, as
 * before): it borrows objects (alternates), is shallow or a partial
 * clone, has replace refs or grafts, its configuration uses extensions
 * (worktreeConfig, partialClone, ...) or includes that depend on the git
 * directory or the branch (includeIf gitdir:/onbranch:), or the object
 * directory is not <common-dir>/objects.  Returns a negative error when
 * the view could not be written (a full disk, say).
 */
int rolling_fetch_view_create(struct rolling_fetch_view *view, git_repository *repo,
			      const struct rolling_quarantine *q, const struct rolling_tags *tags,
			      struct rolling_patterns *patterns);

/*
 * The `git -c` setting that gives git the view's alternate refs: a
 * shell command (git appends the alternate's path, which it ignores).
 * The caller frees it; NULL when out of memory.
 */
char *rolling_fetch_view_alternate_refs_command(const struct rolling_fetch_view *view);

void rolling_fetch_view_free(struct rolling_fetch_view *view);

#endif
