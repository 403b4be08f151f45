#!/bin/sh

test_description='advance follows a stable tree week by week (SSH-signed tags)

The weekly simulation of lib-advance-weeks.sh on a tree whose release and
mainline tags are all signed, as every kernel and systemd release tag is:
each merge embeds its release tag in a mergetag header, byte for byte as
git merge <tag> and git commit write it.  Every week, in make test-long.
'
. "$(dirname "$0")"/test-lib.sh

if ! test_have_prereq EXPENSIVE
then
	skip_all='the weekly replay over SSH-signed tags runs in make test-long (EXPENSIVE); set GIT_ROLLING_TEST_LONG=1'
	test_done
fi
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh

if ! ssh-keygen -q -t ed25519 -N "" -C probe -f "$TRASH_DIRECTORY/probe.key" >/dev/null 2>&1
then
	skip_all='ssh-keygen cannot make keys'
	test_done
fi
STABLE_SIGNED_TAGS=1
export STABLE_SIGNED_TAGS
. "$TEST_DIRECTORY"/lib-advance-weeks.sh

# make test replays t2100's sample of the weeks, with annotated tags;
# t2502, t3005, t3100 and t7002 merge and verify signed tags in make
# test.  This script replays every week, in make test-long only.
advance_weeks_tests tree "" every

test_expect_success 'the tags are signed, and verify, --rebuild and --signatures pass' '
	cd tree &&
	git verify-tag v6.6.3 2>/dev/null &&
	git rolling verify --rebuild --signatures linux-rolling-stable linux-rolling-lts
'

test_done
