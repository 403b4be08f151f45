#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "verify.h"
#include "hazard.h"
#include "merge.h"
#include "oidmap.h"
#include "rebuild.h"
#include "repo.h"
#include "signature.h"
#include "error.h"

#define SUBJECT_PREFIX "Merge "
#define TEXT_MAX 512
#define DESCRIBED_MAX 256     /* an id and a tag name, to go inside a TEXT_MAX text */
#define QUOTE_MAX 100
#define LISTED_PARENTS_MAX 4

static const char *const check_names[] = {
	[ROLLING_CHECK_PARENTS] = "parents",
	[ROLLING_CHECK_SUBJECT] = "subject",
	[ROLLING_CHECK_TAG] = "tag",
	[ROLLING_CHECK_TREE] = "tree",
	[ROLLING_CHECK_INJECTED] = "injected",
	[ROLLING_CHECK_BASE] = "base",
	[ROLLING_CHECK_ORDER] = "order",
	[ROLLING_CHECK_SINCE] = "since",
	[ROLLING_CHECK_REBUILD] = "rebuild",
	[ROLLING_CHECK_SIGNATURE] = "signature",
	[ROLLING_CHECK_REPLACE] = "replace",
	[ROLLING_CHECK_GRAFT] = "graft",
	[ROLLING_CHECK_SHALLOW] = "shallow",
	[ROLLING_CHECK_MISSING] = "missing",
};

const char *rolling_verify_check_name(enum rolling_verify_check check)
{
	return (size_t)check < sizeof(check_names) / sizeof(check_names[0]) ?
		check_names[check] : "unknown";
}

/* One walk over one chain. */
struct walk {
	struct rolling_verify_result *result;
	git_repository *repo;
	const struct rolling_tags *tags;
	struct rolling_patterns *patterns;
	const struct rolling_verify_options *options;
	struct rolling_oidmap shallow;   /* boundary commits of a shallow clone */
	size_t steps_alloc, switches_alloc, failures_alloc;
};

/* A failure found while looking at one commit, recorded only if it counts. */
struct finding {
	enum rolling_verify_check check;
	char expected[TEXT_MAX];
	char found[TEXT_MAX];
};

struct findings {
	struct finding list[4];
	size_t nr;
};

static const char *hex(char buf[GIT_OID_HEXSZ + 1], const git_oid *oid)
{
	return git_oid_tostr(buf, GIT_OID_HEXSZ + 1, oid);
}

static void note(struct findings *f, enum rolling_verify_check check, const char *expected,
		 const char *found_fmt, ...) ROLLING_PRINTF(4, 5);

static void note(struct findings *f, enum rolling_verify_check check, const char *expected,
		 const char *found_fmt, ...)
{
	struct finding *finding;
	va_list ap;

	if (f->nr == sizeof(f->list) / sizeof(f->list[0]))
		return;
	finding = &f->list[f->nr++];
	finding->check = check;
	snprintf(finding->expected, sizeof(finding->expected), "%s", expected);
	va_start(ap, found_fmt);
	vsnprintf(finding->found, sizeof(finding->found), found_fmt, ap);
	va_end(ap);
}

static int grow(void **array, size_t *alloc, size_t nr, size_t size)
{
	size_t grown_alloc;
	void *grown;

	if (nr < *alloc)
		return 0;
	grown_alloc = *alloc ? *alloc * 2 : 64;
	if (!(grown = realloc(*array, grown_alloc * size)))
		return rolling_error("out of memory");
	*array = grown;
	*alloc = grown_alloc;
	return 0;
}

/*
 * Record a failure.  Past ROLLING_VERIFY_MAX_FAILURES the result is
 * marked truncated instead, and the walk stops.
 */
