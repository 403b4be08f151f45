#!/bin/sh

test_description='git rolling fetch: what it asks of the server and of git

Its one git fetch asks the server for the branch it fetches and the
tags only, as ref prefixes, so that a hosting server does not send
every other ref it has (pull requests and the like).  The
quarantined git fetch sees the repository'"'"'s own object store as an
alternate: it must not list the repository'"'"'s refs again as
"alternate refs" (a git for-each-ref per run), unless the repository has
alternates of its own, whose refs count.  Each expectation is read from
git'"'"'s own traces (GIT_TRACE_PACKET, GIT_TRACE).
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh
. "$TEST_DIRECTORY"/lib-fetch.sh

BRANCH=linux-rolling-stable

test_expect_success 'setup: a server with refs other than branches and tags' '
	setup_upstream &&
	publish 12 &&
	tip=$(git --git-dir=server.git rev-parse refs/heads/$BRANCH) &&
	git --git-dir=server.git update-ref refs/pull/1/head $tip &&
	git --git-dir=server.git update-ref refs/changes/01/1/1 $tip &&
	git --git-dir=server.git update-ref refs/notes/commits $tip &&
	git --git-dir=server.git update-ref refs/heads/another-branch $tip &&
	git init -q consumer &&
	git -C consumer remote add origin "file://$TRASH_DIRECTORY/server.git" &&
	git -C consumer rolling init -q --follow origin/$BRANCH --preset linux
'

test_expect_success 'the one git fetch asks for the branch and the tags only' '
	GIT_TRACE="$TRASH_DIRECTORY/trace" GIT_TRACE_PACKET="$TRASH_DIRECTORY/packets" \
		git -C consumer rolling fetch -q origin &&
	test "$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH)" = \
		"$(git --git-dir=server.git rev-parse refs/heads/$BRANCH)" &&
	! grep "built-in: git ls-remote" trace &&
	grep "built-in: git fetch .*--stdin" trace >fetches &&
	test_line_count = 1 fetches &&
	grep "fetch> command=ls-refs" packets >ls-refs &&
	test_line_count = 1 ls-refs &&
	sed -n "s/.*fetch> ref-prefix //p" packets >prefixes &&
	grep -x refs/tags/ prefixes &&
	grep -x refs/heads/$BRANCH prefixes &&
	! grep -x refs/heads/ prefixes &&
	grep "fetch< [0-9a-f]* refs/heads/$BRANCH\$" packets &&
	grep "fetch< [0-9a-f]* refs/tags/v" packets &&
	! grep -e refs/pull/ -e refs/changes/ -e refs/notes/ -e refs/heads/another-branch packets
'

test_expect_success 'the quarantined git fetch lists no alternate refs' '
	publish 13 &&
	GIT_TRACE="$TRASH_DIRECTORY/trace" git -C consumer rolling fetch -q origin &&
	test "$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH)" = \
		"$(git --git-dir=server.git rev-parse refs/heads/$BRANCH)" &&
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
		"$(git --git-dir=server.git rev-parse refs/heads/$BRANCH)" &&
	grep "run_command: .*for-each-ref" trace &&
	no_leftovers borrower
'

test_done
