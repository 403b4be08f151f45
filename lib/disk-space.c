#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "disk-space.h"
#include "strbuf.h"
#include "tempfile.h"

#define PROBE_SIZE 65536

static int is_full(int err)
{
	return err == ENOSPC || err == EDQUOT;
}

/* Write `size` bytes of zeros, for a file system that cannot allocate. */
static int write_fails_full(int fd, size_t size)
{
	static const char zeros[4096];
	size_t done;

	for (done = 0; done < size; done += sizeof(zeros))
		if (write(fd, zeros, sizeof(zeros)) < 0)
			return is_full(errno);
	return 0;
}

/* The probe is a registered temporary file (tempfile.h): a killed run leaves no blocks taken. */
int rolling_out_of_space_for(const char *dir, size_t need)
{
	struct rolling_tempfile probe;
	char *path;
	int full, err;

	if (!(path = rolling_strfmt("%s/rolling-space-probe-%ld", dir, (long)getpid())))
		return 0;
	if (rolling_tempfile_create(&probe, path, 0, 0600) < 0) {
		full = is_full(errno);
		free(path);
		return full;
	}
	/* Allocating asks for the blocks without writing them. */
	err = posix_fallocate(probe.fd, 0, (off_t)(need + PROBE_SIZE));
	full = err == EINVAL || err == EOPNOTSUPP ? write_fails_full(probe.fd, need + PROBE_SIZE) :
	       is_full(err);
	rolling_tempfile_delete(&probe);
	free(path);
	return full;
}

int rolling_out_of_space(const char *dir)
{
	return rolling_out_of_space_for(dir, 0);
}
