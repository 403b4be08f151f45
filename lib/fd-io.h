#ifndef ROLLING_FD_IO_H
#define ROLLING_FD_IO_H

#include <stddef.h>

/*
 * Whole writes and copies on file descriptors, retried on EINTR and on
 * short writes: the lock files of refs, reflogs, the index and the
 * intent file are written through these.  Both return 0, or -1 with
 * errno set by the read or write that failed.
 */
int rolling_write_all(int fd, const void *buf, size_t len);

/* Copy what is left to read of `from` into `to`. */
int rolling_copy_fd(int to, int from);

#endif
