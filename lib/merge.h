#ifndef ROLLING_MERGE_H
#define ROLLING_MERGE_H

#include <git2.h>
#include "ident.h"
#include "tags.h"
#include "signature.h"
#include "strbuf.h"

/*
 * The rolling merge, defined once.  The maintainers' recipe
 *
 *	git merge -s ours --no-ff --no-commit <tag>
 *	git read-tree -um <tag>
 *	git commit -s -m "Merge <tag>"     (with the release commit's dates)
 *
 * makes a commit whose bytes this module writes (rolling_merge_create_plan)
 * and recognises (rolling_merge_examine): advance, the chain walk,
 * verify and verify --rebuild all ask it, so what verify proves is what
 * advance builds.
 */

/*
 * Add a date as a commit carries it: "1700000000 +0100", and "-0000"
 * where the commit says -0000.
 */
void rolling_merge_add_time(struct strbuf *sb, const git_time *when);

/*
 * Add a date as git writes it into a new commit given the same date:
 * git reads a zone of -0000 as +0000 (date.c keeps the offset, not its
 * sign), so the recipe's merge of a release dated -0000 says +0000.
 */
void rolling_merge_add_written_time(struct strbuf *sb, const git_time *when);

/*
 * Add the message of a rolling merge, byte for byte what `git commit -s
 * -m "Merge <tag>"` writes.
 */
void rolling_merge_add_message(struct strbuf *sb, const char *tag_name,
			       const struct rolling_ident *ident, int signoff);

/*
 * The bytes of the rolling merge of `release` on top of `tip`: parents
 * [tip, release commit], the release commit's tree, `ident` as author
 * and committer with the release commit's author and committer dates,
 * the mergetag header when the release tag is signed, and the message.
 * `embedded`, when not NULL, is the signed tag to embed instead of the
 * one the repository's ref names (a release known only from the tag
 * its merge embeds).  The caller frees *raw.
 */
int rolling_merge_bytes(char **raw, size_t *len, git_repository *repo, const git_oid *tip,
			const struct rolling_release *release,
			const struct rolling_ident *ident, int signoff,
			const struct rolling_tag_bytes *embedded);

struct rolling_plan;

/*
 * Write the rolling merges of a plan (rolling_plan_steps()), each on the
 * one before (rolling_merge_bytes()), from *tip, which ends at the last
 * one; the same inputs give the same commit ids on every machine.
 * `merges`, when not NULL, receives the merge of each step (plan->nr
 * ids).  Writes only the commit objects (nothing at all with `dry_run`,
 * which just computes the ids); no ref moves.  advance, advance
 * --dry-run, status and init --backfill all make their merges here, so
 * they make the same ones.
 */
int rolling_merge_create_plan(git_oid *tip, git_oid *merges, git_repository *repo,
			      const struct rolling_plan *plan,
			      const struct rolling_ident *ident, int signoff, int dry_run);

/*
 * Whether a merge's message carries the recipe's sign-off trailer (`git
 * commit -s`): the convention a rebuild follows.
 */
int rolling_merge_has_signoff(const char *message);

/*
 * Whether a header key (`len` bytes at `key`) is one the recipe writes:
 * tree, parent, author, committer and mergetag.
 */
int rolling_merge_is_recipe_header(const char *key, size_t len);

/*
 * The name a rolling merge's subject ("Merge <tag>", from
 * git_commit_summary()) gives its release, pointing into `summary`; NULL
 * when the subject has not that form.  It need not be a release tag
 * name: rolling_merge_examine() checks that.
 */
const char *rolling_merge_subject_name(const char *summary);

/*
 * Whether a commit presents itself as a merge (two or more parents, or a
 * subject "Merge ..."), so that the reasons it is not a rolling merge
 * say more than "a plain commit".
 */
int rolling_merge_claimed(git_commit *commit);

/* Why a commit is not a rolling merge. */
enum rolling_merge_fault {
	ROLLING_MERGE_PARENTS,    /* not exactly two parents */
	ROLLING_MERGE_SUBJECT,    /* the subject is not "Merge <release tag name>" */
	ROLLING_MERGE_TAG,        /* no such release tag, or it is not the second parent */
	ROLLING_MERGE_TREE,       /* the tree is not the second parent's */
	ROLLING_MERGE_UNREADABLE, /* the second parent cannot be read (see `unreadable`) */
	ROLLING_MERGE_MERGETAG,   /* the embedded tag is not the release's */
	ROLLING_MERGE_HEADER,     /* a header the recipe never writes */
};

struct rolling_merge_finding {
	enum rolling_merge_fault fault;
	char *expected;
	char *found;
};

/*
 * What a commit says about itself as a rolling merge.  `findings` lists
 * every reason it is not one; none, with `release` set, means it is.
 */
struct rolling_merge_exam {
	/* The release tag the subject names, when the repository has it. */
	const struct rolling_release *release;
	/*
	 * The subject names a release this repository has no tag for, but
	 * the merge embeds a well-formed tag of that name pointing to its
	 * second parent: the release as the embedded tag describes it
	 * (its `tag` is the embedded tag's id).  Only a good signature on
	 * that tag can make it a release (verify --signatures).
	 */
	struct rolling_release *embedded_release;
	/* The first mergetag header, unindented; NULL when there is none. */
	char *mergetag;
	size_t mergetag_len;
	git_oid mergetag_id;
	git_oid unreadable;     /* with ROLLING_MERGE_UNREADABLE */
	int has_gpgsig;         /* it carries a commit signature */
	struct rolling_merge_finding *findings;
	size_t findings_nr, findings_alloc;
	int findings_oom;       /* a reason could not be kept: the exam fails */
};

/*
 * Examine `commit` as a rolling merge of the release its subject names:
 * two parents, the subject "Merge <tag>" naming a release tag that leads
 * to the second parent, the second parent's tree, at most one mergetag
 * and only a tag of that release in it (the very tag object the ref
 * names, when the repository has the tag), and no header but those the
 * recipe writes (and gpgsig, left to signature checks).  Reads the
 * commit and its second parent.  Returns 0 (the verdict is in *exam,
 * freed with rolling_merge_exam_release() also after an error) or a
 * negative error.
 */
int rolling_merge_examine(struct rolling_merge_exam *exam, git_commit *commit,
			  const struct rolling_tags *tags, struct rolling_patterns *patterns);

void rolling_merge_exam_release(struct rolling_merge_exam *exam);

/*
 * Is `commit` a rolling merge of a release tag this repository has?
 * rolling_merge_examine() without the reasons.  Returns 1 with *release
 * set, 0 when it is not, or a negative error.
 */
int rolling_merge_identify(const struct rolling_release **release, git_commit *commit,
			   const struct rolling_tags *tags, struct rolling_patterns *patterns);

/*
 * The release a rolling branch stands at: its tip is either a release
 * commit (a freshly created branch) or a rolling merge.  Anything else
 * is an error, because advancing it would hide foreign commits.
 */
int rolling_tip_release(const struct rolling_release **release, git_repository *repo,
			const git_oid *tip, const struct rolling_tags *tags,
			struct rolling_patterns *patterns);

#endif