static int fail(struct walk *w, enum rolling_verify_check check, const git_oid *commit,
		const char *expected, const char *found)
{
	struct rolling_verify_result *r = w->result;
	struct rolling_verify_failure *failure;

	if (r->failures_nr == ROLLING_VERIFY_MAX_FAILURES) {
		r->truncated = 1;
		return 0;
	}
	if (grow((void **)&r->failures, &w->failures_alloc, r->failures_nr,
		 sizeof(*r->failures)) < 0)
		return ROLLING_ERROR;
	failure = &r->failures[r->failures_nr];
	memset(failure, 0, sizeof(*failure));
	failure->check = check;
	git_oid_cpy(&failure->commit, commit);
	if (!(failure->expected = strdup(expected)) || !(failure->found = strdup(found))) {
		free(failure->expected);
		return rolling_error("out of memory");
	}
	r->failures_nr++;
	return 0;
}

static int record_findings(struct walk *w, const git_oid *commit, const struct findings *f)
{
	size_t i;
	int err;

	for (i = 0; i < f->nr; i++)
		if ((err = fail(w, f->list[i].check, commit, f->list[i].expected,
				f->list[i].found)) < 0)
			return err;
	return 0;
}

/* "1234...abcd (v6.6.4)" or "1234...abcd (not a release commit)". */
static const char *describe_commit(char *buf, size_t size, const struct rolling_tags *tags,
				   const git_oid *commit)
{
	const struct rolling_release *release = rolling_tags_find_commit(tags, commit);
	char h[GIT_OID_HEXSZ + 1];

	snprintf(buf, size, "%s (%s)", hex(h, commit),
		 release ? release->name : "not a release commit");
	return buf;
}

static int object_exists(git_repository *repo, const git_oid *id)
{
	git_odb *odb;
	int exists = 0;

	if (!git_repository_odb(&odb, repo)) {
		exists = git_odb_exists(odb, id);
		git_odb_free(odb);
	}
	return exists;
}

/*
 * Why a commit the proof needs cannot be read: cut off by a shallow
 * clone, missing from a broken repository, or another kind of object.
 */
static enum rolling_verify_check why_missing(char *found, size_t size, struct walk *w,
					     const git_oid *missing)
{
	if (object_exists(w->repo, missing)) {
		snprintf(found, size, "an object that is not a commit");
		return ROLLING_CHECK_MISSING;
	}
	if (w->result->hazards & ROLLING_HAZARD_SHALLOW) {
		snprintf(found, size, "not in this shallow clone: the chain is cut"
			 " (fetch with --unshallow)");
		return ROLLING_CHECK_SHALLOW;
	}
	snprintf(found, size, "not in the repository");
	return ROLLING_CHECK_MISSING;
}

static int fail_missing(struct walk *w, const git_oid *commit, const git_oid *missing,
			const char *what)
{
	char expected[TEXT_MAX], found[TEXT_MAX], h[GIT_OID_HEXSZ + 1];
	enum rolling_verify_check check = why_missing(found, sizeof(found), w, missing);

	snprintf(expected, sizeof(expected), "%s %s", what, hex(h, missing));
	return fail(w, check, commit, expected, found);
}

/* Read a commit; *commit stays NULL (and 0 is returned) when it is missing. */
static int lookup(git_commit **commit, git_repository *repo, const git_oid *id)
{
	char h[GIT_OID_HEXSZ + 1];
	int err = git_commit_lookup(commit, repo, id);

	if (err == GIT_ENOTFOUND) {
		*commit = NULL;
		return 0;
	}
	return err < 0 ? rolling_git_error(err, "cannot read commit %s", hex(h, id)) : 0;
}

static void check_parents(struct findings *f, git_commit *commit)
{
	unsigned n = git_commit_parentcount(commit), i;
	char list[TEXT_MAX] = "", h[GIT_OID_HEXSZ + 1];
	size_t len = 0;

	if (n == 2)
		return;
	for (i = 0; i < n && i < LISTED_PARENTS_MAX && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", i ? ", " : ": ",
					hex(h, git_commit_parent_id(commit, i)));
	note(f, ROLLING_CHECK_PARENTS, "2 parents: the previous tip and a release commit",
	     "%u parent%s%s%s", n, n == 1 ? "" : "s", list, n > LISTED_PARENTS_MAX ? ", ..." : "");
}

