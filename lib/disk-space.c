#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "disk-space.h"

#define PROBE_SIZE 65536

int rolling_out_of_space(const char *dir)
{
	static const char zeros[4096];
	char *probe;
	int fd, full = 0, i;

	if (asprintf(&probe, "%s/rolling-space-probe-%ld", dir, (long)getpid()) < 0)
		return 0;
	fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		full = errno == ENOSPC || errno == EDQUOT;
		free(probe);
		return full;
	}
	for (i = 0; i < PROBE_SIZE / (int)sizeof(zeros) && !full; i++)
		full = write(fd, zeros, sizeof(zeros)) < 0 && (errno == ENOSPC || errno == EDQUOT);
	close(fd);
	unlink(probe);
	free(probe);
	return full;
}
