#ifndef ROLLING_BRANCH_H
#define ROLLING_BRANCH_H

#include <git2.h>
#include "config.h"
#include "ident.h"
#include "pattern.h"
#include "tags.h"
#include "policy.h"
#include "preset.h"

/* Everything needed to reason about one rolling branch. */
struct rolling_branch {
	struct rolling_config config;
	struct rolling_patterns patterns;
	struct rolling_policy policy;
	struct rolling_tags tags;
};

/*
 * Prepare a branch from its configuration, which the branch takes over
 * (it is freed with the branch, also on error): compile the patterns,
 * read the tags, check the policy; a tag that matches both patterns is
 * an error (rolling_tags_check_unambiguous()).
 */
int rolling_branch_prepare(struct rolling_branch *b, git_repository *repo,
			   struct rolling_config *config);

/* Read rolling.<name>.* and prepare the branch. */
int rolling_branch_load(struct rolling_branch *b, git_repository *repo, const char *name);

struct strbuf;

/* GIT_REFNAME_MAX of libgit2's src/libgit2/refs.h, which is not public. */
#define ROLLING_LIBGIT2_REFNAME_MAX 1024

/*
 * Put refs/heads/<name> in `refname`.  libgit2 1.5 takes ref names of
 * at most 1023 bytes (git has no such limit): a longer one is an error
 * that says so, where libgit2 would speak of its buffer.
 */
int rolling_branch_refname(struct strbuf *refname, const char *name);

/*
 * The tip of refs/heads/<name>: ROLLING_ENOTFOUND when the branch does
 * not exist.
 */
int rolling_branch_tip(git_oid *tip, git_repository *repo, const char *name);

/*
 * Who makes the branch's rolling merges: rolling.<branch>.ident when
 * set, else user.name and user.email (rolling_ident_for()).  Free with
 * rolling_ident_release().
 */
int rolling_branch_ident(struct rolling_ident *ident, git_repository *repo,
			 const struct rolling_branch *b);

void rolling_branch_release(struct rolling_branch *b);

/*
 * Open a rolling branch for reading, as the commands that inspect one
 * (describe, bisect-helper) name it.  Without patterns, `name` is a
 * configured rolling branch: rolling.<name>.* and refs/heads/<name>.
 * With both patterns, `name` is any revision at the tip of a rolling
 * branch that git rolling does not manage (one fetched from elsewhere,
 * say), read with those tag patterns.  Sets *tip to its commit.
 */
int rolling_branch_open(struct rolling_branch *b, git_oid *tip, git_repository *repo,
			const char *name, const char *release_re, const char *mainline_re);

/*
 * The tag patterns for a branch named on the command line: none (both
 * NULL: a configured branch) unless a preset or a pattern is given;
 * then both must be known, a pattern given overriding the preset's.
 */
int rolling_patterns_from_options(const char **release_re, const char **mainline_re,
				  const struct rolling_scheme_options *o);

/*
 * The same for the commands that read a branch given with --branch
 * (describe, bisect-helper): there the patterns describe that branch,
 * so without `branch` they are an error.
 */
int rolling_patterns_for_branch(const char **release_re, const char **mainline_re,
				const struct rolling_scheme_options *o, const char *branch);

/*
 * Open any rolling branch or revision for reading, with the tag patterns
 * from the first of: the options (a preset or both patterns), the
 * branch's own rolling.<name>.* when it is configured, the linux preset.
 * So a fetched branch can be read without init.  *from says which
 * (static strings).
 */
struct rolling_pattern_source {
	const char *source;     /* "options", "preset", "config" or "default" */
	const char *preset;     /* the preset whose patterns are used, or NULL */
};

int rolling_branch_open_any(struct rolling_branch *b, git_oid *tip,
			    struct rolling_pattern_source *from, git_repository *repo,
			    const char *name, const struct rolling_scheme_options *scheme);

#endif