/*
 * The release named by the subject "Merge <tag>", checked against the
 * second parent.  Returns it when the subject and the tag are right.
 */
static const struct rolling_release *check_subject(struct findings *f, struct walk *w,
						   git_commit *commit)
{
	const char *summary = git_commit_summary(commit);
	const struct rolling_release *release;
	struct rolling_version version;
	enum rolling_tag_kind kind;
	char expected[TEXT_MAX], described[DESCRIBED_MAX];
	const char *name;

	if (!summary || strncmp(summary, SUBJECT_PREFIX, strlen(SUBJECT_PREFIX)) ||
	    !summary[strlen(SUBJECT_PREFIX)]) {
		note(f, ROLLING_CHECK_SUBJECT, "\"Merge <release tag>\"", "\"%.*s\"", QUOTE_MAX,
		     summary ? summary : "");
		return NULL;
	}
	name = summary + strlen(SUBJECT_PREFIX);
	if (rolling_patterns_classify(w->patterns, name, &kind, &version) < 0 ||
	    kind != ROLLING_TAG_RELEASE) {
		note(f, ROLLING_CHECK_SUBJECT, "\"Merge <release tag>\"",
		     "\"%.*s\": not a release tag name", QUOTE_MAX, summary);
		return NULL;
	}
	if (!(release = rolling_tags_find_name(w->tags, w->patterns, name))) {
		snprintf(expected, sizeof(expected), "release tag %.*s", QUOTE_MAX, name);
		note(f, ROLLING_CHECK_TAG, expected, "no such tag leading to a commit");
		return NULL;
	}
	if (git_commit_parentcount(commit) < 2)
		return release;
	if (!git_oid_equal(&release->commit, git_commit_parent_id(commit, 1))) {
		snprintf(expected, sizeof(expected), "second parent %s",
			 describe_commit(described, sizeof(described), w->tags, &release->commit));
		note(f, ROLLING_CHECK_TAG, expected, "second parent %s",
		     describe_commit(described, sizeof(described), w->tags,
				     git_commit_parent_id(commit, 1)));
		return NULL;
	}
	return release;
}

/* A rolling merge adds no content: its tree is its second parent's. */
static int check_tree(struct findings *f, struct walk *w, git_commit *commit)
{
	const git_oid *merged_id = git_commit_parent_id(commit, 1);
	char expected[TEXT_MAX], described[DESCRIBED_MAX], h[GIT_OID_HEXSZ + 1];
	git_commit *merged;
	int err;

	if ((err = lookup(&merged, w->repo, merged_id)) < 0)
		return err;
	if (!merged) {
		char found[TEXT_MAX];
		enum rolling_verify_check check = why_missing(found, sizeof(found), w, merged_id);

		snprintf(expected, sizeof(expected), "second parent %s", hex(h, merged_id));
		note(f, check, expected, "%s", found);
		return 0;
	}
	if (!git_oid_equal(git_commit_tree_id(commit), git_commit_tree_id(merged))) {
		snprintf(expected, sizeof(expected), "tree %s of %s",
			 hex(h, git_commit_tree_id(merged)),
			 describe_commit(described, sizeof(described), w->tags, merged_id));
		note(f, ROLLING_CHECK_TREE, expected, "tree %s",
		     hex(h, git_commit_tree_id(commit)));
	}
	git_commit_free(merged);
	return 0;
}

/* A commit that presents itself as a merge gets the merge diagnostics. */
static int looks_like_merge(git_commit *commit)
{
	const char *summary = git_commit_summary(commit);

	return git_commit_parentcount(commit) >= 2 ||
	       (summary && !strncmp(summary, SUBJECT_PREFIX, strlen(SUBJECT_PREFIX)));
}

enum step_kind {
	STEP_MERGE,      /* a verified rolling merge */
	STEP_BASE,       /* a release commit: the chain ends here */
	STEP_FAILED,     /* neither; failures recorded */
};

