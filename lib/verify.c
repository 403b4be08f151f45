#include <stdarg.h>
#include <stdint.h>
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
#include "strbuf.h"
#include "alloc.h"
#include "utf8.h"
#include "error.h"

/*
 * A subject is free text of any length that anyone can write: a failure
 * quotes enough of it to recognise the commit.  Names (of releases, refs)
 * are given in full: they are what the reader acts on.
 */
#define QUOTE_MAX 100

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
	[ROLLING_CHECK_MERGETAG] = "mergetag",
	[ROLLING_CHECK_HEADER] = "header",
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
	int below_claimed;               /* the commit above on the chain claims to be a step */
	size_t steps_alloc, switches_alloc, failures_alloc;
	/* The tags of the steps vouched for by their embedded tag alone. */
	struct rolling_tag_bytes *embedded;
	size_t embedded_nr, embedded_alloc, releases_alloc;
	/* The accepted merges that carry a commit signature. */
	git_oid *signed_merges;
	size_t signed_merges_nr, signed_merges_alloc;
};

static const char *hex(char buf[GIT_OID_HEXSZ + 1], const git_oid *oid)
{
	return git_oid_tostr(buf, GIT_OID_HEXSZ + 1, oid);
}

/*
 * Add a commit's subject as git log shows it: converted to UTF-8 when an
 * "encoding" header names another encoding, cut to QUOTE_MAX bytes
 * between characters.
 */
static void quote_subject(struct strbuf *sb, git_commit *commit)
{
	const char *summary = git_commit_summary(commit), *encoding;
	char *converted = NULL;

	if (!summary)
		summary = "";
	encoding = git_commit_message_encoding(commit);
	if (encoding && strcasecmp(encoding, "UTF-8") && strcasecmp(encoding, "UTF8"))
		converted = rolling_utf8_reencode(summary, encoding);
	if (converted)
		summary = converted;
	strbuf_add(sb, summary, rolling_utf8_cut(summary, strlen(summary), QUOTE_MAX));
	free(converted);
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
	if (ALLOC_GROW(r->failures, r->failures_nr + 1, w->failures_alloc) < 0)
		return ROLLING_ERROR;
	failure = &r->failures[r->failures_nr];
	memset(failure, 0, sizeof(*failure));
	failure->check = check;
	git_oid_cpy(&failure->commit, commit);
	if (!(failure->expected = strdup(expected)) || !(failure->found = strdup(found))) {
		free(failure->expected);
		return rolling_error_nomem();
	}
	r->failures_nr++;
	return 0;
}

/* fail() with texts built in strbufs, which it releases. */
static int fail_sb(struct walk *w, enum rolling_verify_check check, const git_oid *commit,
		   struct strbuf *expected, struct strbuf *found)
{
	int err = strbuf_oom(expected) || strbuf_oom(found) ? rolling_error_nomem() :
		  fail(w, check, commit, expected->buf, found->buf);

