#ifndef ROLLING_INDEX_LIST_H
#define ROLLING_INDEX_LIST_H

#include <git2.h>

struct rolling_child;

/*
 * The entries of an index file as git reads it.  libgit2 cannot read
 * every index git writes: a sparse index (`git sparse-checkout set
 * --sparse-index`) carries the mandatory extension "sdir" and directory
 * entries for what lies outside the sparse checkout.  `git ls-files
 * --stage -t` lists any index, sparse directories expanded into their
 * files, each tagged with whether it is skip-worktree.
 */
struct rolling_index_entry {
	const char *path;       /* from the top of the work tree */
	git_oid id;
	int skip_worktree;      /* outside the sparse checkout: not in the work tree */
};

struct rolling_index_list {
	char *text;             /* what git printed; the paths point into it */
	struct rolling_index_entry *entries;    /* stage 0 only, in index order */
	size_t nr, alloc;
};

/*
 * Make `git` run at the top of the work tree of `repo` with `index_file`
 * as its index, whatever the current directory and the environment's
 * GIT_DIR, GIT_WORK_TREE or GIT_INDEX_FILE: its first arguments, to
 * which the caller adds the command's, so that paths in them and in
 * what git prints are from the top.  0 or a negative error.
 */
int rolling_index_child(struct rolling_child *git, git_repository *repo, const char *index_file);

/* Read `index_file`; 0 or a negative error.  Release the list in either case. */
int rolling_index_list_read(struct rolling_index_list *list, git_repository *repo,
			    const char *index_file);

/* The stage-0 entry for `path`, or NULL. */
const struct rolling_index_entry *rolling_index_list_find(const struct rolling_index_list *list,
							   const char *path);

void rolling_index_list_release(struct rolling_index_list *list);

#endif
