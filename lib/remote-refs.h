#ifndef ROLLING_REMOTE_REFS_H
#define ROLLING_REMOTE_REFS_H

#include <git2.h>
#include "oidmap.h"

/*
 * What a remote advertises, as `git ls-remote` lists it: git talks to
 * the server (any transport, the remote's configuration, url.insteadOf),
 * we only read its answer.
 */
struct rolling_remote_ref {
	char *name;            /* "refs/heads/...", "refs/tags/..." */
	git_oid oid;           /* what the ref names (a tag object for annotated tags) */
	git_oid peeled;        /* the object behind the tags ("^{}"), else oid */
};

struct rolling_remote_refs {
	struct rolling_remote_ref *refs;
	size_t nr, alloc;
	/* A tag's peeled commit -> index of a tag ref naming it. */
	struct rolling_oidmap tags_by_peeled;
};

/*
 * List the refs of `remote` that match `patterns` (ls-remote's tail
 * match of a name or a glob, such as "refs/heads/main").  Returns 0, or a negative
 * error when git cannot reach the remote.
 */
int rolling_remote_refs_list(struct rolling_remote_refs *refs, const char *remote,
			     const char *const *patterns, size_t patterns_nr);

/* The ref of exactly that name, or NULL. */
const struct rolling_remote_ref *rolling_remote_refs_find(const struct rolling_remote_refs *refs,
							  const char *name);

/* A tag ref whose peeled object is `commit`, or NULL. */
const struct rolling_remote_ref *rolling_remote_refs_tag_of(const struct rolling_remote_refs *refs,
							    const git_oid *commit);

void rolling_remote_refs_free(struct rolling_remote_refs *refs);

#endif
