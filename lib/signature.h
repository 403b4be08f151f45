#ifndef ROLLING_SIGNATURE_H
#define ROLLING_SIGNATURE_H

#include <git2.h>
#include "progress.h"

enum rolling_signature_status {
	ROLLING_SIGNATURE_GOOD,
	ROLLING_SIGNATURE_LIGHTWEIGHT,   /* the ref names the commit: no tag object */
	ROLLING_SIGNATURE_UNSIGNED,      /* a tag object without a signature */
	ROLLING_SIGNATURE_BAD,           /* git verify-tag rejects the signature */
	ROLLING_SIGNATURE_NO_KEY,        /* git has no public key to check it with */
};

/*
 * Whether a tag object's bytes carry a signature: a line that starts
 * with one of the armours git recognises (gpg-interface.c; PGP, X.509
 * or SSH).  This is git's test for embedding a tag in a merge, too.
 */
int rolling_buffer_has_signature(const char *data, size_t size);

/*
 * The length of the armour line git recognises ("-----BEGIN PGP
 * SIGNATURE-----" and the others) that the `len` bytes at `line` begin
 * with, without its newline; 0 when they begin with none.
 */
size_t rolling_signature_armour(const char *line, size_t len);

/* A tag object that need not be in the repository: one embedded in a merge. */
struct rolling_tag_bytes {
	git_oid id;
	const char *data;
	size_t size;
};

/*
 * Check the signatures of the tag objects ids[i] into status[i].
 * Unsigned tags are recognised here (an object that is not a tag is
 * ROLLING_SIGNATURE_LIGHTWEIGHT); signed ones are handed to `git
 * verify-tag` (one process for many tags), so that gpg.program,
 * gpg.format, the SSH allowed-signers file and gpg.minTrustLevel count
 * exactly as they do for git.  git runs without replace objects
 * (--no-replace-objects), so it checks the very tag object read here.
 * A signature git does not accept is looked at once more, alone, to tell
 * a missing key (gpg's NO_PUBKEY, an SSH key in no allowed-signers
 * entry, or no allowed-signers file) from a bad signature.  An id that the repository does not
 * hold is taken from `extra`; those objects are written to a temporary
 * object directory that git reads as an alternate
 * (GIT_ALTERNATE_OBJECT_DIRECTORIES), so that `git verify-tag` checks
 * them with the repository's configuration while the repository itself
 * is never written to; `object_dirs` (a quarantine, "dir[:dir...]", or
 * NULL) are read there too.  Both reach git through the environment of
 * each git run, never through ours.  `progress` (may be NULL) counts the
 * tags done.
 * Returns 0, or a negative error when an object is missing or git
 * cannot be run.
 */
int rolling_tag_object_signatures(enum rolling_signature_status *status, git_repository *repo,
				  const git_oid *ids, size_t nr,
				  const struct rolling_tag_bytes *extra, size_t extra_nr,
				  const char *object_dirs, struct rolling_progress *progress);

/*
 * Check the signatures that the commits ids[i] carry in their gpgsig
 * headers with `git verify-commit`, into good[i] (1 or 0).  All are
 * handed to one git process; only when it rejects one is each asked
 * about alone; git also reads `object_dirs` (as for tags, or NULL).
 * Returns 0, or a negative error when git cannot be run.
 */
int rolling_commit_signatures(int *good, git_repository *repo, const git_oid *ids, size_t nr,
			      const char *object_dirs);

/* "good", "lightweight tag", "unsigned tag", "bad signature", "no public key". */
const char *rolling_signature_status_name(enum rolling_signature_status status);

/* --- push certificates ---------------------------------------------------- */

/* Who signed a push certificate whose signature is good, as the program says. */
struct rolling_push_signer {
	enum rolling_signature_status status;
	/* The SSH principal, or GnuPG's user id of the key; NULL when not good. */
	char *signer;
	/* The SSH key's "SHA256:..." or the GnuPG signing key's fingerprint. */
	char *fingerprint;
	/* GnuPG: the primary key's fingerprint; NULL for SSH. */
	char *primary_fingerprint;
	/* Why it is not good, in the program's or git's words; NULL when good. */
	char *why;
};

/*
 * Check the signature of a push certificate (payload: the bytes it
 * signs; signature: the armoured block after them) with what git's
 * configuration names, as git checks a push certificate or a tag.
 * `git verify-tag` itself cannot be asked: from 2.34 on (and still in
 * 2.55) git refuses, before any program runs, a signed payload without
 * a "tagger" line (gpg-interface.c parse_payload_metadata()), and a
 * certificate has none.  So the program runs here, the way git runs it:
 *
 *  - SSH: gpg.ssh.program (ssh-keygen) `-Y find-principals` in
 *    gpg.ssh.allowedSignersFile, then `-Y verify -n git -I <principal>`
 *    for each principal found (with gpg.ssh.revocationFile as -r): a key
 *    the file does not list is ROLLING_SIGNATURE_NO_KEY;
 *  - OpenPGP and X.509: gpg.openpgp.program (or gpg.program, gpg) or
 *    gpg.x509.program (gpgsm) `--status-fd=1 --verify <sig> -`: good on
 *    GOODSIG with VALIDSIG, and a trust level at least
 *    gpg.minTrustLevel when that is set; NO_PUBKEY is NO_KEY.
 *
 * The configuration is read by git (`git config`), so that its
 * includes, -c and path expansion count as for git.  The signature goes
 * to a registered temporary file for the program's run.  Returns 0 with
 * the verdict in *signer (release it with rolling_push_signer_release()),
 * or a negative error when git or the program cannot be run.
 */
int rolling_push_cert_signature(struct rolling_push_signer *signer, git_repository *repo,
				const char *payload, size_t payload_size,
				const char *signature, size_t signature_size);

void rolling_push_signer_release(struct rolling_push_signer *signer);

#endif