static int check_step(enum step_kind *kind, const struct rolling_release **release,
		      struct walk *w, git_commit *commit)
{
	const git_oid *id = git_commit_id(commit);
	struct findings f = { .nr = 0 };
	char found[TEXT_MAX];
	int err;

	check_parents(&f, commit);
	*release = check_subject(&f, w, commit);
	if (git_commit_parentcount(commit) >= 2 && (err = check_tree(&f, w, commit)) < 0)
		return err;
	if (!f.nr && *release) {
		*kind = STEP_MERGE;
		return 0;
	}
	/* Not a rolling merge: the base if a release tag points to it. */
	if ((*release = rolling_tags_find_commit(w->tags, id))) {
		*kind = STEP_BASE;
		return 0;
	}
	*kind = STEP_FAILED;
	if (looks_like_merge(commit))
		return record_findings(w, id, &f);
	snprintf(found, sizeof(found), "plain commit \"%.*s\"", QUOTE_MAX,
		 git_commit_summary(commit) ? git_commit_summary(commit) : "");
	return fail(w, ROLLING_CHECK_INJECTED, id, "a rolling merge or a release commit", found);
}

static int add_step(struct walk *w, const git_oid *merge, const struct rolling_release *release)
{
	struct rolling_verify_result *r = w->result;

	if (grow((void **)&r->steps, &w->steps_alloc, r->steps_nr, sizeof(*r->steps)) < 0)
		return ROLLING_ERROR;
	git_oid_cpy(&r->steps[r->steps_nr].merge, merge);
	r->steps[r->steps_nr++].release = release;
	return 0;
}

static int check_rebuild(struct walk *w, git_commit *commit, const struct rolling_release *release)
{
	char *difference = NULL, expected[TEXT_MAX], found[TEXT_MAX], h[GIT_OID_HEXSZ + 1];
	git_oid rebuilt;
	int err = rolling_merge_rebuild(&rebuilt, &difference, w->repo, commit, release);

	if (err <= 0)
		return err;
	snprintf(expected, sizeof(expected), "%s", hex(h, &rebuilt));
	snprintf(found, sizeof(found), "%s (%s)", hex(h, git_commit_id(commit)), difference);
	free(difference);
	return fail(w, ROLLING_CHECK_REBUILD, git_commit_id(commit), expected, found);
}

/*
 * Where --since lands: it was verified before, so the walk stops, but
 * its release is the baseline for the version order.
 */
static int reach_since(struct walk *w, const git_oid *since)
{
	struct rolling_verify_result *r = w->result;
	char h[GIT_OID_HEXSZ + 1], found[TEXT_MAX];
	git_commit *commit;
	int err;

	r->since_found = 1;
	if ((r->since_release = rolling_tags_find_commit(w->tags, since)))
		return 0;
	if ((err = lookup(&commit, w->repo, since)) < 0)
		return err;
	if (!commit)
		return fail_missing(w, since, since, "commit");
	err = rolling_merge_identify(&r->since_release, commit, w->tags, w->patterns);
	git_commit_free(commit);
	if (err)
		return err < 0 ? err : 0;
	snprintf(found, sizeof(found), "%s is neither", hex(h, since));
	return fail(w, ROLLING_CHECK_SINCE, since, "a rolling merge or a release commit", found);
}

/* The walk went past the end of the chain without meeting --since. */
static int fail_since(struct walk *w)
{
	const struct rolling_verify_result *r = w->result;
	char expected[TEXT_MAX], found[TEXT_MAX], h[GIT_OID_HEXSZ + 1], t[GIT_OID_HEXSZ + 1];

	snprintf(expected, sizeof(expected), "%s on the first-parent chain of %s",
		 hex(h, w->options->since), hex(t, &r->tip));
	if (r->has_base)
		snprintf(found, sizeof(found), "not there: the chain ends at %s (%s) without it;"
			 " the branch was rewound or rewritten",
			 hex(h, &r->base), r->base_release->name);
	else
		snprintf(found, sizeof(found), "not there: the branch was rewound or rewritten");
	return fail(w, ROLLING_CHECK_SINCE, w->options->since, expected, found);
}

