#ifndef ROLLING_OIDMAP_H
#define ROLLING_OIDMAP_H

#include <stddef.h>
#include <git2.h>

/*
 * An open-addressing hash map from object id to an index.  Object ids
 * are already uniformly distributed, so their first bytes are the hash.
 * Used to answer "is this commit a release?" in O(1) instead of asking
 * the commit graph.
 */
struct rolling_oidmap {
	struct rolling_oidmap_entry {
		git_oid oid;
		size_t value;
		int used;
	} *entries;
	size_t size;    /* a power of two */
	size_t count;
};

/* Insert or replace; returns 0 or a negative error (out of memory). */
int rolling_oidmap_put(struct rolling_oidmap *map, const git_oid *oid, size_t value);

/* Returns 1 and sets *value when present, else 0. */
int rolling_oidmap_get(const struct rolling_oidmap *map, const git_oid *oid, size_t *value);

void rolling_oidmap_release(struct rolling_oidmap *map);

#endif
