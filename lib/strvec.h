#ifndef ROLLING_STRVEC_H
#define ROLLING_STRVEC_H

#include <stddef.h>
#include "error.h"

/*
 * A NULL-terminated vector of strings it owns, grown one at a time: the
 * arguments and the environment of a git that we run (run-command.h).
 *
 * As with a strbuf, running out of memory sticks: each push returns
 * rolling_error_nomem() and sets `oom`, later pushes do nothing, and
 * whoever uses the vector checks once (rolling_child_start() does), so
 * that a caller may push a dozen arguments without a check after each:
 *
 *	rolling_strvec_push(&child.args, "read-tree");
 *	rolling_strvec_pushv(&child.args, more);
 *
 * `v` is NULL until the first push, then always NULL-terminated.
 */
struct rolling_strvec {
	char **v;
	size_t nr, alloc;
	int oom;
};
#define ROLLING_STRVEC_INIT { NULL, 0, 0, 0 }

/* Each returns 0, or rolling_error_nomem() with `oom` set. */
int rolling_strvec_push(struct rolling_strvec *vec, const char *s);
/* Each string of the NULL-terminated `list`. */
int rolling_strvec_pushv(struct rolling_strvec *vec, const char *const *list);
/* Each of the strings given, up to the NULL that ends them. */
int rolling_strvec_pushl(struct rolling_strvec *vec, ...) ROLLING_SENTINEL;

/* Free it all; it is empty (ROLLING_STRVEC_INIT) again. */
void rolling_strvec_release(struct rolling_strvec *vec);

#endif
