#ifndef ROLLING_PUSH_LOG_H
#define ROLLING_PUSH_LOG_H

#include <git2.h>

/*
 * Who published a rolling branch's tip, and is it the newest push?  The
 * answer comes from a server's push log (push-record.h): a local clone
 * of a public-inbox v2 archive, either one epoch repository or the
 * directory holding the epochs `N.git` (or `git/N.git` below it).  Each
 * epoch is read along the first-parent chain of its HEAD, from raw
 * objects (git_odb_read()): no replace ref, graft or commit-graph of the
 * log's own can change what is read, and a merge or a commit without the
 * message `m` (public-inbox's deletion `d`) is refused, since a
 * transparency log only ever appends.
 *
 * The checks, for the record of the followed repository and ref whose
 * `new` is the tip:
 *
 *  published  the record exists, says git_push_cert_status G, carries a
 *             push certificate naming the same <old> <new> <ref> and a
 *             pushee whose path is the repository, signed by a key git's
 *             configuration trusts (signature.h), and by one of
 *             `pushers` when any are given;
 *  newest     no later record for the ref: else the count of later
 *             pushes and the newest one are reported, and it is a
 *             failure only with `require_latest`;
 *  unbroken   from the push the branch was last checked at (remembered)
 *             to the tip, each record's old is the previous record's new
 *             and every new lies on the tip's first-parent chain;
 *  grows      the log still holds, on each epoch's first-parent chain,
 *             the last commit read before.
 *
 * What was read is remembered in the user's repository, so that the
 * next check reads only what is new: the ref
 * refs/rolling/push-log/<hex>, where <hex> is the SHA-1 of the log's
 * absolute path, the repository and the ref (so nothing needs
 * configuring and two logs or two branches never share one), names a
 * blob holding, in lines of text, the last commit read of each epoch
 * (with its date, for "rewritten since"), the tip last verified, and
 * the index of the records for that repository and ref: epoch, log
 * commit, old, new and date, in log order, a few thousand of the
 * hundreds of thousands a log holds.  The index is a cache of what the
 * log says, never the evidence: the record a verdict rests on is read
 * again from the log and must say what the index says, else the index
 * is thrown away and the log read anew; a blob that does not parse, or
 * names another log, is thrown away the same way.
 */

enum rolling_push_log_check {
	ROLLING_PUSH_LOG_PUBLISHED,
	ROLLING_PUSH_LOG_NEWEST,
	ROLLING_PUSH_LOG_UNBROKEN,
	ROLLING_PUSH_LOG_GROWS,
	ROLLING_PUSH_LOG_RECORD,     /* a malformed record, or two claiming one new */
};

/* "published", "newest", "unbroken", "grows", "record". */
const char *rolling_push_log_check_name(enum rolling_push_log_check check);

struct rolling_push_log_options {
	const char *log;
	const char *repo_name;
	const char *ref;
	/* Who may publish: SSH principals or key fingerprints, GnuPG fingerprints or user ids. */
	const char *const *pushers;
	size_t pushers_nr;
	const char *pushers_key;     /* the config key that listed them, for messages */
	int require_latest;
};

/* A record for the followed repository and ref, as the index keeps it. */
struct rolling_push_log_entry {
	unsigned epoch;
	git_oid commit;              /* the log commit that added it */
	git_oid old_id, new_id;
	long long time;              /* the certificate's, else the Date header's; -1 */
};

struct rolling_push_log_failure {
	enum rolling_push_log_check check;
	char *message;
};

struct rolling_push_log_result {
	git_oid tip;
	int published;               /* the tip's record is evidence */
	struct rolling_push_log_entry tip_entry;
	int tip_found;
	char *signer, *fingerprint;  /* who signed the tip's certificate, when good */
	/* The newest record for the ref, and how many come after the tip's. */
	int has_newest;
	struct rolling_push_log_entry newest;
	size_t later;
	/* The chain checked: from `checked` (when has_checked) over chain_nr pushes. */
	int has_checked;
	git_oid checked;
	size_t chain_nr;
	size_t records_read;         /* log commits read this time */
	size_t records_relevant;     /* records for the repository and ref, in all */
	struct rolling_push_log_failure *failures;
	size_t failures_nr, failures_alloc;
};

/*
 * Check `tip` against the push log.  Returns 0 when the checks ran,
 * whatever their verdict (no failures: all passed), or a negative error
 * when they could not (the log cannot be opened, git cannot run, no
 * memory).  When the log was read whole, what was read is remembered
 * (above), and the tip as the last one checked when nothing failed.
 * Release the result with rolling_push_log_result_release(), also after
 * an error.
 */
int rolling_push_log_check(struct rolling_push_log_result *result, git_repository *repo,
			   const git_oid *tip, const struct rolling_push_log_options *options);

void rolling_push_log_result_release(struct rolling_push_log_result *result);

/* "YYYY-MM-DD" of a time (UTC) into buf (at least 11 bytes); "an unknown date" for -1. */
const char *rolling_push_log_date(char *buf, size_t size, long long time);

#endif