/*
 * Where a shallow clone cuts the chain: git sees the boundary commit
 * without parents, so it cannot be a rolling merge whatever it records.
 * Returns 1 (after recording it) there.
 */
static int check_cut(struct walk *w, git_commit *commit)
{
	const git_oid *id = git_commit_id(commit);
	char expected[TEXT_MAX], h[GIT_OID_HEXSZ + 1];
	size_t unused;
	int err;

	if (!rolling_oidmap_get(&w->shallow, id, &unused))
		return 0;
	snprintf(expected, sizeof(expected), "the parents of %s", hex(h, id));
	err = fail(w, ROLLING_CHECK_SHALLOW, id, expected,
		   "cut off by the shallow clone (fetch with --unshallow)");
	return err < 0 ? err : 1;
}

/*
 * Move to the first parent.  Returns 1 (after recording why) when the
 * chain ends here without a base: at a root commit.
 */
static int step_down(struct walk *w, git_commit *commit, git_oid *next)
{
	const git_oid *id = git_commit_id(commit);
	char found[TEXT_MAX], h[GIT_OID_HEXSZ + 1];
	int err;

	if (!git_commit_parentcount(commit)) {
		snprintf(found, sizeof(found), "root commit %s, not a release commit", hex(h, id));
		err = fail(w, ROLLING_CHECK_BASE, id,
			   "a release commit at the end of the first-parent chain", found);
		return err < 0 ? err : 1;
	}
	git_oid_cpy(next, git_commit_parent_id(commit, 0));
	return 0;
}

/* One commit of the chain; returns 1 when the walk ends here. */
static int visit(struct walk *w, git_commit *commit, int is_tip, git_oid *next)
{
	struct rolling_verify_result *r = w->result;
	const struct rolling_release *release;
	enum step_kind kind;
	int err;

	/* A release commit is a base even at a shallow boundary: nothing below it counts. */
	if (!rolling_tags_find_commit(w->tags, git_commit_id(commit)) &&
	    (err = check_cut(w, commit)) != 0)
		return err;
	if ((err = check_step(&kind, &release, w, commit)) < 0)
		return err;
	if (is_tip && kind != STEP_FAILED)
		r->tip_release = release;
	if (kind == STEP_BASE) {
		r->has_base = 1;
		git_oid_cpy(&r->base, git_commit_id(commit));
		r->base_release = release;
		return 1;
	}
	if (kind == STEP_MERGE &&
	    ((err = add_step(w, git_commit_id(commit), release)) < 0 ||
	     (w->options->rebuild && (err = check_rebuild(w, commit, release)) < 0)))
		return err;
	return step_down(w, commit, next);
}

/*
 * Walk the first-parent chain from the tip.  Each commit is a rolling
 * merge (recorded as a step), the base (a release commit: the walk
 * stops), or a failure; the walk goes on past failures to report them
 * all, and stops at the base, at --since, at a root or a shallow cut, or after
 * too many failures.  No commit is read twice and nothing below the
 * base or the releases is read at all.
 *
 * Why this proves that nothing else is reachable: every accepted step
 * has exactly two parents, the first being the next commit on the chain
 * and the second a peeled release commit; the chain ends at a release
 * commit.  By induction along the chain, the commits reachable from the
 * tip are the accepted merges plus what is reachable from their second
 * parents and from the base, all of them release commits, i.e. reachable
 * from release tags.  A step with a third parent, or any commit that is
 * neither a rolling merge nor a release commit, is a failure, so no
 * other commit can hide in a verified branch.  (With --since, what is
 * reachable from <since> was proven by the run that verified it.)
 */
