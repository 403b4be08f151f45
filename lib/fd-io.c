#include <errno.h>
#include <unistd.h>
#include "fd-io.h"

int rolling_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int rolling_copy_fd(int to, int from)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(from, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || rolling_write_all(to, buf, (size_t)n) < 0)
			return -1;
	}
	return 0;
}
