#ifndef ROLLING_GIT_FEATURES_H
#define ROLLING_GIT_FEATURES_H

/*
 * The one place for what differs between the git releases git-rolling
 * runs (2.39, Debian 12, to 2.55 and Git 3.0's defaults), as
 * git2-compat.h is for libgit2: the git on PATH is asked, by a probe of
 * the behaviour itself where one is cheap and harmless, by its version
 * only where nothing else tells.  Each entry says which release changed
 * what.  Every function returns 0 when this git does what the caller
 * needs, or a negative error saying why not.
 */

/*
 * `git bisect start --first-parent` is new in git 2.29: no older git
 * has it, and no probe could try it without starting a bisection, so
 * git's version decides.
 */
int rolling_git_bisects_first_parent(void);

/*
 * Does git bisect run from the current directory, whose work tree's top
 * is `top`?  git 2.39 and older (git-bisect.sh) refuse anywhere but at
 * the top of the work tree ("You need to run this command from the
 * toplevel of the working tree."); the builtin bisect of git 2.40 runs
 * from a subdirectory, where `git bisect run` still runs its command at
 * the top.  git is asked: a subdirectory where `git bisect help`
 * answers otherwise than at the top is one git's bisect refuses, and
 * the error is git's own refusal.
 */
int rolling_git_bisects_here(const char *top);

#endif
