#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "abbrev.h"
#include "config.h"
#include "error.h"

#define MINIMUM_ABBREV 4
#define FALLBACK_ABBREV 7
#define ALTERNATES_DEPTH 5

int rolling_abbrev_config(int *len, git_repository *repo)
{
	git_config *config;
	char *value = NULL, *end;
	long n;
	int err;

	*len = ROLLING_ABBREV_AUTO;
	if ((err = git_repository_config_snapshot(&config, repo)) < 0)
		return rolling_git_error(err, "cannot read the configuration");
	err = rolling_config_get_string(&value, config, "core.abbrev");
	git_config_free(config);
	if (err < 0 || !value || !strcasecmp(value, "auto"))
		goto out;
	if (!*value || !strcasecmp(value, "false") || !strcasecmp(value, "no") ||
	    !strcasecmp(value, "off")) {
		*len = GIT_OID_HEXSZ;
		goto out;
	}
	n = strtol(value, &end, 10);
	if (*end || end == value)
		err = rolling_error("bad numeric config value '%s' for 'core.abbrev'", value);
	else if (n < MINIMUM_ABBREV || n > GIT_OID_HEXSZ)
		err = rolling_error("core.abbrev: abbrev length out of range: %ld", n);
	else
		*len = (int)n;
out:
	free(value);
	return err;
}

/* The object count in a pack index's fan-out table (versions 1 and 2). */
static unsigned long idx_count(const char *path)
{
	static const unsigned char v2_magic[4] = { 0xff, 't', 'O', 'c' };
	unsigned char head[8], last[4];
	long fanout = 0;
	FILE *f = fopen(path, "rb");

	if (!f)
		return 0;
	if (fread(head, 1, sizeof(head), f) == sizeof(head) && !memcmp(head, v2_magic, 4))
		fanout = 8;
	if (fseek(f, fanout + 255 * 4, SEEK_SET) || fread(last, 1, 4, f) != 4) {
		fclose(f);
		return 0;
	}
	fclose(f);
	return (unsigned long)last[0] << 24 | (unsigned long)last[1] << 16 |
	       (unsigned long)last[2] << 8 | last[3];
}

/* Git counts a pack only when both its .idx and its .pack are there. */
static unsigned long count_packs(const char *objects)
{
	unsigned long count = 0;
	char *dir_path, *path;
	struct dirent *e;
	struct stat st;
	DIR *dir;

	if (asprintf(&dir_path, "%s/pack", objects) < 0)
		return 0;
	dir = opendir(dir_path);
	while (dir && (e = readdir(dir))) {
		size_t len = strlen(e->d_name);
		int has_pack;

		if (len < 4 || strcmp(e->d_name + len - 4, ".idx"))
			continue;
		if (asprintf(&path, "%s/%.*s.pack", dir_path, (int)(len - 4), e->d_name) < 0)
			break;
		has_pack = !stat(path, &st);
		free(path);
		if (!has_pack || asprintf(&path, "%s/%s", dir_path, e->d_name) < 0)
			continue;
		count += idx_count(path);
		free(path);
	}
	if (dir)
		closedir(dir);
	free(dir_path);
	return count;
}

/* This object directory's packs and those of its alternates. */
static unsigned long count_objects(const char *objects, int depth)
{
	unsigned long count = count_packs(objects);
	char *path, *line = NULL;
	size_t size = 0;
	FILE *f;

	if (depth >= ALTERNATES_DEPTH || asprintf(&path, "%s/info/alternates", objects) < 0)
		return count;
	f = fopen(path, "r");
	free(path);
	while (f && getline(&line, &size, f) > 0) {
		line[strcspn(line, "\r\n")] = '\0';
		if (!*line || *line == '#')
			continue;
		if (*line == '/')
			count += count_objects(line, depth + 1);
		else if (asprintf(&path, "%s/%s", objects, line) >= 0) {
			count += count_objects(path, depth + 1);
			free(path);
		}
	}
	free(line);
	if (f)
		fclose(f);
	return count;
}

static unsigned long repository_objects(git_repository *repo)
{
	const char *env = getenv("GIT_OBJECT_DIRECTORY");
	unsigned long count = 0;
	char *dir;

	if (env && *env)
		return count_objects(env, 0);
	if (asprintf(&dir, "%sobjects", git_repository_commondir(repo)) >= 0) {
		count = count_objects(dir, 0);
		free(dir);
	}
	return count;
}

int rolling_abbrev_start(int *start, git_repository *repo, int len)
{
	unsigned long count;
	int bits = 0;

	if (len != ROLLING_ABBREV_AUTO) {
		*start = len;
		return 0;
	}
	/*
	 * About 2^bits objects make a collision likely at 2^(bits/2), and a
	 * hex digit holds 4 bits: half the bits, rounded up, in digits.
	 */
	count = repository_objects(repo);
	while (count >>= 1)
		bits++;
	*start = (bits + 1 + 1) / 2;
	if (*start < FALLBACK_ABBREV)
		*start = FALLBACK_ABBREV;
	return 0;
}

int rolling_abbrev_oid(char *buf, git_repository *repo, int start, const git_oid *id)
{
	git_odb *odb;
	git_oid found;
	size_t len = start > 0 ? (size_t)start : GIT_OID_HEXSZ;
	int err = 0;

	git_oid_tostr(buf, GIT_OID_HEXSZ + 1, id);
	if (len >= GIT_OID_HEXSZ)
		return 0;
	if ((err = git_repository_odb(&odb, repo)) < 0)
		return rolling_git_error(err, "cannot read the object database");
	for (; len < GIT_OID_HEXSZ; len++) {
		err = git_odb_exists_prefix(&found, odb, id, len);
		if (err != GIT_EAMBIGUOUS)
			break;
	}
	git_odb_free(odb);
	if (err < 0 && err != GIT_EAMBIGUOUS && err != GIT_ENOTFOUND)
		return rolling_git_error(err, "cannot abbreviate %s", buf);
	buf[len] = '\0';
	return 0;
}
