#!/bin/sh

test_description='the systemd updater and the post-receive hook take one lock

Both run git rolling advance on the server repository; each waits while
the other holds $GIT_DIR/rolling-advance.lock.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-hold-lock.sh

CONTRIB=$GIT_ROLLING_BUILD_DIR/contrib

test_expect_success 'setup: a repository that fetches its upstream' '
	stable_tree_linux upstream &&
	stable_tree_replay upstream 40 &&
	git clone -q --bare upstream fetcher.git &&
	git --git-dir=fetcher.git rolling init -q linux-rolling-stable &&
	stable_tree_replay upstream 44 &&
	git --git-dir=fetcher.git rev-parse linux-rolling-stable >before
'

test_expect_success 'the updater waits while the hook holds the lock' '
	lock=$(git --git-dir=fetcher.git rev-parse --absolute-git-dir)/rolling-advance.lock &&
	grep "^lock=\"\$(git rev-parse --git-dir)/rolling-advance.lock\"$" \
		"$CONTRIB/hooks/post-receive" &&
	hold_lock "$lock" &&
	test_expect_code 124 timeout 3 "$CONTRIB/systemd/git-rolling-update" \
		"$TRASH_DIRECTORY/fetcher.git" &&
	git --git-dir=fetcher.git rev-parse linux-rolling-stable >during &&
	test_cmp before during &&
	release_lock &&
	"$CONTRIB/systemd/git-rolling-update" "$TRASH_DIRECTORY/fetcher.git" >out &&
	grep "^linux-rolling-stable: .* -> " out &&
	git --git-dir=fetcher.git rev-parse linux-rolling-stable >after &&
	! test_cmp before after
'

test_done
