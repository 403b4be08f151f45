#ifndef ROLLING_REFTABLE_H
#define ROLLING_REFTABLE_H

#include <stddef.h>
#include <git2.h>

/*
 * Reading the refs of a reftable stack (git's Documentation/technical/
 * reftable.adoc), the format git 2.45 added and Git 3.0 makes the
 * default: `<dir>/tables.list` names the tables, oldest first; each table
 * holds sorted ref records, prefix-compressed in blocks; a ref's newest
 * record wins, and a deletion record hides the older ones.  Only the
 * refs are read: no index, object or log block is needed for a listing.
 *
 * The tables may come from a hostile repository: every length and offset
 * is checked against the file, the footer's CRC-32 as the format asks,
 * and a table that does not parse is an error, never a partial listing.
 * A table name that is not a plain file name is refused.  Only SHA-1
 * tables are read.
 */

enum rolling_reftable_kind {
	ROLLING_REFTABLE_DELETION = 0,
	ROLLING_REFTABLE_DIRECT = 1,     /* value */
	ROLLING_REFTABLE_PEELED = 2,     /* value and, for an annotated tag, its peel */
	ROLLING_REFTABLE_SYMBOLIC = 3,   /* target */
};

struct rolling_reftable_ref {
	const char *name;                /* in the stack's memory */
	enum rolling_reftable_kind kind;
	git_oid value, peeled;
	const char *target;
};

/* The refs of one stack as of one reading of its tables.list. */
struct rolling_reftable_stack {
	char *list;                      /* tables.list as read; "" when there is none */
	size_t list_len;
	struct rolling_reftable_ref *refs;   /* sorted by name, no deletions */
	size_t nr;
	char *names;                     /* the strings the refs point into */
	size_t names_len, names_alloc;
};

/*
 * Read the stack in `dir` (a git directory's reftable/).  A directory
 * without tables.list holds no ref.  Retries when git compacted the
 * stack between the reading of tables.list and of its tables.  Returns
 * 0 or a negative error with a message.
 */
int rolling_reftable_read(struct rolling_reftable_stack *stack, const char *dir);

/*
 * Read `dir`/tables.list alone into *list (the caller frees it), for a
 * caller that wants to know whether the stack changed since it read it.
 */
int rolling_reftable_read_list(char **list, size_t *len, const char *dir);

/* The ref of that name, or NULL. */
const struct rolling_reftable_ref *rolling_reftable_find(const struct rolling_reftable_stack *stack,
							 const char *name);

void rolling_reftable_release(struct rolling_reftable_stack *stack);

#endif
