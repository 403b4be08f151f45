#include <stdlib.h>
#include <string.h>
#include "mainline.h"
#include "alloc.h"
#include "error.h"

#define TAG_PREFIX "refs/tags/"

static int add(struct rolling_mainline *m, size_t *alloc, const char *name, const git_oid *commit)
{
	if (ALLOC_GROW(m->names, m->nr + 1, *alloc) < 0)
		return ROLLING_ERROR;
	if (!(m->names[m->nr] = strdup(name)))
		return rolling_error_nomem();
	return rolling_oidmap_put(&m->by_commit, commit, m->nr++);
}

/* The commit a tag ref leads to; 1 when it leads to something else. */
static int peel(git_oid *commit, git_reference *ref)
{
	const git_oid *peeled = git_reference_target_peel(ref);
	git_object *object;

	if (peeled) {
		git_oid_cpy(commit, peeled);
		return 0;
	}
	if (git_reference_peel(&object, ref, GIT_OBJECT_COMMIT) < 0)
		return 1;
	git_oid_cpy(commit, git_object_id(object));
	git_object_free(object);
	return 0;
}

int rolling_mainline_load(struct rolling_mainline *m, git_repository *repo,
			  struct rolling_patterns *patterns)
{
	git_reference_iterator *iter = NULL;
	git_reference *ref;
	size_t alloc = 0;
	int err;

	memset(m, 0, sizeof(*m));
	if ((err = git_reference_iterator_glob_new(&iter, repo, TAG_PREFIX "*")) < 0)
		return rolling_git_error(err, "cannot read tags");
	while (!(err = git_reference_next(&ref, iter))) {
		const char *name = git_reference_name(ref) + strlen(TAG_PREFIX);
		struct rolling_version version;
		enum rolling_tag_kind kind;
		git_oid commit;
		int added = 0;

		if (!rolling_patterns_classify(patterns, name, &kind, &version) &&
		    kind == ROLLING_TAG_MAINLINE && !peel(&commit, ref))
			added = add(m, &alloc, name, &commit);
		git_reference_free(ref);
		if (added < 0) {
			err = added;
			goto out;
		}
	}
	err = err == GIT_ITEROVER ? rolling_patterns_check(patterns) :
	      rolling_git_error(err, "cannot read tags");
out:
	git_reference_iterator_free(iter);
	if (err < 0)
		rolling_mainline_release(m);
	return err;
}

const char *rolling_mainline_find(const struct rolling_mainline *m, const git_oid *commit)
{
	size_t i;

	return rolling_oidmap_get(&m->by_commit, commit, &i) ? m->names[i] : NULL;
}

void rolling_mainline_release(struct rolling_mainline *m)
{
	size_t i;

	for (i = 0; i < m->nr; i++)
		free(m->names[i]);
	free(m->names);
	rolling_oidmap_release(&m->by_commit);
	memset(m, 0, sizeof(*m));
}
