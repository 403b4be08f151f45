#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bisect-state.h"
#include "error.h"
#include "lockfile.h"

#define FORMAT_LINE "git-rolling bisect state 1"

static int set_string(char **field, const char *value)
{
	free(*field);
	return (*field = strdup(value)) ? 0 : rolling_error_nomem();
}

static int set_oid(git_oid *field, const char *value, int *seen)
{
	*seen = 1;
	return strlen(value) == GIT_OID_HEXSZ && !git_oid_fromstr(field, value) ? 0 : -1;
}

static int parse_line(struct rolling_bisect_state *s, char *line, int *have)
{
	char *value = strchr(line, ' ');
	int err = -1;

	if (!value)
		return -1;
	*value++ = '\0';
	if (!strcmp(line, "stage")) {
		s->stage = atoi(value);
		err = s->stage == 1 || s->stage == 2 ? 0 : -1;
	} else if (!strcmp(line, "branch")) {
		err = set_string(&s->branch, value);
	} else if (!strcmp(line, "release-pattern")) {
		err = set_string(&s->release_pattern, value);
	} else if (!strcmp(line, "mainline-pattern")) {
		err = set_string(&s->mainline_pattern, value);
	} else if (!strcmp(line, "good")) {
		err = set_oid(&s->good, value, &have[0]);
	} else if (!strcmp(line, "bad")) {
		err = set_oid(&s->bad, value, &have[1]);
	} else if (!strcmp(line, "first-bad-step")) {
		err = set_oid(&s->first_bad_step, value, &have[2]);
	}
	return err;
}

int rolling_bisect_state_read(struct rolling_bisect_state *s, const char *path)
{
	char *line = NULL;
	size_t size = 0;
	int have[3] = { 0 }, err = 0, first = 1;
	ssize_t len;
	FILE *f;

	memset(s, 0, sizeof(*s));
	if (!(f = fopen(path, "r"))) {
		if (errno == ENOENT)
			return rolling_error_code(ROLLING_ENOTFOUND, "%s does not exist", path);
		return rolling_error("cannot read %s: %s", path, strerror(errno));
	}
	while ((len = getline(&line, &size, f)) >= 0) {
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (first) {
			first = 0;
			if (strcmp(line, FORMAT_LINE)) {
				err = -1;
				break;
			}
			continue;
		}
		if (!*line)
			continue;
		if ((err = parse_line(s, line, have)) < 0)
			break;
	}
	free(line);
	fclose(f);
	if (!err && (first || !s->stage || !s->branch || !have[0] || !have[1] ||
		     (s->stage == 2 && !have[2]) ||
		     !s->release_pattern != !s->mainline_pattern))
		err = -1;
	if (err < 0) {
		rolling_bisect_state_release(s);
		return rolling_error("%s is damaged; remove it (and run git bisect reset)", path);
	}
	return 0;
}

static int has_newline(const char *s)
{
	return s && strchr(s, '\n');
}

/* The lines of the file, written to `f`. */
static void print_state(FILE *f, const struct rolling_bisect_state *s)
{
	char good[GIT_OID_HEXSZ + 1], bad[GIT_OID_HEXSZ + 1], step[GIT_OID_HEXSZ + 1];

	fprintf(f, FORMAT_LINE "\nstage %d\nbranch %s\ngood %s\nbad %s\n", s->stage, s->branch,
		git_oid_tostr(good, sizeof(good), &s->good),
		git_oid_tostr(bad, sizeof(bad), &s->bad));
	if (s->release_pattern)
		fprintf(f, "release-pattern %s\nmainline-pattern %s\n", s->release_pattern,
			s->mainline_pattern);
	if (s->stage == 2)
		fprintf(f, "first-bad-step %s\n",
			git_oid_tostr(step, sizeof(step), &s->first_bad_step));
}

int rolling_bisect_state_write(const struct rolling_bisect_state *s, const char *path)
{
	struct rolling_lock lk;
	FILE *f;
	int err, ok;

	if (has_newline(s->branch) || has_newline(s->release_pattern) ||
	    has_newline(s->mainline_pattern))
		return rolling_error("cannot record a name or pattern that spans lines");
	if ((err = rolling_lock_acquire(&lk, path, 0)) < 0)
		return err;
	if (!(f = rolling_lock_fdopen(&lk, "w"))) {
		err = rolling_error("cannot write %s: %s", rolling_lock_path(&lk), strerror(errno));
		rolling_lock_rollback(&lk);
		return err;
	}
	print_state(f, s);
	ok = !ferror(f);
	ok = !fclose(f) && ok;
	if (!ok || rolling_lock_commit(&lk) < 0) {
		err = rolling_error("cannot write %s: %s", path, strerror(errno));
		rolling_lock_rollback(&lk);
		return err;
	}
	return 0;
}

int rolling_bisect_state_remove(const char *path)
{
	if (unlink(path) < 0 && errno != ENOENT)
		return rolling_error("cannot remove %s: %s", path, strerror(errno));
	return 0;
}

void rolling_bisect_state_release(struct rolling_bisect_state *s)
{
	free(s->branch);
	free(s->release_pattern);
	free(s->mainline_pattern);
	memset(s, 0, sizeof(*s));
}
