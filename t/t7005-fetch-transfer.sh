#!/bin/sh

test_description='git rolling fetch: what it asks of the server and of git

The quarantined git fetch sees the repository'"'"'s own object store as
an alternate: it must not list the repository'"'"'s refs again as
"alternate refs" (a git for-each-ref per run), unless the repository has
alternates of its own, whose refs count.  Each expectation is read from
git'"'"'s own traces (GIT_TRACE_PACKET, GIT_TRACE).
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh
. "$TEST_DIRECTORY"/lib-fetch.sh

BRANCH=linux-rolling-stable

test_expect_success 'setup: a server, a consumer following it' '
	setup_upstream &&
	publish 12 &&
	git init -q consumer &&
	git -C consumer remote add origin "file://$TRASH_DIRECTORY/server.git" &&
	git -C consumer rolling init -q --follow origin/$BRANCH --preset linux
'

test_expect_success 'the quarantined git fetch lists no alternate refs' '
	git -C consumer rolling fetch -q origin &&
	publish 13 &&
	GIT_TRACE="$TRASH_DIRECTORY/trace" git -C consumer rolling fetch -q origin &&
	test "$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH)" = \
		"$(git -C server.git rev-parse refs/heads/$BRANCH)" &&
	grep "built-in: git fetch .*--stdin" trace &&
	! grep "for-each-ref" trace &&
	no_leftovers consumer
'

test_expect_success 'with alternates of its own, their refs count as git has them' '
	git clone -q --shared --no-checkout -o mirror consumer borrower &&
	test -f borrower/.git/objects/info/alternates &&
	git -C borrower remote add origin "file://$TRASH_DIRECTORY/server.git" &&
	git -C borrower rolling init -q --follow origin/$BRANCH --preset linux &&
	publish 14 &&
	GIT_TRACE="$TRASH_DIRECTORY/trace" git -C borrower rolling fetch -q origin &&
	test "$(git -C borrower rev-parse refs/rolling/verified/origin/$BRANCH)" = \
		"$(git -C server.git rev-parse refs/heads/$BRANCH)" &&
	grep "run_command: .*for-each-ref" trace &&
	no_leftovers borrower
'

test_done
