#ifndef ROLLING_TAGS_H
#define ROLLING_TAGS_H

#include <git2.h>
#include "release-number.h"
#include "pattern.h"
#include "oidmap.h"

/* A release tag, peeled to the commit it names. */
struct rolling_release {
	char *name;                       /* without "refs/tags/" */
	struct rolling_version version;
	git_oid commit;
	/*
	 * What the ref names: the tag object (the outer one, for a tag of
	 * a tag), or the commit itself for a lightweight tag.  This is the
	 * object `git merge <name>` records, and embeds when it is signed.
	 */
	git_oid tag;
	/*
	 * Whether the tag was checked from its objects and is sound (1),
	 * found unusable (-1, `problem` says why), or not looked at yet (0):
	 * the peeled values of packed refs are taken on trust when the tags
	 * are loaded, and every release a command uses is checked first.
	 */
	int is_commit;
	char *problem;
};

/* The releases of one series: releases[first .. first + count). */
struct rolling_series_info {
	struct rolling_series series;
	size_t first;
	size_t count;
};

/*
 * What the tags of a repository say, read once: the release tags in
 * version order, grouped by series, a hash map from release commit to
 * release, and the newest series that mainline has tagged at all (an rc
 * closes the previous series' merge window) and as a final release.  A
 * release of patch 0 (a series' first, v2.44.0 where the release
 * pattern reads it) counts as that series' mainline final too, though
 * not in mainline_nr.
 */
struct rolling_tags {
	struct rolling_release *releases;
	size_t releases_nr;
	struct rolling_series_info *series;
	size_t series_nr;
	struct rolling_oidmap by_commit;
	size_t mainline_nr;
	/* Every series a mainline tag names (an rc or a final), ascending. */
	struct rolling_series *mainline_series;
	size_t mainline_series_nr, mainline_series_alloc;
	int has_mainline, has_mainline_final;
	struct rolling_series newest_mainline;
	struct rolling_series newest_mainline_final;
	unsigned forms;                   /* series sizes: the patterns' and the tags' */
	/*
	 * The first pre-release of the newest series mainline has tagged
	 * ("v6.8-rc1", "v2.44.0-rc0", "v3.13.0a1"): the lowest number, the
	 * first name; NULL when it has none.  Status spells the next one
	 * from it.  Not kept for tags grown one at a time (backfill).
	 */
	char *first_pre_example;
	struct rolling_version first_pre_version;
	size_t both_nr;                   /* tags that match both patterns */
	char *both_example;               /* the first of them by name, or NULL */
	git_repository *repo;             /* borrowed, for the checks above */
	size_t releases_alloc, series_alloc;
};

/*
 * Read refs/tags/ through the patterns.  Tags that match no pattern are
 * ignored; release tags whose numbers overflow are skipped with a
 * warning, and so are those that do not lead to a commit, either here or,
 * for packed refs, when a command first uses them.  Reading the tags of
 * a kernel clone so reads no object at all: its refs are packed with
 * their peeled values.  Tags that match both patterns are read as
 * releases and counted in both_nr.
 */
int rolling_tags_load(struct rolling_tags *tags, git_repository *repo,
		      struct rolling_patterns *patterns);

/*
 * Refuse a reading in which a tag matches both patterns (both_nr): a
 * release pattern that also takes "v2.44.0", which the mainline pattern
 * takes too, makes steps nobody meant.  Returns 0, or an error that
 * names the tag and the keys the patterns came from (when not NULL).
 */
int rolling_tags_check_unambiguous(const struct rolling_tags *tags, const char *release_key,
				   const char *mainline_key);

/*
 * A tag that is not a ref of the repository (yet): what a fetch brought
 * into its quarantine for refs/tags/<name>.
 */
struct rolling_tag_ref {
	const char *name;
	git_oid target;
};

/*
 * Add the tags in `extra` to tags already loaded, read as if they were
 * refs/tags/<name> (their objects are read, never taken on trust).  A
 * name the repository has too would be a duplicate: the caller passes
 * only names it does not have.  On error the tags must be freed.
 */
int rolling_tags_add(struct rolling_tags *tags, struct rolling_patterns *patterns,
		     const struct rolling_tag_ref *extra, size_t extra_nr);

/* The release with this exact version, or NULL. */
const struct rolling_release *rolling_tags_find_version(const struct rolling_tags *tags,
						       const struct rolling_version *version);

/* The release tag of that name, or NULL. */
const struct rolling_release *rolling_tags_find_name(const struct rolling_tags *tags,
						    struct rolling_patterns *patterns,
						    const char *name);

/* The release (the highest one, if several) tagging this commit, or NULL. */
const struct rolling_release *rolling_tags_find_commit(const struct rolling_tags *tags,
						      const git_oid *commit);

/* The series info for s, or NULL when s has no release. */
const struct rolling_series_info *rolling_tags_find_series(const struct rolling_tags *tags,
							  const struct rolling_series *s);

/*
 * Check a release tag from the objects themselves, once, whatever
 * packed-refs says: the ref leads through tag objects to `commit`; the
 * outermost tag object names this release in its `tag` header (a
 * genuine tag of another release published under this name would roll
 * a branch back); each tag object's `type` header is the type of the
 * object it names (git treats a tag that lies about it as broken); and
 * no object on the way is missing.  Returns 1 when it is sound, 0 when
 * not, with *problem (owned by the tags, may be NULL) saying why, or a
 * negative error when the repository cannot be read.
 */
int rolling_release_check(const char **problem, const struct rolling_tags *tags,
			  const struct rolling_release *release);

/*
 * rolling_release_check() for commands that skip what they cannot use:
 * 1 when the release is sound, else 0 after a warning (once).
 */
int rolling_release_is_commit(const struct rolling_tags *tags,
			      const struct rolling_release *release);

/*
 * The newest release of a series whose tag leads to a commit, or NULL
 * when none does.
 */
const struct rolling_release *rolling_series_newest(const struct rolling_tags *tags,
						    const struct rolling_series_info *info);

/*
 * Tags as they were at a moment of the past, grown one tag at a time in
 * the order they appeared (backfill): start empty, then add each release
 * and mainline tag.  The releases stay in version order and grouped by
 * series, so the policy and the planning read them as they read loaded
 * tags.  Adding moves releases: pointers into tags->releases hold only
 * until the next add.  The by-commit map is not kept (it stays empty).
 */
void rolling_tags_init_empty(struct rolling_tags *tags, git_repository *repo, unsigned forms);

/* Add a copy of a release; one whose version is there already is ignored. */
int rolling_tags_add_release(struct rolling_tags *tags, const struct rolling_release *release);

/* Count a mainline tag of this version (an rc, or the final when rc is 0). */
int rolling_tags_add_mainline(struct rolling_tags *tags, const struct rolling_version *version);

/*
 * The first series after `s` that a tag names: one with a release, or,
 * with `mainline`, also one a mainline tag names.  Returns 1 with it in
 * *out, 0 when no tag names one.
 */
int rolling_tags_series_after(struct rolling_series *out, const struct rolling_tags *tags,
			      const struct rolling_series *s, int mainline);

void rolling_tags_release(struct rolling_tags *tags);

#endif
