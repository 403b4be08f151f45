#ifndef ROLLING_CMDLINE_CONFIG_H
#define ROLLING_CMDLINE_CONFIG_H

#include <git2.h>

/*
 * `git -c key=value rolling ...` and `git --config-env` pass settings to
 * external commands in GIT_CONFIG_PARAMETERS and GIT_CONFIG_COUNT /
 * GIT_CONFIG_KEY_<n> / GIT_CONFIG_VALUE_<n>, which libgit2 does not read.
 * Add them to the repository's configuration at the highest level, so
 * they win over every file as they do in git.
 */
int rolling_apply_cmdline_config(git_repository *repo);

#endif
