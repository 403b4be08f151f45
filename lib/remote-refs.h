#ifndef ROLLING_REMOTE_REFS_H
#define ROLLING_REMOTE_REFS_H

#include <sys/types.h>
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

/* A git ls-remote under way. */
struct rolling_remote_listing {
	pid_t pid;
	int fd;
	int started;
};

/*
 * List the branches and tags of `remote` (only refs/heads/ and
 * refs/tags/ are asked of the server, as ref prefixes): start `git
 * ls-remote`, if git finds `remote` configured (else it would read a
 * URL or path of that name: the listing exits 1), which may be before
 * this process has opened the repository; then, after other work, read
 * its answer with rolling_remote_refs_finish().  Both return 0 or a
 * negative error (git could not reach the remote, say).
 * rolling_remote_refs_abandon() ends and reaps a listing that will not
 * be finished (the caller stops).
 */
int rolling_remote_refs_start(struct rolling_remote_listing *listing, const char *remote);
int rolling_remote_refs_finish(struct rolling_remote_refs *refs,
			       struct rolling_remote_listing *listing, const char *remote);
void rolling_remote_refs_abandon(struct rolling_remote_listing *listing);

/* The ref of exactly that name, or NULL. */
const struct rolling_remote_ref *rolling_remote_refs_find(const struct rolling_remote_refs *refs,
							  const char *name);

/* A tag ref whose peeled object is `commit`, or NULL. */
const struct rolling_remote_ref *rolling_remote_refs_tag_of(const struct rolling_remote_refs *refs,
							    const git_oid *commit);

void rolling_remote_refs_free(struct rolling_remote_refs *refs);

#endif
