#ifndef ROLLING_FETCH_PLAN_H
#define ROLLING_FETCH_PLAN_H

#include <git2.h>
#include "fetch-objects.h"
#include "pattern.h"
#include "preset.h"
#include "remote-config.h"
#include "remote-refs.h"
#include "tags.h"
#include "verify.h"

/*
 * What `git rolling fetch <remote>` needs from the server and what it
 * will change here, decided from the server's advertisement and this
 * repository's refs and tags: which tips and which release tags to
 * fetch, which tags the new steps need, whether each branch verifies,
 * and which refs move.  The command fetches the objects (into a
 * quarantine: fetch-objects.h), reports, and decides to stop; every
 * function here returns 0 or a negative error with a message.
 *
 * In order:
 *
 *	rolling_fetch_plan_list()        (may come first of all) the server's refs
 *	rolling_fetch_plan_init()        the remote and the branches
 *	rolling_fetch_plan_read()        the server's refs, our tags
 *	rolling_fetch_plan_wants_tips()  fetch plan->wants
 *	rolling_fetch_plan_wants_tags()  fetch plan->wants (may be none)
 *	rolling_fetch_plan_add_tags()
 *	rolling_fetch_plan_verify()      for each changed branch
 *	rolling_fetch_plan_update_refs()
 *	rolling_fetch_plan_free()        also after an error
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

/*
 * The server's new release tags are fetched with the tips when there
 * are at most this many (a week's releases): that saves a second round
 * trip.  More mean the tags were never fetched (a first fetch): then
 * only those the new steps need are fetched, once the steps are known.
 */
#define ROLLING_FETCH_MAX_PREFETCH 32

struct rolling_fetch_plan {
	git_repository *repo;                  /* borrowed */
	const char *remote;                    /* borrowed */
	struct rolling_remote_config config;   /* rolling.remote.<remote>.* */
	struct rolling_fetch_branch *branches;
	size_t nr;
	int signatures;                        /* verify the tags' signatures */
	struct rolling_patterns patterns;
	struct rolling_tags tags;
	struct rolling_remote_refs advertised;
	/* What to fetch next; pointers into the plan. */
	struct rolling_fetch_want *wants;
	size_t wants_nr, wants_alloc;
	/* Release tags the new steps need that this repository lacks. */
	struct rolling_tag_ref *needed;
	size_t needed_nr, needed_alloc;
	int tags_prefetched;     /* every tag the steps can need came with the tips */
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
 * Start listing the server's branches and tags (git ls-remote of
 * `remote` if git finds it configured: remote-refs.h), as early as the
 * caller likes: before libgit2 is set up or the repository opened, the
 * server's answer is the longest wait of a fetch.  A listing that
 * rolling_fetch_plan_read() will not finish is ended with
 * rolling_remote_refs_abandon().
 */
int rolling_fetch_plan_list(struct rolling_remote_listing *listing, const char *remote);

/*
 * Read the listing (started now when `listing` was not) while this
 * repository's tags are read, and set each branch's tip; every branch
 * must be on the server.  The listing is finished also on an error.
 */
int rolling_fetch_plan_read(struct rolling_fetch_plan *plan,
			    struct rolling_remote_listing *listing);

/*
 * plan->wants: the tips that moved since they were verified and,
 * without signatures (where the steps' embedded tags may make tags
 * needless), the server's release tags that this repository lacks when
 * they are at most ROLLING_FETCH_MAX_PREFETCH (plan->tags_prefetched).
 */
int rolling_fetch_plan_wants_tips(struct rolling_fetch_plan *plan);

/*
 * Once the tips' objects can be read: walk the new part of each chain
 * as verify will (first parents from the tip down to the tip verified
 * last time, to a commit one of our release tags names, or to the base,
 * a commit that a release tag of the server names), and note in
 * plan->needed the release tags its steps name that this repository
 * lacks.  With signatures, a merge that embeds its tag (a mergetag
 * header) needs no tag ref.  The walk gives up where verify would, so
 * a hostile server cannot make it read more than verify does.  Then
 * plan->wants: the needed tags not fetched with the tips.
 */
int rolling_fetch_plan_wants_tags(struct rolling_fetch_plan *plan);

/* Once the needed tags' objects can be read: add them to plan->tags. */
int rolling_fetch_plan_add_tags(struct rolling_fetch_plan *plan);

/* The branch is where we verified it last: nothing to verify or move. */
int rolling_fetch_branch_unchanged(const struct rolling_fetch_branch *b);

/*
 * Verify the new steps of a changed branch into b->result (failures are
 * no error).  With `allow_rewind`, a branch that fails only because it
 * does not descend from the tip verified last time is verified again
 * in full, and accepted (b->rewound) if all of it verifies.
 */
int rolling_fetch_plan_verify(struct rolling_fetch_plan *plan, struct rolling_fetch_branch *b,
			      int allow_rewind);

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

void rolling_fetch_plan_free(struct rolling_fetch_plan *plan);

#endif
