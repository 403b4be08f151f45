#!/bin/sh

test_description='git rolling fetch over git://, from a git daemon on 127.0.0.1

The same weekly fetch and refusal as over file://, through a real
network transport: the server is a git daemon serving a bare repository
on the loopback interface.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh
. "$TEST_DIRECTORY"/lib-fetch.sh

BRANCH=linux-rolling-stable

# start_daemon: serve $TRASH_DIRECTORY on a free port of 127.0.0.1;
# sets $port.  The daemon is stopped when the script ends.
start_daemon () {
	for port in $(seq $((20000 + $$ % 20000)) $((20020 + $$ % 20000)))
	do
		git daemon --export-all --base-path="$TRASH_DIRECTORY" --listen=127.0.0.1 \
			--port=$port --reuseaddr --pid-file="$TRASH_DIRECTORY/daemon.pid" \
			--detach "$TRASH_DIRECTORY" 2>daemon.err &&
		tries=0 &&
		while ! git ls-remote "git://127.0.0.1:$port/server.git" >/dev/null 2>&1
		do
			test $tries -lt 50 || break
			sleep 0.1
			tries=$((tries + 1))
		done &&
		test $tries -lt 50 && return 0
		stop_daemon
	done
	return 1
}

stop_daemon () {
	test -f "$TRASH_DIRECTORY/daemon.pid" && kill "$(cat "$TRASH_DIRECTORY/daemon.pid")"
	rm -f "$TRASH_DIRECTORY/daemon.pid"
}

test_expect_success 'setup: a server behind git daemon, a consumer following it' '
	setup_upstream &&
	publish 12 &&
	if start_daemon
	then
		test_set_prereq DAEMON
	fi &&
	git init -q consumer &&
	git -C consumer remote add origin "git://127.0.0.1:$port/server.git" &&
	git -C consumer rolling init -q --follow origin/$BRANCH
'

test_expect_success DAEMON 'a first and a weekly fetch over git://' '
	git -C consumer rolling fetch origin >out &&
	grep "^origin/$BRANCH: verified for the first time at " out &&
	publish 13 &&
	git -C consumer rolling fetch origin >out &&
	grep "^origin/$BRANCH: 1 step since " out &&
	test "$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH)" = \
		"$(git --git-dir=server.git rev-parse $BRANCH)"
'

test_expect_success DAEMON 'an injected commit over git:// is refused, nothing kept' '
	good=$(git --git-dir=server.git rev-parse $BRANCH) &&
	test_when_finished "git --git-dir=server.git update-ref refs/heads/$BRANCH $good" &&
	injected=$(git --git-dir=server.git commit-tree -p $good -m "Tune the scheduler" $good^{tree}) &&
	git --git-dir=server.git update-ref refs/heads/$BRANCH $injected &&
	git -C consumer for-each-ref >before &&
	test_expect_code 1 git -C consumer rolling fetch origin 2>err &&
	grep "^error: origin/$BRANCH: $injected: injected: " err &&
	git -C consumer for-each-ref >after &&
	test_cmp before after &&
	test_must_fail git -C consumer cat-file -e $injected
'

test_expect_success DAEMON 'stop the daemon' '
	stop_daemon
'

test_done
