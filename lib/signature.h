#ifndef ROLLING_SIGNATURE_H
#define ROLLING_SIGNATURE_H

#include <git2.h>

enum rolling_signature_status {
	ROLLING_SIGNATURE_GOOD,
	ROLLING_SIGNATURE_LIGHTWEIGHT,   /* the ref names the commit: no tag object */
	ROLLING_SIGNATURE_UNSIGNED,      /* a tag object without a signature */
	ROLLING_SIGNATURE_BAD,           /* git verify-tag rejects the signature */
	ROLLING_SIGNATURE_NO_KEY,        /* git has no public key to check it with */
};

/*
 * Check the signatures of the tags refs/tags/<names[i]> into status[i].
 * Unsigned tags are recognised here; signed ones are handed to `git
 * verify-tag` (one process for many tags), so that gpg.program,
 * gpg.format, the SSH allowed-signers file and gpg.minTrustLevel count
 * exactly as they do for git.  git runs without replace objects
 * (--no-replace-objects), so it checks the very tag object read here.
 * A signature git does not accept is looked at once more, alone, to tell
 * a missing key (gpg's NO_PUBKEY, an SSH key in no allowed-signers
 * entry, or no allowed-signers file) from a bad signature.  Several
 * names may share one tag object.  Returns 0, or a negative error when
 * a tag cannot be read or git cannot be run.
 */
int rolling_tag_signatures(enum rolling_signature_status *status, git_repository *repo,
			   const char *const *names, size_t nr);

/* "good", "lightweight tag", "unsigned tag", "bad signature", "no public key". */
const char *rolling_signature_status_name(enum rolling_signature_status status);

#endif
