#include <string.h>
#include "odb-raw.h"

static int not_found(int err)
{
	return err == GIT_ENOTFOUND || err == GIT_PASSTHROUGH;
}

int rolling_odb_read_raw(struct rolling_raw_object *out, git_odb *odb, const git_oid *id)
{
	size_t i, nr = git_odb_num_backends(odb);
	int err = GIT_ENOTFOUND;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < nr && not_found(err); i++) {
		git_odb_backend *b;
		git_object_t type = GIT_OBJECT_INVALID;
		void *data = NULL;
		size_t size = 0;

		if (git_odb_get_backend(&b, odb, i) < 0 || !b->read)
			continue;
		if (!(err = b->read(&data, &size, &type, b, id))) {
			out->backend_data = data;
			out->backend = b;
			out->data = data;
			out->size = size;
			out->type = type;
		}
	}
	if (not_found(err)) {
		if ((err = git_odb_read(&out->object, odb, id)) < 0)
			return err;
		out->data = git_odb_object_data(out->object);
		out->size = git_odb_object_size(out->object);
		out->type = git_odb_object_type(out->object);
	}
	return err;
}

int rolling_odb_read_header_raw(size_t *size, git_object_t *type, git_odb *odb,
				const git_oid *id)
{
	size_t i, nr = git_odb_num_backends(odb);
	int err = GIT_ENOTFOUND;

	for (i = 0; i < nr && not_found(err); i++) {
		git_odb_backend *b;

		if (git_odb_get_backend(&b, odb, i) < 0 || !b->read_header)
			continue;
		err = b->read_header(size, type, b, id);
	}
	/* A backend that cannot read headers alone: libgit2 reads the object. */
	return not_found(err) ? git_odb_read_header(size, type, odb, id) : err;
}

int rolling_raw_object_check_id(const struct rolling_raw_object *o, const git_oid *id)
{
	git_oid hashed;
	int err;

	if ((err = git_odb_hash(&hashed, o->data, o->size, o->type)) < 0)
		return err;
	return git_oid_equal(&hashed, id);
}

void rolling_raw_object_release(struct rolling_raw_object *o)
{
	if (o->object)
		git_odb_object_free(o->object);
	else if (o->backend_data)
		git_odb_backend_data_free(o->backend, o->backend_data);
	memset(o, 0, sizeof(*o));
}
