#ifndef ROLLING_ABOUT_H
#define ROLLING_ABOUT_H

/*
 * What this build of git-rolling is.  The version comes from the Makefile
 * (VERSION-GEN: the release, or `git describe` of a checkout) and is
 * compiled into about.c alone, so that a new version rebuilds one file.
 */

/* "0.2.0", "0.2.0.5.g1a2b3c4", "0.2.0.5.g1a2b3c4.dirty" */
extern const char rolling_version[];

/*
 * When the command line is `<program> --version`, print
 * "git-rolling version <version>" on stdout, as `git --version` words
 * it, and return 1; otherwise return 0.
 */
int rolling_version_option(int argc, const char **argv);

#endif
