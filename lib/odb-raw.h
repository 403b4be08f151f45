#ifndef ROLLING_ODB_RAW_H
#define ROLLING_ODB_RAW_H

#include <stddef.h>
#include <git2.h>
#include <git2/sys/odb_backend.h>

/*
 * Objects read straight from an object database's backends, in their
 * order, for walks that read each object once (contains.c's commits, a
 * push log's records): git_odb_read() hashes every object again to check
 * its id (libgit2's strict hash verification; git checks an id when it
 * receives the object, index-pack, and not each time it reads it) and
 * keeps commits and trees in the object cache, memory that grows with the
 * walk.  Together a third of such a walk and more.  An object no backend
 * has goes through git_odb_read(), which looks for new packs first.
 *
 * Whoever uses an object's content as evidence checks its id with
 * rolling_raw_object_check_id().
 */
struct rolling_raw_object {
	const void *data;
	size_t size;
	git_object_t type;

	/* Who owns the bytes: a backend, or the odb's object. */
	void *backend_data;
	git_odb_backend *backend;
	git_odb_object *object;
};

#define ROLLING_RAW_OBJECT_INIT { NULL, 0, GIT_OBJECT_INVALID, NULL, NULL, NULL }

/*
 * Read `id` into *out.  Returns 0, or a negative libgit2 error code
 * (GIT_ENOTFOUND when no backend has it) with libgit2's error set, as
 * git_odb_read() does; *out then holds nothing.
 */
int rolling_odb_read_raw(struct rolling_raw_object *out, git_odb *odb, const git_oid *id);

/* The size and type of `id`, without its content; as rolling_odb_read_raw(). */
int rolling_odb_read_header_raw(size_t *size, git_object_t *type, git_odb *odb,
				const git_oid *id);

/* 1 when the object's content hashes to `id`, 0 when not, a negative error. */
int rolling_raw_object_check_id(const struct rolling_raw_object *o, const git_oid *id);

void rolling_raw_object_release(struct rolling_raw_object *o);

#endif
