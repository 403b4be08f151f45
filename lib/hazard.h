#ifndef ROLLING_HAZARD_H
#define ROLLING_HAZARD_H

#include <git2.h>
#include "oidmap.h"

/*
 * The details behind rolling_repo_hazards(): which objects git would
 * see differently from the stored ones that libgit2 reads.  A check
 * that must not give a wrong answer reports these instead of ignoring
 * them.
 */

/* One object that git would read differently: replaced or grafted. */
struct rolling_hazard {
	git_oid oid;             /* the replaced object, or the grafted commit */
	git_oid replacement;     /* refs/replace/<oid> points here (replacements only) */
};

/*
 * The refs/replace/<oid> refs, in ref order.  Names that are not an
 * object id are skipped, as git skips them.  The caller frees *out.
 */
int rolling_hazard_replacements(struct rolling_hazard **out, size_t *nr, git_repository *repo);

/*
 * The commits that info/grafts gives other parents, in file order.
 * No file means none.  The caller frees *out.
 */
int rolling_hazard_grafts(struct rolling_hazard **out, size_t *nr, git_repository *repo);

/*
 * The boundary commits of a shallow clone (the "shallow" file): git
 * treats them as having no parents.  No file means an empty map.
 */
int rolling_hazard_shallow(struct rolling_oidmap *shallow, git_repository *repo);

#endif
