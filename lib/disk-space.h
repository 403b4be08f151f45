#ifndef ROLLING_DISK_SPACE_H
#define ROLLING_DISK_SPACE_H

#include <stddef.h>

/*
 * git says "unable to write file X" or "unknown write failure on
 * standard output" when the disk is full, without the reason.  After
 * such a failure, 1 when writing a little (64 KiB) into a scratch file
 * in `dir` fails for want of space (ENOSPC or EDQUOT): the reason to
 * name.  The scratch file is removed; 0 otherwise.
 */
int rolling_out_of_space(const char *dir);

/*
 * The same, for a failure after which the failing program may have
 * given back up to `need` bytes: git fetch takes a lock file per ref
 * and, when one cannot be written, removes them all, each a block of
 * the file system.  The probe allocates 64 KiB and `need` more.
 */
int rolling_out_of_space_for(const char *dir, size_t need);

#endif
