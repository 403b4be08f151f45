#!/bin/sh

test_description='advance with a pin to a series that has no release yet

The branch stays where it is, as before, but says why: the pin names a
series (one that is only in its merge window, or one that does not exist
at all) with no release tag.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh

test_expect_success 'setup: 6.3-rc1 exists, 6.2 has releases' '
	stable_tree_linux tree &&
	stable_tree_replay tree 40 &&
	cd tree &&
	git tag -l "v6.3*" >../tags-6.3 &&
	grep -x "v6.3-rc1" ../tags-6.3 &&
	! grep "^v6\.3\.[0-9]" ../tags-6.3 &&
	git rolling init -q --at v6.2.1 pinned
'

for pin in 6.3 6.9
do
	test_expect_success "a pin to $pin (no release): warned, the branch stays on 6.2" '
		cd tree &&
		git config rolling.pinned.pin $pin &&
		git rolling advance pinned >../out 2>../err &&
		echo "warning: pinned: rolling.pinned.pin is $pin, which has no release yet; staying on 6.2" >../expect &&
		test_cmp ../expect ../err &&
		test "$(git log -1 --format=%s pinned)" = "Merge $(git tag -l "v6.2.*" | sort -V | tail -n 1)"
	'
done

test_expect_success 'a pin to a series with releases: no warning' '
	cd tree &&
	git config rolling.pinned.pin 6.2 &&
	git rolling advance pinned >../out 2>../err &&
	test_must_be_empty ../err
'

test_done
