#ifndef ROLLING_IDENT_H
#define ROLLING_IDENT_H

#include <git2.h>

/* Who makes the rolling merges: author, committer and signer alike. */
struct rolling_ident {
	char *name;
	char *email;
};

/* Parse "Name <email>"; `what` names the source for the message. */
int rolling_ident_parse(struct rolling_ident *ident, const char *text, const char *what);

/*
 * The identity for a branch: `configured` (rolling.<branch>.ident) when
 * set, else user.name and user.email, as `git commit` would use them.
 */
int rolling_ident_for(struct rolling_ident *ident, git_repository *repo,
		      const char *configured, const char *what);

void rolling_ident_release(struct rolling_ident *ident);

#endif
