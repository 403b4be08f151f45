#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "signature.h"
#include "oidmap.h"
#include "run-command.h"
#include "error.h"

/* Tags verified per git process, within rolling_run_git()'s argument limit. */
#define BATCH 48

/* The armour lines git recognises at the start of a line in a tag (gpg-interface.c). */
static const char *const signature_starts[] = {
	"-----BEGIN PGP SIGNATURE-----",
	"-----BEGIN PGP MESSAGE-----",
	"-----BEGIN SIGNED MESSAGE-----",
	"-----BEGIN SSH SIGNATURE-----",
};

const char *rolling_signature_status_name(enum rolling_signature_status status)
{
	switch (status) {
	case ROLLING_SIGNATURE_GOOD:
		return "good";
	case ROLLING_SIGNATURE_LIGHTWEIGHT:
		return "lightweight tag";
	case ROLLING_SIGNATURE_UNSIGNED:
		return "unsigned tag";
	case ROLLING_SIGNATURE_BAD:
		break;
	}
	return "bad signature";
}

static int starts_signature(const char *line, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(signature_starts) / sizeof(signature_starts[0]); i++) {
		size_t n = strlen(signature_starts[i]);

		if (len >= n && !memcmp(line, signature_starts[i], n))
			return 1;
	}
	return 0;
}

static int has_signature(const char *data, size_t size)
{
	const char *line = data, *end = data + size;

	while (line < end) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));

		if (starts_signature(line, (size_t)(end - line)))
			return 1;
		line = nl ? nl + 1 : end;
	}
	return 0;
}

/*
 * Classify one tag without running anything.  Sets *tag_object and
 * returns 1 when it carries a signature that git must check.
 */
static int classify(enum rolling_signature_status *status, git_oid *tag_object,
		    git_odb *odb, const struct rolling_release *release)
{
	git_odb_object *object = NULL;
	int err;

	git_oid_cpy(tag_object, &release->tag);
	if ((err = git_odb_read(&object, odb, tag_object)) < 0)
		return rolling_git_error(err, "cannot read tag '%s'", release->name);
	if (git_odb_object_type(object) != GIT_OBJECT_TAG)
		*status = ROLLING_SIGNATURE_LIGHTWEIGHT;
	else if (!has_signature(git_odb_object_data(object), git_odb_object_size(object)))
		*status = ROLLING_SIGNATURE_UNSIGNED;
	else
		*status = ROLLING_SIGNATURE_BAD;    /* until git verify-tag vouches for it */
	git_odb_object_free(object);
	return *status == ROLLING_SIGNATURE_BAD;
}

/*
 * Run `git verify-tag --format=%(objectname) <ids>` and collect what it
 * prints: it prints the format only for tags whose signature is good.
 * Its stderr (gpg's chatter) is dropped; the report says what failed.
 */
static int run_verify_tag(char **output, git_repository *repo, char hex[][GIT_OID_HEXSZ + 1],
			  size_t nr)
{
	const char *args[BATCH + 5] = { "--git-dir", git_repository_path(repo), "verify-tag",
					"--format=%(objectname)" };
	size_t fixed = 4, i;
	int status;

	for (i = 0; i < nr; i++)
		args[fixed + i] = hex[i];
	args[fixed + nr] = NULL;
	status = rolling_run_git(args, output, ROLLING_RUN_CAPTURE | ROLLING_RUN_NO_STDERR);
	if (status < 0)
		return status;
	/* 1 means "some signature is bad"; anything else means git itself failed. */
	if (status > 1) {
		free(*output);
		*output = NULL;
		return rolling_error("git verify-tag failed (exit status %d)", status);
	}
	return 0;
}

/* Mark good every tag whose id git printed. */
static int mark_good(enum rolling_signature_status *status, const struct rolling_oidmap *pending,
		     const char *output)
{
	const char *line = output;

	while (*line) {
		size_t len = strcspn(line, "\n"), index;
		git_oid id;

		if (len == GIT_OID_HEXSZ && !git_oid_fromstrn(&id, line, len) &&
		    rolling_oidmap_get(pending, &id, &index))
			status[index] = ROLLING_SIGNATURE_GOOD;
		line += len + (line[len] == '\n');
	}
	return 0;
}

static int verify_batch(enum rolling_signature_status *status, git_repository *repo,
			char hex[][GIT_OID_HEXSZ + 1], const size_t *index, size_t nr)
{
	struct rolling_oidmap pending = { NULL, 0, 0 };
	char *output = NULL;
	size_t i;
	int err = 0;

	for (i = 0; i < nr && !err; i++) {
		git_oid id;

		git_oid_fromstr(&id, hex[i]);
		err = rolling_oidmap_put(&pending, &id, index[i]);
	}
	if (!err && !(err = run_verify_tag(&output, repo, hex, nr)))
		err = mark_good(status, &pending, output);
	free(output);
	rolling_oidmap_free(&pending);
	return err;
}

int rolling_tag_signatures(enum rolling_signature_status *status, git_repository *repo,
			   const struct rolling_release *const *releases, size_t nr)
{
	char (*hex)[GIT_OID_HEXSZ + 1] = malloc(BATCH * sizeof(*hex));
	size_t *index = malloc(BATCH * sizeof(*index));
	size_t i, batch = 0;
	git_odb *odb = NULL;
	int err = 0;

	if (!hex || !index) {
		err = rolling_error("out of memory");
		goto out;
	}
	if ((err = git_repository_odb(&odb, repo)) < 0) {
		err = rolling_git_error(err, "cannot open the object database");
		goto out;
	}
	for (i = 0; i < nr; i++) {
		git_oid tag_object;

		if ((err = classify(&status[i], &tag_object, odb, releases[i])) < 0)
			goto out;
		if (!err)
			continue;
		git_oid_tostr(hex[batch], sizeof(hex[batch]), &tag_object);
		index[batch++] = i;
		if (batch == BATCH) {
			if ((err = verify_batch(status, repo, hex, index, batch)) < 0)
				goto out;
			batch = 0;
		}
	}
	err = batch ? verify_batch(status, repo, hex, index, batch) : 0;
out:
	git_odb_free(odb);
	free(index);
	free(hex);
	return err < 0 ? err : 0;
}