static int walk_chain(struct walk *w)
{
	struct rolling_verify_result *r = w->result;
	const git_oid *since = w->options->since;
	git_oid id = r->tip, previous = r->tip;
	int err = 0;

	while (!err && !r->truncated) {
		int is_tip = git_oid_equal(&id, &r->tip);
		git_commit *commit;

		if (since && git_oid_equal(&id, since)) {
			err = reach_since(w, since);
			if (is_tip)
				r->tip_release = r->since_release;
			return err;
		}
		if ((err = lookup(&commit, w->repo, &id)) < 0)
			return err;
		if (!commit) {
			err = fail_missing(w, &previous, &id, is_tip ? "tip" : "first parent");
			break;
		}
		git_oid_cpy(&previous, &id);
		err = visit(w, commit, is_tip, &id);
		git_commit_free(commit);
	}
	if (err < 0)
		return err;
	if (since && !r->since_found && !r->truncated)
		return fail_since(w);
	return 0;
}

static void reverse_steps(struct rolling_verify_result *r)
{
	size_t i;

	for (i = 0; i < r->steps_nr / 2; i++) {
		struct rolling_verify_step tmp = r->steps[i];

		r->steps[i] = r->steps[r->steps_nr - 1 - i];
		r->steps[r->steps_nr - 1 - i] = tmp;
	}
}

static int add_switch(struct walk *w, const git_oid *merge, const struct rolling_release *from,
		      const struct rolling_release *to)
{
	struct rolling_verify_result *r = w->result;
	struct rolling_verify_switch *s;

	if (grow((void **)&r->switches, &w->switches_alloc, r->switches_nr,
		 sizeof(*r->switches)) < 0)
		return ROLLING_ERROR;
	s = &r->switches[r->switches_nr++];
	git_oid_cpy(&s->merge, merge);
	s->from = from;
	s->to = to;
	return 0;
}

/*
 * Versions never decrease along the chain (oldest first), so series
 * never go back; each move to a later series is recorded.  A step that
 * goes back is compared with the newest release before it, so one bad
 * step is one failure.
 */
static int check_order(struct walk *w)
{
	struct rolling_verify_result *r = w->result;
	const struct rolling_release *newest = r->has_base ? r->base_release : r->since_release;
	char expected[TEXT_MAX], found[TEXT_MAX];
	size_t i;
	int err;

	for (i = 0; i < r->steps_nr; i++) {
		const struct rolling_release *release = r->steps[i].release;
		const struct rolling_series *s = &release->version.series;

		if (newest && rolling_version_cmp(&release->version, &newest->version) < 0) {
			snprintf(expected, sizeof(expected), "%s or a later release", newest->name);
			snprintf(found, sizeof(found), "%s: %s", release->name,
				 rolling_series_cmp(s, &newest->version.series) < 0 ?
				 "the series goes back" : "the version goes back");
			if ((err = fail(w, ROLLING_CHECK_ORDER, &r->steps[i].merge, expected,
					found)) < 0)
				return err;
			continue;
		}
		if (newest && rolling_series_cmp(s, &newest->version.series) > 0 &&
		    (err = add_switch(w, &r->steps[i].merge, newest, release)) < 0)
			return err;
		newest = release;
	}
	return 0;
}

/* The signatures of the base's and every step's release tag, each tag once. */
static int check_signatures(struct walk *w)
{
	struct rolling_verify_result *r = w->result;
	size_t max = r->steps_nr + 1, nr = 0, i;
	const struct rolling_release **releases = calloc(max, sizeof(*releases));
	const git_oid **commits = calloc(max, sizeof(*commits));
	enum rolling_signature_status *status = calloc(max, sizeof(*status));
	unsigned char *seen = calloc(w->tags->releases_nr + 1, 1);
	char expected[TEXT_MAX], found[TEXT_MAX];
	int err = 0;

	if (!releases || !commits || !status || !seen) {
		err = rolling_error("out of memory");
		goto out;
	}
	for (i = 0; i <= r->steps_nr; i++) {
		const struct rolling_release *release = i ? r->steps[i - 1].release :
			r->has_base ? r->base_release : NULL;
		size_t index;

		if (!release || seen[index = (size_t)(release - w->tags->releases)])
			continue;
		seen[index] = 1;
		releases[nr] = release;
		commits[nr++] = i ? &r->steps[i - 1].merge : &r->base;
	}
	if ((err = rolling_tag_signatures(status, w->repo, releases, nr)) < 0)
		goto out;
	for (i = 0; i < nr && !err; i++) {
		if (status[i] == ROLLING_SIGNATURE_GOOD) {
			r->signatures_good++;
			continue;
		}
		snprintf(expected, sizeof(expected), "a good signature on tag %s"
			 " (see git verify-tag %s)", releases[i]->name, releases[i]->name);
		snprintf(found, sizeof(found), "%s: %s", releases[i]->name,
			 rolling_signature_status_name(status[i]));
		err = fail(w, ROLLING_CHECK_SIGNATURE, commits[i], expected, found);
	}
out:
	free(seen);
	free(status);
	free(commits);
	free(releases);
	return err;
}

