#ifndef ROLLING_PATH_H
#define ROLLING_PATH_H

/*
 * Are `a` and `b` one directory, however spelt: a final '/', a symbolic
 * link, a relative name, a bind mount?  Compared by device and inode, as
 * git's is_same_directory() compares real paths; 0 when either is not
 * there.
 */
int rolling_same_dir(const char *a, const char *b);

#endif
