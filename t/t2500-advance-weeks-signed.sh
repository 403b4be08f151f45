#!/bin/sh

test_description='advance follows a stable tree week by week (SSH-signed tags)

The weekly simulation of lib-advance-weeks.sh on a tree whose release and
mainline tags are all signed, as every kernel and systemd release tag is:
each merge embeds its release tag in a mergetag header, byte for byte as
git merge <tag> and git commit write it.
'
. "$(dirname "$0")"/test-lib.sh
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

# As t2100 does with annotated tags, make test replays a sample of the
# weeks (sample_weeks: the first, the last three, and the two weeks
# around every series switch) and make test-long every week besides.
advance_weeks_tests tree "" sample

test_expect_success 'the tags are signed, and verify, --rebuild and --signatures pass' '
	cd tree &&
	git verify-tag v6.6.3 2>/dev/null &&
	git rolling verify --rebuild --signatures linux-rolling-stable linux-rolling-lts
'

advance_weeks_tests tree-every EXPENSIVE every

test_done
