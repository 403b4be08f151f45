#ifndef REFTABLE_SYSTEM_H
#define REFTABLE_SYSTEM_H

/*
 * The platform header of git's reftable library (lib/vendor/reftable/),
 * which each project that embeds the library writes for itself: git's
 * own includes git's compat headers, libgit2's its own.  It gives the
 * library POSIX (Linux with glibc, as the rest of git-rolling) and
 * zlib, which log blocks are compressed with.  The library finds it by
 * its name: whatever includes a header of the library is compiled with
 * `-iquote lib` (Makefile, REFTABLE_CFLAGS).
 *
 * The functions the library asks of its host (system.h: temporary
 * files, locks, random numbers, time, mmap) are in reftable-system.c.
 */

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include <zlib.h>

#endif