	strbuf_release(expected);
	strbuf_release(found);
	return err;
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
static enum rolling_verify_check why_missing(struct strbuf *found, struct walk *w,
					     const git_oid *missing)
{
	if (object_exists(w->repo, missing)) {
		strbuf_addstr(found, "an object that is not a commit");
		return ROLLING_CHECK_MISSING;
	}
	if (w->result->hazards & ROLLING_HAZARD_SHALLOW) {
		strbuf_addstr(found, "not in this shallow clone: the chain is cut"
			      " (fetch with --unshallow)");
		return ROLLING_CHECK_SHALLOW;
	}
	strbuf_addstr(found, "not in the repository");
	return ROLLING_CHECK_MISSING;
}

/* `commit` needs `missing` (its `what`), which cannot be read. */
static int fail_missing(struct walk *w, const git_oid *commit, const git_oid *missing,
			const char *what)
{
	struct strbuf expected = STRBUF_INIT, found = STRBUF_INIT;
	enum rolling_verify_check check = why_missing(&found, w, missing);
	char h[GIT_OID_HEXSZ + 1];

	strbuf_addf(&expected, "%s %s", what, hex(h, missing));
	return fail_sb(w, check, commit, &expected, &found);
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

enum step_kind {
	STEP_MERGE,      /* a verified rolling merge */
	STEP_BASE,       /* a release commit: the chain ends here */
	STEP_FAILED,     /* neither; failures recorded */
	STEP_NO_BASE,    /* where the base should be, a commit no tag names: the walk ends */
};

/* The check a reason of rolling_merge_examine() fails. */
static enum rolling_verify_check fault_check(enum rolling_merge_fault fault)
{
	switch (fault) {
	case ROLLING_MERGE_PARENTS:
		return ROLLING_CHECK_PARENTS;
	case ROLLING_MERGE_SUBJECT:
		return ROLLING_CHECK_SUBJECT;
	case ROLLING_MERGE_TAG:
		return ROLLING_CHECK_TAG;
	case ROLLING_MERGE_TREE:
		return ROLLING_CHECK_TREE;
	case ROLLING_MERGE_MERGETAG:
		return ROLLING_CHECK_MERGETAG;
	case ROLLING_MERGE_HEADER:
		return ROLLING_CHECK_HEADER;
	case ROLLING_MERGE_UNREADABLE:
		break;
	}
	return ROLLING_CHECK_MISSING;
}

/* Each reason the commit is not a rolling merge is a failure of its own. */
static int record_findings(struct walk *w, const git_oid *commit,
			   const struct rolling_merge_exam *exam)
{
	size_t i;
	int err = 0;

	for (i = 0; i < exam->findings_nr && !err; i++) {
		const struct rolling_merge_finding *f = &exam->findings[i];

		if (f->fault == ROLLING_MERGE_UNREADABLE) {
			err = fail_missing(w, commit, &exam->unreadable, "second parent");
			continue;
		}
		if (!f->expected || !f->found)
			return rolling_error_nomem();
		if (f->fault == ROLLING_MERGE_TAG && exam->embedded_release) {
			struct strbuf expected = STRBUF_INIT, found = STRBUF_INIT;

			/* Say how the merge could still be proven without the tag ref. */
			strbuf_addstr(&expected, f->expected);
			strbuf_addf(&found, "%s (the merge embeds a tag of it:"
				    " --signatures can check that one)", f->found);
			err = fail_sb(w, ROLLING_CHECK_TAG, commit, &expected, &found);
			continue;
		}
		err = fail(w, fault_check(f->fault), commit, f->expected, f->found);
	}
	return err;
}

/*
 * A merge that names a release this repository has no tag for, and
 * embeds a well-formed tag of that release on its second parent: with
 * --signatures, the embedded tag vouches for the release (its signature
 * is checked with the others, and fails the step unless git finds it
 * good).  That is how a branch fetched without its tags is proven.
 */
static int vouched_by_embedded_tag(const struct rolling_merge_exam *exam)
{
	size_t i;

	if (!exam->embedded_release)
		return 0;
	for (i = 0; i < exam->findings_nr; i++)
		if (exam->findings[i].fault != ROLLING_MERGE_TAG)
			return 0;
	return 1;
}

/* Keep the release the merge's embedded tag describes: the result points to it. */
static int keep_embedded_release(const struct rolling_release **release, struct walk *w,
				 struct rolling_merge_exam *exam)
{
	struct rolling_verify_result *r = w->result;

	if (ALLOC_GROW(r->embedded_releases, r->embedded_releases_nr + 1, w->releases_alloc) < 0)
		return ROLLING_ERROR;
	*release = r->embedded_releases[r->embedded_releases_nr++] = exam->embedded_release;
	exam->embedded_release = NULL;
	return 0;
}

/* Keep the embedded release (the steps point to it) and its tag's bytes. */
static int adopt_embedded(const struct rolling_release **release, struct walk *w,
			  struct rolling_merge_exam *exam)
{
	struct rolling_tag_bytes *bytes;

	if (ALLOC_GROW(w->embedded, w->embedded_nr + 1, w->embedded_alloc) < 0 ||
	    keep_embedded_release(release, w, exam) < 0)
		return ROLLING_ERROR;
	bytes = &w->embedded[w->embedded_nr++];
	git_oid_cpy(&bytes->id, &exam->mergetag_id);
	bytes->data = exam->mergetag;
	bytes->size = exam->mergetag_len;
	exam->mergetag = NULL;
	return 0;
}

/* A merge signed with `git commit -S`: --signatures checks its signature too. */
static int note_signed_merge(struct walk *w, const git_oid *merge)
{
	if (ALLOC_GROW(w->signed_merges, w->signed_merges_nr + 1, w->signed_merges_alloc) < 0)
		return ROLLING_ERROR;
	git_oid_cpy(&w->signed_merges[w->signed_merges_nr++], merge);
	return 0;
}

/*
 * Below the oldest step, a commit that no release tag names, that is no
 * rolling merge, and whose own first parent is none either: where the
 * base release commit should be, the history behind it.  A clone made
 * with --no-tags has the base release but not its tag, and walking on
 * would report every commit of the release's history as injected.  One
 * failure says what is missing and how to go on; the walk ends, as it
 * ends at a base.  (Either way the branch fails: nothing is proven that
 * was not.)  Returns 1 after recording it, 0 when the commit is not
 * such a one (an injected commit between two steps, say), or an error.
 */
static int check_untagged_base(struct walk *w, git_commit *commit)
{
	struct strbuf expected = STRBUF_INIT, found = STRBUF_INIT;
	char h[GIT_OID_HEXSZ + 1];
	git_commit *parent;
	int err, claimed;

	if (rolling_merge_claimed(commit) || !git_commit_parentcount(commit))
		return 0;
	if ((err = lookup(&parent, w->repo, git_commit_parent_id(commit, 0))) < 0 || !parent)
		return err;
	claimed = rolling_merge_claimed(parent);
	git_commit_free(parent);
	if (claimed)
		return 0;
	strbuf_addstr(&expected, "a release commit at the end of the first-parent chain");
	strbuf_addstr(&found, "plain commit \"");
	quote_subject(&found, commit);
	strbuf_addf(&found, "\", which no release tag here names: if it is the base release,"
		    " its tag is not in this repository; fetch it"
		    " (git fetch origin tag <base release>) or start from it with --since %s",
		    hex(h, git_commit_id(commit)));
	err = fail_sb(w, ROLLING_CHECK_BASE, git_commit_id(commit), &expected, &found);
	return err < 0 ? err : 1;
}

/*
 * Is the commit a rolling merge (rolling_merge_examine() decides), the
 * base, or neither?  Sets *release, and *tag to the tag object that
 * vouches for the step: the embedded one, else the one the ref names.
 */
static int check_step(enum step_kind *kind, const struct rolling_release **release,
		      git_oid *tag, struct walk *w, git_commit *commit)
{
	const git_oid *id = git_commit_id(commit);
	struct rolling_merge_exam exam;
	struct strbuf expected = STRBUF_INIT, found = STRBUF_INIT;
	int err;

	if ((err = rolling_merge_examine(&exam, commit, w->tags, w->patterns)) < 0)
		goto out;
	if ((!exam.findings_nr && (*release = exam.release)) ||
	    (w->options->signatures && vouched_by_embedded_tag(&exam))) {
		*kind = STEP_MERGE;
		git_oid_cpy(tag, exam.mergetag ? &exam.mergetag_id : &exam.release->tag);
		if (exam.has_gpgsig && (err = note_signed_merge(w, id)) < 0)
			goto out;
		if (!exam.release)
			err = adopt_embedded(release, w, &exam);
		goto out;
	}
	/* Not a rolling merge: the base if a release tag points to it. */
	if ((*release = rolling_tags_find_commit(w->tags, id))) {
		*kind = STEP_BASE;
		git_oid_cpy(tag, &(*release)->tag);
		goto out;
	}
	*kind = STEP_FAILED;
	if (w->below_claimed && (err = check_untagged_base(w, commit)) != 0) {
		if (err > 0)
			*kind = STEP_NO_BASE;
		err = err < 0 ? err : 0;
		goto out;
	}
	if (rolling_merge_claimed(commit)) {
		err = record_findings(w, id, &exam);
		goto out;
	}
	strbuf_addstr(&expected, "a rolling merge or a release commit");
	strbuf_addstr(&found, "plain commit \"");
	quote_subject(&found, commit);
	strbuf_addch(&found, '"');
	err = fail_sb(w, ROLLING_CHECK_INJECTED, id, &expected, &found);
out:
	rolling_merge_exam_release(&exam);
	return err;
}

static int add_step(struct walk *w, const git_oid *merge, const struct rolling_release *release,
		    const git_oid *tag)
{
	struct rolling_verify_result *r = w->result;

	if (ALLOC_GROW(r->steps, r->steps_nr + 1, w->steps_alloc) < 0)
		return ROLLING_ERROR;
	git_oid_cpy(&r->steps[r->steps_nr].merge, merge);
	git_oid_cpy(&r->steps[r->steps_nr].tag, tag);
	r->steps[r->steps_nr++].release = release;
	return 0;
}

/* The embedded tag a step's release is known from, if it is known only so. */
static const struct rolling_tag_bytes *embedded_tag(const struct walk *w,
						    const struct rolling_release *release)
{
	size_t i;

	for (i = w->embedded_nr; i-- > 0;)
		if (git_oid_equal(&w->embedded[i].id, &release->tag))
			return &w->embedded[i];
	return NULL;
}

static int check_rebuild(struct walk *w, git_commit *commit, const struct rolling_release *release)
{
	struct strbuf found = STRBUF_INIT;
	char *difference = NULL, h[GIT_OID_HEXSZ + 1];
	git_oid rebuilt;
	int err = rolling_merge_rebuild(&rebuilt, &difference, w->repo, commit, release,
					embedded_tag(w, release));

	if (err <= 0)
		return err;
	strbuf_addf(&found, "%s (%s)", hex(h, git_commit_id(commit)), difference);
	free(difference);
	if (strbuf_oom(&found))
		return rolling_error_nomem();
	err = fail(w, ROLLING_CHECK_REBUILD, git_commit_id(commit), hex(h, &rebuilt), found.buf);
	strbuf_release(&found);
	return err;
}

/*
 * The release a --since merge stands at.  It was verified before, so a
 * tag it embeds names its release even where no tag ref does (a branch
 * fetched without tags).  Returns 1 when it is a rolling merge.
 */
static int since_release(struct walk *w, git_commit *commit)
{
	struct rolling_verify_result *r = w->result;
	struct rolling_merge_exam exam;
	int err = rolling_merge_examine(&exam, commit, w->tags, w->patterns);

	if (err < 0)
		goto out;
	if (!exam.findings_nr && exam.release) {
		r->since_release = exam.release;
		err = 1;
	} else if (vouched_by_embedded_tag(&exam)) {
		err = keep_embedded_release(&r->since_release, w, &exam) < 0 ? ROLLING_ERROR : 1;
	}
out:
	rolling_merge_exam_release(&exam);
	return err;
}

/*
 * Where --since lands: the user vouches for it (it was verified before,
 * or is the base release commit of a clone without its tag), so the
 * walk stops whatever it is.  Its release, when it is a rolling merge or
 * a release commit, is the baseline for the version order; a commit of
 * neither kind has none, and the steps after it are ordered among
 * themselves.  What matters is that it is on the first-parent chain:
 * the walk got here from the tip.
 */
static int reach_since(struct walk *w, const git_oid *since)
{
	struct rolling_verify_result *r = w->result;
	git_commit *commit;
	int err;

	r->since_found = 1;
	if ((r->since_release = rolling_tags_find_commit(w->tags, since)))
		return 0;
	if ((err = lookup(&commit, w->repo, since)) < 0)
		return err;
	if (!commit)
		return fail_missing(w, since, since, "commit");
	err = since_release(w, commit);
	git_commit_free(commit);
	return err < 0 ? err : 0;
}

/* The walk went past the end of the chain without meeting --since. */
static int fail_since(struct walk *w)
{
	const struct rolling_verify_result *r = w->result;
	struct strbuf expected = STRBUF_INIT, found = STRBUF_INIT;
	char h[GIT_OID_HEXSZ + 1], t[GIT_OID_HEXSZ + 1];

	strbuf_addf(&expected, "%s on the first-parent chain of %s",
		    hex(h, w->options->since), hex(t, &r->tip));
	if (r->has_base)
		strbuf_addf(&found, "not there: the chain ends at %s (%s) without it;"
			    " the branch was rewound or rewritten",
			    hex(h, &r->base), r->base_release->name);
	else
		strbuf_addstr(&found, "not there: the branch was rewound or rewritten");
	return fail_sb(w, ROLLING_CHECK_SINCE, w->options->since, &expected, &found);
}

/*
 * Where a shallow clone cuts the chain: git sees the boundary commit
 * without parents, so it cannot be a rolling merge whatever it records.
 * Returns 1 (after recording it) there.
 */
static int check_cut(struct walk *w, git_commit *commit)
{
	const git_oid *id = git_commit_id(commit);
	struct strbuf expected = STRBUF_INIT, found = STRBUF_INIT;
	char h[GIT_OID_HEXSZ + 1];
	size_t unused;
	int err;

	if (!rolling_oidmap_get(&w->shallow, id, &unused))
		return 0;
	strbuf_addf(&expected, "the parents of %s", hex(h, id));
	strbuf_addstr(&found, "cut off by the shallow clone (fetch with --unshallow)");
	err = fail_sb(w, ROLLING_CHECK_SHALLOW, id, &expected, &found);
	return err < 0 ? err : 1;
}

/*
 * Move to the first parent.  Returns 1 (after recording why) when the
 * chain ends here without a base: at a root commit.
 */
static int step_down(struct walk *w, git_commit *commit, git_oid *next)
{
	const git_oid *id = git_commit_id(commit);
	struct strbuf expected = STRBUF_INIT, found = STRBUF_INIT;
	char h[GIT_OID_HEXSZ + 1];
	int err;

	if (!git_commit_parentcount(commit)) {
		strbuf_addstr(&expected, "a release commit at the end of the first-parent chain");
		strbuf_addf(&found, "root commit %s, not a release commit", hex(h, id));
		err = fail_sb(w, ROLLING_CHECK_BASE, id, &expected, &found);
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
	git_oid tag;
	int err;

	/* A release commit is a base even at a shallow boundary: nothing below it counts. */
	if (!rolling_tags_find_commit(w->tags, git_commit_id(commit)) &&
	    (err = check_cut(w, commit)) != 0)
		return err;
	if ((err = check_step(&kind, &release, &tag, w, commit)) < 0)
		return err;
	w->below_claimed = kind == STEP_MERGE || rolling_merge_claimed(commit);
	if (kind == STEP_NO_BASE)
		return 1;
	if (is_tip && kind != STEP_FAILED)
		r->tip_release = release;
	if (kind == STEP_BASE) {
		r->has_base = 1;
		git_oid_cpy(&r->base, git_commit_id(commit));
		r->base_release = release;
		git_oid_cpy(&r->base_tag, &tag);
		return 1;
	}
	if (kind == STEP_MERGE &&
	    ((err = add_step(w, git_commit_id(commit), release, &tag)) < 0 ||
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
 *
 * "A peeled release commit" means: a release tag of this repository
 * leads to it, or, with --signatures only, the merge embeds a tag of
 * the release its subject names whose `object` is the second parent,
 * and git finds that tag's signature good.  A signed tag names its
 * commit by id, so the second case proves the same as the first to
 * whoever trusts the signer, without any tag ref.
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

	if (ALLOC_GROW(r->switches, r->switches_nr + 1, w->switches_alloc) < 0)
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
	size_t i;
	int err;

	for (i = 0; i < r->steps_nr; i++) {
		const struct rolling_release *release = r->steps[i].release;
		const struct rolling_series *s = &release->version.series;

		if (newest && rolling_version_cmp(&release->version, &newest->version) < 0) {
			struct strbuf expected = STRBUF_INIT, found = STRBUF_INIT;

			strbuf_addf(&expected, "%s or a later release", newest->name);
			strbuf_addf(&found, "%s: %s", release->name,
				    rolling_series_cmp(s, &newest->version.series) < 0 ?
				    "the series goes back" : "the version goes back");
			if ((err = fail_sb(w, ROLLING_CHECK_ORDER, &r->steps[i].merge, &expected,
					   &found)) < 0)
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

/* Is it one of the repository's release tags (not one embedded in a merge)? */
static int is_tag_release(const struct rolling_tags *tags, const struct rolling_release *release)
{
	return release >= tags->releases && release < tags->releases + tags->releases_nr;
}

/*
 * The release tags the proof stands on, read from their objects: the
 * peeled values in packed-refs (or the reftable records) that the tags
 * were loaded with are a cache a hostile repository can lie in, and a tag object may name
 * another release than the ref it is published as, or lie about the
 * type of what it tags.  Each tag is checked once, at the first commit
 * that relies on it.  (A release known only from a tag embedded in a
 * merge was read from that tag's bytes: --signatures vouches for it.)
 */
static int check_releases(struct walk *w)
{
	struct rolling_verify_result *r = w->result;
	unsigned char *seen = calloc(w->tags->releases_nr + 1, 1);
	size_t i;
	int err = 0;

	if (!seen)
		return rolling_error_nomem();
	for (i = 0; i <= r->steps_nr && !err; i++) {
		const struct rolling_release *release = i ? r->steps[i - 1].release :
			r->has_base ? r->base_release : NULL;
		struct strbuf expected = STRBUF_INIT, found = STRBUF_INIT;
		const char *problem;
		size_t index;
		int sound;

		if (!release || !is_tag_release(w->tags, release) ||
		    seen[index = (size_t)(release - w->tags->releases)])
			continue;
		seen[index] = 1;
		if ((sound = rolling_release_check(&problem, w->tags, release)) < 0) {
			err = sound;
			break;
		}
		if (sound)
			continue;
		strbuf_addf(&expected, "release tag %s, as its objects say", release->name);
		strbuf_addf(&found, "%s: %s", release->name, problem ? problem : "unusable");
		err = fail_sb(w, ROLLING_CHECK_TAG, i ? &r->steps[i - 1].merge : &r->base,
			      &expected, &found);
	}
	free(seen);
	return err;
}

/* The tags to check: the base's and every step's, each once. */
struct signed_tags {
	git_oid *ids;
	const char **names;
	const git_oid **commits;     /* the first step (or the base) vouched for */
	enum rolling_signature_status *status;
	size_t nr;
	struct rolling_oidmap seen;
};

static int collect_tags(struct signed_tags *t, const struct rolling_verify_result *r)
{
	size_t max = r->steps_nr + 1, i, unused;

	t->ids = calloc(max, sizeof(*t->ids));
	t->names = calloc(max, sizeof(*t->names));
	t->commits = calloc(max, sizeof(*t->commits));
	t->status = calloc(max, sizeof(*t->status));
	if (!t->ids || !t->names || !t->commits || !t->status)
		return rolling_error_nomem();
	for (i = 0; i <= r->steps_nr; i++) {
		const struct rolling_verify_step *step = i ? &r->steps[i - 1] : NULL;
		const git_oid *tag = step ? &step->tag : &r->base_tag;

		if ((!step && !r->has_base) || rolling_oidmap_get(&t->seen, tag, &unused))
			continue;
		if (rolling_oidmap_put(&t->seen, tag, t->nr) < 0)
			return ROLLING_ERROR;
		git_oid_cpy(&t->ids[t->nr], tag);
		t->names[t->nr] = step ? step->release->name : r->base_release->name;
		t->commits[t->nr++] = step ? &step->merge : &r->base;
	}
	return 0;
}

static void free_tags(struct signed_tags *t)
{
	free(t->ids);
	free(t->names);
	free(t->commits);
	free(t->status);
	rolling_oidmap_release(&t->seen);
}

/*
 * The signatures of the tags vouching for the base and every step, each
 * tag once, checked by git (rolling_tag_object_signatures()).
 */
static int check_signatures(struct walk *w)
{
	struct rolling_verify_result *r = w->result;
	struct signed_tags t = { NULL, NULL, NULL, NULL, 0, { NULL, 0, 0 } };
	struct rolling_progress *progress;
	char h[GIT_OID_HEXSZ + 1];
	size_t i;
	int err;

	if ((err = collect_tags(&t, r)) < 0)
		goto out;
	progress = rolling_progress_start("Verifying signatures", t.nr, w->options->progress);
	err = rolling_tag_object_signatures(t.status, w->repo, t.ids, t.nr, w->embedded,
					    w->embedded_nr, w->options->object_dirs, progress);
	rolling_progress_stop(&progress);
	if (err < 0)
		goto out;
	for (i = 0; i < t.nr && !err; i++) {
		struct strbuf expected = STRBUF_INIT, found = STRBUF_INIT;

		if (t.status[i] == ROLLING_SIGNATURE_GOOD) {
			r->signatures_good++;
			continue;
		}
		if (rolling_tags_find_name(w->tags, w->patterns, t.names[i]))
			strbuf_addf(&expected, "a good signature on tag %s (see git verify-tag %s)",
				    t.names[i], t.names[i]);
		else
			strbuf_addf(&expected, "a good signature on tag %s %s, embedded in the merge",
				    t.names[i], hex(h, &t.ids[i]));
		strbuf_addf(&found, "%s: %s", t.names[i], rolling_signature_status_name(t.status[i]));
		err = fail_sb(w, ROLLING_CHECK_SIGNATURE, t.commits[i], &expected, &found);
	}
out:
	free_tags(&t);
	return err;
}

/*
 * A rolling merge need not be signed, but a signature it carries must be
 * good: a bad one is a forgery of whoever it names.
 */
static int check_merge_signatures(struct walk *w)
{
	char h[GIT_OID_HEXSZ + 1];
	int *good;
	size_t i;
	int err;

	if (!w->signed_merges_nr)
		return 0;
	if (!(good = calloc(w->signed_merges_nr, sizeof(*good))))
		return rolling_error_nomem();
	err = rolling_commit_signatures(good, w->repo, w->signed_merges, w->signed_merges_nr,
					w->options->object_dirs);
	for (i = 0; i < w->signed_merges_nr && !err; i++) {
		struct strbuf expected = STRBUF_INIT, found = STRBUF_INIT;

		if (good[i])
			continue;
		strbuf_addf(&expected, "a good signature on the merge, or none"
			    " (see git verify-commit %s)", hex(h, &w->signed_merges[i]));
		strbuf_addstr(&found, "a commit signature git does not accept");
		err = fail_sb(w, ROLLING_CHECK_SIGNATURE, &w->signed_merges[i], &expected, &found);
	}
	free(good);
	return err;
}

static int report_replacement(struct walk *w, const struct rolling_hazard *h)
{
	struct strbuf expected = STRBUF_INIT, found = STRBUF_INIT;
	char by[GIT_OID_HEXSZ + 1];

	strbuf_addstr(&expected, "no replacement: git and git rolling must see the same objects");
	if (h->honoured)
		strbuf_addf(&found, "%s makes git read %s instead", h->refname,
			    hex(by, &h->replacement));
	else
		strbuf_addf(&found, "%s, which git skips today as a bad replace ref name",
			    h->refname);
	return fail_sb(w, ROLLING_CHECK_REPLACE, h->honoured ? &h->oid : &h->replacement,
		       &expected, &found);
}

static int report_replacements(struct walk *w)
{
	struct rolling_hazard *list;
	size_t nr, i;
	int err;

	if ((err = rolling_hazard_replacements(&list, &nr, w->repo)) < 0)
		return err;
	for (i = 0; i < nr && !err; i++)
		err = report_replacement(w, &list[i]);
	rolling_hazard_free(list, nr);
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
	rolling_hazard_free(list, nr);
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
	static const struct rolling_verify_options defaults = { NULL, 0, 0, 0, NULL };
	struct walk w = { result, repo, tags, patterns, options ? options : &defaults,
			  { NULL, 0, 0 }, 0, 0, 0, 0, NULL, 0, 0, 0, NULL, 0, 0 };
	size_t i;
	int err;

	memset(result, 0, sizeof(*result));
	git_oid_cpy(&result->tip, tip);
	if ((err = check_hazards(&w)) < 0 || (err = walk_chain(&w)) < 0)
		goto out;
	reverse_steps(result);
	if ((err = check_order(&w)) < 0 || (err = check_releases(&w)) < 0)
		goto out;
	if (w.options->signatures &&
	    ((err = check_signatures(&w)) < 0 || (err = check_merge_signatures(&w)) < 0))
		goto out;
	/* A merge's subject matched past a bound reads as "not a release": say why. */
	err = rolling_patterns_check(patterns);
out:
	rolling_oidmap_release(&w.shallow);
	/* The walk owns these bytes (adopt_embedded()); readers see them const. */
	for (i = 0; i < w.embedded_nr; i++)
		free((void *)(uintptr_t)w.embedded[i].data);
	free(w.embedded);
	free(w.signed_merges);
	return err;
}

void rolling_verify_result_release(struct rolling_verify_result *result)
{
	size_t i;

	for (i = 0; i < result->failures_nr; i++) {
		free(result->failures[i].expected);
		free(result->failures[i].found);
	}
	for (i = 0; i < result->embedded_releases_nr; i++) {
		free(result->embedded_releases[i]->name);
		free(result->embedded_releases[i]);
	}
	free(result->embedded_releases);
	free(result->failures);
	free(result->steps);
	free(result->switches);
	memset(result, 0, sizeof(*result));
}
