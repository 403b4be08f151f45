#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hazard.h"
#include "error.h"

#define REPLACE_PREFIX "refs/replace/"

static int append(struct rolling_hazard **list, size_t *nr, size_t *alloc,
		  const git_oid *oid, const git_oid *replacement)
{
	if (*nr == *alloc) {
		size_t grown_alloc = *alloc ? *alloc * 2 : 8;
		void *grown = realloc(*list, grown_alloc * sizeof(**list));

		if (!grown)
			return rolling_error("out of memory");
		*list = grown;
		*alloc = grown_alloc;
	}
	memset(&(*list)[*nr], 0, sizeof(**list));
	git_oid_cpy(&(*list)[*nr].oid, oid);
	if (replacement)
		git_oid_cpy(&(*list)[*nr].replacement, replacement);
	(*nr)++;
	return 0;
}

/* A full hexadecimal object id and nothing else. */
static int parse_hex_oid(git_oid *oid, const char *text, size_t len)
{
	return len == GIT_OID_HEXSZ && !git_oid_fromstrn(oid, text, len) ? 0 : -1;
}

int rolling_hazard_replacements(struct rolling_hazard **out, size_t *nr, git_repository *repo)
{
	git_reference_iterator *iter = NULL;
	git_reference *ref, *resolved;
	size_t alloc = 0;
	int err;

	*out = NULL;
	*nr = 0;
	if ((err = git_reference_iterator_glob_new(&iter, repo, REPLACE_PREFIX "*")) < 0)
		return rolling_git_error(err, "cannot read " REPLACE_PREFIX);
	while (!(err = git_reference_next(&ref, iter))) {
		const char *name = git_reference_name(ref) + strlen(REPLACE_PREFIX);
		git_oid replaced;

		err = 0;
		if (!parse_hex_oid(&replaced, name, strlen(name)) &&
		    !git_reference_resolve(&resolved, ref)) {
			err = append(out, nr, &alloc, &replaced, git_reference_target(resolved));
			git_reference_free(resolved);
		}
		git_reference_free(ref);
		if (err < 0)
			goto out;
	}
	err = err == GIT_ITEROVER ? 0 : rolling_git_error(err, "cannot read " REPLACE_PREFIX);
out:
	git_reference_iterator_free(iter);
	if (err < 0) {
		free(*out);
		*out = NULL;
		*nr = 0;
	}
	return err;
}

/*
 * Call `line_fn` for each line of a file in the common git directory
 * (shared by all work trees, where git keeps "shallow" and
 * "info/grafts").  A missing file has no lines.
 */
static int for_each_line(git_repository *repo, const char *name,
			 int (*line_fn)(const char *line, size_t len, void *data), void *data)
{
	char path[4096];
	char *line = NULL;
	size_t size = 0;
	ssize_t len;
	FILE *file;
	int err = 0;

	snprintf(path, sizeof(path), "%s/%s", git_repository_commondir(repo), name);
	if (!(file = fopen(path, "r")))
		return errno == ENOENT ? 0 : rolling_error("cannot read %s: %s", path,
							    strerror(errno));
	while (!err && (len = getline(&line, &size, file)) >= 0) {
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (len && line[0] != '#')
			err = line_fn(line, (size_t)len, data);
	}
	if (!err && ferror(file))
		err = rolling_error("cannot read %s", path);
	free(line);
	fclose(file);
	return err;
}

struct graft_list {
	struct rolling_hazard *list;
	size_t nr, alloc;
};

/* "<commit> [<parent>...]": only the grafted commit matters here. */
static int graft_line(const char *line, size_t len, void *data)
{
	struct graft_list *grafts = data;
	const char *space = memchr(line, ' ', len);
	git_oid commit;

	if (parse_hex_oid(&commit, line, space ? (size_t)(space - line) : len) < 0)
		return 0;
	return append(&grafts->list, &grafts->nr, &grafts->alloc, &commit, NULL);
}

int rolling_hazard_grafts(struct rolling_hazard **out, size_t *nr, git_repository *repo)
{
	struct graft_list grafts = { NULL, 0, 0 };
	int err = for_each_line(repo, "info/grafts", graft_line, &grafts);

	if (err < 0) {
		free(grafts.list);
		grafts.list = NULL;
		grafts.nr = 0;
	}
	*out = grafts.list;
	*nr = grafts.nr;
	return err;
}

static int shallow_line(const char *line, size_t len, void *data)
{
	git_oid commit;

	if (parse_hex_oid(&commit, line, len) < 0)
		return 0;
	return rolling_oidmap_put(data, &commit, 0);
}

int rolling_hazard_shallow(struct rolling_oidmap *shallow, git_repository *repo)
{
	int err;

	memset(shallow, 0, sizeof(*shallow));
	if ((err = for_each_line(repo, "shallow", shallow_line, shallow)) < 0)
		rolling_oidmap_free(shallow);
	return err;
}
