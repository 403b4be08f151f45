#ifndef ROLLING_VERIFY_H
#define ROLLING_VERIFY_H

#include <git2.h>
#include "pattern.h"
#include "tags.h"

/*
 * Prove a rolling branch's provenance: every commit reachable from its
 * tip is a verified rolling merge or reachable from a release tag.
 *
 * The proof walks the first-parent chain from the tip, once, and looks
 * release commits up in the hash map of peeled release tags; it never
 * walks the history below the releases, so its cost grows with the
 * number of rolling steps, not with the size of the repository.
 */

/* What a failure is about; rolling_verify_check_name() gives its stable name. */
enum rolling_verify_check {
	ROLLING_CHECK_PARENTS,    /* "parents": a step has exactly two parents */
	ROLLING_CHECK_SUBJECT,    /* "subject": "Merge <tag>" naming a release tag */
	ROLLING_CHECK_TAG,        /* "tag": the tag exists and points to the second parent */
	ROLLING_CHECK_TREE,       /* "tree": the merge's tree is the release's tree */
	ROLLING_CHECK_INJECTED,   /* "injected": a plain commit on the first-parent chain */
	ROLLING_CHECK_BASE,       /* "base": the chain ends at a release commit */
	ROLLING_CHECK_ORDER,      /* "order": versions never decrease */
	ROLLING_CHECK_SINCE,      /* "since": the tip descends from --since */
	ROLLING_CHECK_REBUILD,    /* "rebuild": the merge is bit for bit the recipe's */
	ROLLING_CHECK_SIGNATURE,  /* "signature": the release tag is signed and verifies */
	ROLLING_CHECK_REPLACE,    /* "replace": refs/replace/ changes what git sees */
	ROLLING_CHECK_GRAFT,      /* "graft": info/grafts changes what git sees */
	ROLLING_CHECK_SHALLOW,    /* "shallow": a shallow clone cuts the chain */
	ROLLING_CHECK_MISSING,    /* "missing": an object the proof needs is not there */
	ROLLING_CHECK_MERGETAG,   /* "mergetag": at most one, and the release's own tag */
	ROLLING_CHECK_HEADER,     /* "header": no header the recipe does not write */
};

const char *rolling_verify_check_name(enum rolling_verify_check check);

struct rolling_verify_failure {
	enum rolling_verify_check check;
	git_oid commit;        /* the offending commit (for "replace": the replaced object) */
	char *expected;
	char *found;
};

/* A rolling merge the proof accepted. */
struct rolling_verify_step {
	git_oid merge;
	const struct rolling_release *release;
	/*
	 * The tag object that vouches for the release: the one embedded in
	 * the merge's mergetag header, else the one the release's ref names
	 * (the commit itself for a lightweight tag).
	 */
	git_oid tag;
};

/* Where the chain moves on to a later series. */
struct rolling_verify_switch {
	git_oid merge;
	const struct rolling_release *from, *to;
};

struct rolling_verify_options {
	const git_oid *since;   /* check only the steps after this commit; NULL: all */
	int rebuild;            /* recompute every merge and compare the ids */
	/*
	 * Verify the signatures of the tags that vouch for the releases,
	 * and accept as a release a merge's second parent that no tag ref
	 * names when the tag embedded in the merge is a tag of that release
	 * and its signature is good.
	 */
	int signatures;
	int progress;           /* show a meter while git verifies the signatures */
	/*
	 * Object directories ("dir[:dir...]") the git that checks signatures
	 * must read besides the repository's: a quarantine.  NULL: none.
	 */
	const char *object_dirs;
};

struct rolling_verify_result {
	git_oid tip;
	/* The release the tip stands at; NULL when the tip is not a verified step. */
	const struct rolling_release *tip_release;
	/* The release commit the chain ends at, when it was reached. */
	int has_base;
	git_oid base;
	const struct rolling_release *base_release;
	git_oid base_tag;       /* what the base release's ref names */
	/* With options.since: whether it was found on the chain, and what it is. */
	int since_found;
	const struct rolling_release *since_release;
	/* The accepted steps, oldest first; failed steps are in `failures`. */
	struct rolling_verify_step *steps;
	size_t steps_nr;
	struct rolling_verify_switch *switches;
	size_t switches_nr;
	struct rolling_verify_failure *failures;
	size_t failures_nr;
	/* The walk stopped at ROLLING_VERIFY_MAX_FAILURES failures. */
	int truncated;
	unsigned hazards;       /* enum rolling_repo_hazard bits */
	size_t signatures_good;
	/*
	 * With options.signatures, the releases known only from the tags
	 * embedded in their merges (no tag ref names them); steps and
	 * since_release may point to them.
	 */
	struct rolling_release **embedded_releases;
	size_t embedded_releases_nr;
};

/* A branch that is not a rolling branch at all fails at every commit: stop early. */
#define ROLLING_VERIFY_MAX_FAILURES 100

/*
 * Verify the chain from `tip` with the release tags in `tags` (loaded
 * with `patterns`).  Returns 0 when the verification ran, whatever its
 * verdict (no failures means verified), or a negative error when it
 * could not run (unreadable repository, out of memory, git not runnable
 * for --signatures).  The result is freed with rolling_verify_result_release(),
 * also after an error.
 */
int rolling_verify(struct rolling_verify_result *result, git_repository *repo,
		   const git_oid *tip, const struct rolling_tags *tags,
		   struct rolling_patterns *patterns, const struct rolling_verify_options *options);

void rolling_verify_result_release(struct rolling_verify_result *result);

#endif
