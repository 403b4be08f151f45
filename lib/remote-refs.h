#ifndef ROLLING_REMOTE_REFS_H
#define ROLLING_REMOTE_REFS_H

#include <git2.h>
#include "fetch-view.h"
#include "oidmap.h"

/*
 * What the server advertised for a fetch, as git fetch left it in the
 * view (fetch-view.h): each branch fetched, at the tip git fetched, and
 * each tag git followed (a tag of the server that points into what the
 * fetch brought, or at an object the repository has) whose name the
 * view was not made with (rolling_fetch_view_has_own()).  git talks to
 * the server (any transport, the remote's configuration, url.insteadOf);
 * we only read what it wrote.
 */
struct rolling_remote_ref {
	char *name;            /* "refs/heads/...", "refs/tags/..." */
	git_oid oid;           /* what the ref names (a tag object for annotated tags) */
	git_oid peeled;        /* the object behind the tags, else oid */
};

struct rolling_remote_refs {
	struct rolling_remote_ref *refs;
	size_t nr, alloc;
	/* A tag's peeled object -> index of a tag ref naming it. */
	struct rolling_oidmap tags_by_peeled;
};

/*
 * Read them, after rolling_fetch_objects() of `remote_refs`
 * ("refs/heads/<b>") into `view`; `repo` must read the quarantined
 * objects (the tags are peeled there; one that cannot be is kept as it
 * is).  A branch the view lacks is an error ("couldn't find remote ref").
 * Returns 0 or a negative error.
 */
int rolling_remote_refs_read(struct rolling_remote_refs *refs, git_repository *repo,
			     const struct rolling_fetch_view *view,
			     const char *const *remote_refs, size_t nr);

/* The ref of exactly that name, or NULL. */
const struct rolling_remote_ref *rolling_remote_refs_find(const struct rolling_remote_refs *refs,
							  const char *name);

/* A tag ref whose peeled object is `commit`, or NULL. */
const struct rolling_remote_ref *rolling_remote_refs_tag_of(const struct rolling_remote_refs *refs,
							    const git_oid *commit);

void rolling_remote_refs_release(struct rolling_remote_refs *refs);

#endif
