#ifndef ROLLING_SIGNATURE_H
#define ROLLING_SIGNATURE_H

#include <git2.h>
#include "tags.h"

enum rolling_signature_status {
	ROLLING_SIGNATURE_GOOD,
	ROLLING_SIGNATURE_LIGHTWEIGHT,   /* the ref names the commit: no tag object */
	ROLLING_SIGNATURE_UNSIGNED,      /* a tag object without a signature */
	ROLLING_SIGNATURE_BAD,           /* git verify-tag rejects the signature */
};

/*
 * Check the signatures of the release tags into status[i]: the objects
 * their refs named when the tags were read (release->tag), so that a ref
 * moved since cannot swap in another tag.
 * Unsigned tags are recognised here; signed ones are handed to `git
 * verify-tag` (one process for many tags), so that gpg.program,
 * gpg.format, the SSH allowed-signers file and gpg.minTrustLevel count
 * exactly as they do for git.  Returns 0, or a negative error when a tag
 * cannot be read or git cannot be run.
 */
int rolling_tag_signatures(enum rolling_signature_status *status, git_repository *repo,
			   const struct rolling_release *const *releases, size_t nr);

/* "good", "lightweight tag", "unsigned tag", "bad signature". */
const char *rolling_signature_status_name(enum rolling_signature_status status);

#endif
