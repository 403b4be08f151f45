#ifndef ROLLING_MERGE_H
#define ROLLING_MERGE_H

#include <git2.h>
#include "ident.h"
#include "tags.h"

/*
 * The message of a rolling merge, byte for byte what `git commit -s -m
 * "Merge <tag>"` writes.  The caller frees *message.
 */
int rolling_merge_message(char **message, const char *tag_name,
			  const struct rolling_ident *ident, int signoff);

/*
 * Write the rolling merge of `release` on top of `tip`: parents [tip,
 * release commit], the release commit's tree, `ident` as author and
 * committer with the release commit's author and committer dates.  The
 * same inputs give the same commit id on every machine.  Writes only
 * the commit object (nothing at all with `dry_run`, which just computes
 * the id); no ref moves.
 */
int rolling_merge_create(git_oid *merge, git_repository *repo, const git_oid *tip,
			 const struct rolling_release *release,
			 const struct rolling_ident *ident, int signoff, int dry_run);

/*
 * Is `commit` a rolling merge?  Two parents, the subject "Merge <tag>"
 * naming a release tag that points to the second parent, and the second
 * parent's tree.  Returns 1 with *release set, 0 when it is not, or a
 * negative error when the repository cannot be read.
 */
int rolling_merge_identify(const struct rolling_release **release, git_commit *commit,
			   const struct rolling_tags *tags, struct rolling_patterns *patterns);

/*
 * The release a rolling branch stands at: its tip is either a release
 * commit (a freshly created branch) or a rolling merge.  Anything else
 * is an error, because advancing it would hide foreign commits.
 */
int rolling_tip_release(const struct rolling_release **release, git_repository *repo,
			const git_oid *tip, const struct rolling_tags *tags,
			struct rolling_patterns *patterns);

#endif
