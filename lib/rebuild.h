#ifndef ROLLING_REBUILD_H
#define ROLLING_REBUILD_H

#include <git2.h>
#include "tags.h"
#include "signature.h"

/*
 * Recompute a rolling merge from what it records: its first parent,
 * the release, its committer as the identity, a Signed-off-by trailer
 * iff its message has one, the release commit's dates and the release
 * tag (embedded when it is signed); that is rolling_merge_bytes() with
 * exactly the inputs the recipe uses (`embedded` as there: the tag of a
 * release known only from the merge, or NULL).  Sets
 * *rebuilt to the id the merge should have.  Returns 0 when the ids
 * match bit for bit; 1 when they differ, with *difference (freed by the
 * caller) naming the first field that does; or a negative error.
 */
int rolling_merge_rebuild(git_oid *rebuilt, char **difference, git_repository *repo,
			  git_commit *merge, const struct rolling_release *release,
			  const struct rolling_tag_bytes *embedded);

#endif