static int report_replacements(struct walk *w)
{
	char found[TEXT_MAX], h[GIT_OID_HEXSZ + 1], by[GIT_OID_HEXSZ + 1];
	struct rolling_hazard *list;
	size_t nr, i;
	int err;

	if ((err = rolling_hazard_replacements(&list, &nr, w->repo)) < 0)
		return err;
	for (i = 0; i < nr && !err; i++) {
		snprintf(found, sizeof(found), "refs/replace/%s makes git read %s instead",
			 hex(h, &list[i].oid), hex(by, &list[i].replacement));
		err = fail(w, ROLLING_CHECK_REPLACE, &list[i].oid,
			   "no replacement: git and git rolling must see the same objects", found);
	}
	free(list);
	return err;
}

static int report_grafts(struct walk *w)
{
	struct rolling_hazard *list;
	size_t nr, i;
	int err;

	if ((err = rolling_hazard_grafts(&list, &nr, w->repo)) < 0)
		return err;
	for (i = 0; i < nr && !err; i++)
		err = fail(w, ROLLING_CHECK_GRAFT, &list[i].oid,
			   "no graft: git and git rolling must see the same parents",
			   "info/grafts gives git other parents for it");
	free(list);
	return err;
}

/*
 * libgit2 reads the objects as stored; git honours replacements and
 * grafts.  Where they exist the two may see different graphs, so each
 * one is a failure rather than a silent difference.  A shallow clone
 * only fails where it actually cuts the chain (see step_down()).
 */
static int check_hazards(struct walk *w)
{
	struct rolling_verify_result *r = w->result;
	int err;

	if ((err = rolling_repo_hazards(&r->hazards, w->repo)) < 0)
		return err;
	if ((r->hazards & ROLLING_HAZARD_REPLACE) && (err = report_replacements(w)) < 0)
		return err;
	if ((r->hazards & ROLLING_HAZARD_GRAFTS) && (err = report_grafts(w)) < 0)
		return err;
	if (r->hazards & ROLLING_HAZARD_SHALLOW)
		return rolling_hazard_shallow(&w->shallow, w->repo);
	return 0;
}

int rolling_verify(struct rolling_verify_result *result, git_repository *repo,
		   const git_oid *tip, const struct rolling_tags *tags,
		   struct rolling_patterns *patterns, const struct rolling_verify_options *options)
{
	static const struct rolling_verify_options defaults = { NULL, 0, 0 };
	struct walk w = { result, repo, tags, patterns, options ? options : &defaults,
			  { NULL, 0, 0 }, 0, 0, 0 };
	int err;

	memset(result, 0, sizeof(*result));
	git_oid_cpy(&result->tip, tip);
	if ((err = check_hazards(&w)) < 0 || (err = walk_chain(&w)) < 0)
		goto out;
	reverse_steps(result);
	if ((err = check_order(&w)) < 0)
		goto out;
	if (w.options->signatures)
		err = check_signatures(&w);
out:
	rolling_oidmap_free(&w.shallow);
	return err;
}

void rolling_verify_free(struct rolling_verify_result *result)
{
	size_t i;

	for (i = 0; i < result->failures_nr; i++) {
		free(result->failures[i].expected);
		free(result->failures[i].found);
	}
	free(result->failures);
	free(result->steps);
	free(result->switches);
	memset(result, 0, sizeof(*result));
}
