#ifndef ROLLING_COMMIT_HEADER_H
#define ROLLING_COMMIT_HEADER_H

#include <stddef.h>
#include <git2.h>

/* The parents of every commit a walk read, in one array. */
struct rolling_parent_pool {
	git_oid *oids;
	size_t nr, alloc;
};

/*
 * What a history walk needs of a commit, read from its raw object: the
 * parents, appended to `pool` (*parents_nr of them, from the pool's
 * `nr` before the call), and the committer date (0 when the line has
 * none).  git_commit_lookup() parses and keeps the rest, at twice the
 * cost over a million commits.  The header is "tree", the "parent"
 * lines, "author", then "committer <ident> <time> <tz>", where the
 * reading stops.  Returns 0 or a negative error.
 */
int rolling_commit_header_read(struct rolling_parent_pool *pool, unsigned *parents_nr,
			       git_time_t *time, const char *data, size_t size);

#endif
