#ifndef ROLLING_FETCH_PLAN_H
#define ROLLING_FETCH_PLAN_H

#include <git2.h>
#include "fetch-objects.h"
#include "fetch-view.h"
#include "pattern.h"
#include "preset.h"
#include "remote-config.h"
#include "remote-refs.h"
#include "quarantine.h"
#include "tags.h"
#include "verify.h"

/*
 * What `git rolling fetch <remote>` fetches and what it will change
 * here: one git fetch of the branches, with the tags git follows, into
 * a quarantine (fetch-objects.h), then, from what the server advertised
 * for it (remote-refs.h) and this repository's refs and tags, which
 * tags the new steps need, whether each branch verifies, and which refs
 * move.  The command reports and decides to stop; every function here
 * returns 0 or a negative error with a message.
 *
 * In order:
 *
 *	rolling_fetch_plan_init()        the remote and the branches
 *	rolling_fetch_plan_read()        our tags (and git config, meanwhile)
 *	rolling_fetch_plan_fetch()       the one connection: the tips and the tags
 *	rolling_fetch_plan_needed_tags()
 *	rolling_fetch_plan_add_tags()
 *	rolling_fetch_plan_verify()      for each changed branch
 *	rolling_fetch_plan_update_refs()
 *	rolling_fetch_plan_release()        also after an error
 */

/* One rolling branch of the remote, from what we had to what we accept. */
struct rolling_fetch_branch {
	const char *branch;       /* borrowed: the command line's or the configuration's */
	char *name;               /* "<remote>/<branch>", for the report */
	char *remote_ref;         /* refs/heads/<branch> on the server */
	char *tracking_ref;       /* refs/remotes/<remote>/<branch> */
	char *verified_ref;       /* refs/rolling/verified/<remote>/<branch> */
	int has_tracking, has_verified;
	git_oid tracking, verified;
	int had_verified;         /* has_verified and verified as the fetch found them, */
	git_oid was_verified;     /* for the report: a lost race updates those two */
	git_oid tip;              /* the server's, once read */
	int rewound;              /* accepted after a full verify (allow_rewind) */
	struct rolling_verify_result result;
	/*
	 * Another process moved the refs while this run verified: to the
	 * tip this run verified (ROLLING_RACE_SAME), or to a descendant
	 * that verifies since it (ROLLING_RACE_DESCENDANT; `tip` is then
	 * that descendant and `verified_tip` what this run verified).
	 */
	enum { ROLLING_RACE_NONE, ROLLING_RACE_SAME, ROLLING_RACE_DESCENDANT } raced;
	git_oid verified_tip;
};

struct rolling_fetch_plan {
	git_repository *repo;                  /* borrowed */
	const char *remote;                    /* borrowed */
	struct rolling_remote_config config;   /* rolling.remote.<remote>.* */
	struct rolling_fetch_branch *branches;
	size_t nr;
	int signatures;                        /* verify the tags' signatures */
	struct rolling_patterns patterns;
	struct rolling_tags tags;
	struct rolling_fetch_view_config view_config;  /* listed while the tags are read */
	struct rolling_fetch_view view;        /* where git fetch ran */
	struct rolling_remote_refs advertised;
	/* Release tags the new steps need that this repository lacks. */
	struct rolling_tag_ref *needed;
	size_t needed_nr, needed_alloc;
};

/*
 * `remote` must be a valid remote name with a remote.<remote>.url.  The
 * branches are the `named` ones, or else rolling.remote.<remote>.branches;
 * each must be a valid branch name.  `signatures` -1 takes
 * rolling.remote.<remote>.signatures.  The tag patterns are the first
 * of: `scheme` (a preset or both patterns), the remote's configured
 * patterns, the default preset.  Reads the tracking and verified refs
 * of each branch.
 */
int rolling_fetch_plan_init(struct rolling_fetch_plan *plan, git_repository *repo,
			    const char *remote, const char *const *named, size_t named_nr,
			    int signatures, const struct rolling_scheme_options *scheme);

/*
 * Read this repository's tags, which the fetch and the walk below need,
 * while git lists the configuration for the fetch's view.
 */
int rolling_fetch_plan_read(struct rolling_fetch_plan *plan);

/*
 * The fetch, one connection to the server: git fetch of every branch
 * into a view of the repository made inside the quarantine `q` (which
 * `plan->repo` must read: rolling_quarantine_add_to()), with the tags
 * git follows (fetch-view.h); then read what it fetched
 * (plan->advertised) and set each branch's tip.  A branch the server
 * lacks is an error (git's own: "couldn't find remote ref ...").
 * `progress`: git shows its progress (else only its errors).
 *
 * git follows the server's tags that point into what it sends or at an
 * object the repository has, and whose names the view lacks (the
 * repository's, but for release tags the tags read above do not have,
 * which another fetch may have written since): among them every release
 * tag of a new step (its release commit is the merge's second parent)
 * and the base's the first time.  Tags of other series, whose history
 * the branch does not hold, are not fetched at all; those fetched that
 * no step needs get no ref here (their objects, once verified, wait for
 * gc).
 */
int rolling_fetch_plan_fetch(struct rolling_fetch_plan *plan, const struct rolling_quarantine *q,
			     int progress);

/*
 * Once fetched: walk the new part of each chain as verify will (first
 * parents from the tip down to the tip verified last time, to a commit
 * one of our release tags names, or to the base, a commit that a
 * release tag of the server names), and note in plan->needed the
 * release tags its steps name that this repository lacks.  With
 * signatures, a merge that embeds its tag (a mergetag header) needs no
 * tag ref.  The walk gives up where verify would, so a hostile server
 * cannot make it read more than verify does.
 */
int rolling_fetch_plan_needed_tags(struct rolling_fetch_plan *plan);

/* Once the needed tags' objects can be read: add them to plan->tags. */
int rolling_fetch_plan_add_tags(struct rolling_fetch_plan *plan);

/* The branch is where we verified it last: nothing to verify or move. */
int rolling_fetch_branch_unchanged(const struct rolling_fetch_branch *b);

/*
 * Verify the new steps of a changed branch into b->result (failures are
 * no error).  With `allow_rewind`, a branch that fails only because it
 * does not descend from the tip verified last time is verified again
 * in full, and accepted (b->rewound) if all of it verifies.  The git
 * that checks signatures also reads `object_dirs` (the quarantine the
 * fetched objects wait in; rolling_verify_options).
 */
int rolling_fetch_plan_verify(struct rolling_fetch_plan *plan, struct rolling_fetch_branch *b,
			      int allow_rewind, const char *object_dirs);

/*
 * Move every ref the fetch changes, all or none (rolling_ref_transaction()):
 * each branch's tracking and verified refs to its tip, and
 * refs/tags/<name> for each needed tag, with reflog messages that say
 * what was verified.
 *
 * When another process moved some of them meanwhile, they are read
 * again: a ref that holds what this run would write is left as it is; a
 * branch whose two refs both hold a descendant of the tip this run
 * verified, which verifies since that tip, is left there too (b->raced
 * says which); the others are moved from where they are now.  Only a
 * ref that holds something else fails the update, with
 * ROLLING_EMODIFIED and nothing changed.  ROLLING_EPARTIAL as
 * rolling_ref_transaction() returns it.
 */
int rolling_fetch_plan_update_refs(struct rolling_fetch_plan *plan);

void rolling_fetch_plan_release(struct rolling_fetch_plan *plan);

#endif
