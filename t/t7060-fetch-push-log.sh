#!/bin/sh

test_description='fetch and pull check the published tip against the push log

With rolling.<branch>.pushLog (init --follow --push-log), the tip a
server offers must be the one its push log says was published, by a
signed push git trusts, before any ref moves; what fails moves nothing.
The server logs every push with contrib/hooks/push-log.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh
. "$TEST_DIRECTORY"/lib-fetch.sh

BRANCH=linux-rolling-stable

# publish_signed KEY WEEK: publish WEEK with $BRANCH pushed signed by KEY.
publish_signed () {
	stable_tree_replay upstream "$2" &&
	git -C upstream rolling advance -q &&
	git -C upstream push -q --force server "refs/tags/*:refs/tags/*" 2>push.err &&
	git -C upstream -c gpg.format=ssh -c user.signingkey="$TRASH_DIRECTORY/$1.key" \
		push -q --signed server "refs/heads/$BRANCH:refs/heads/$BRANCH" 2>push.err
}

# Every ref and reflog but the push log's own index, which records
# what was read whatever the verdict.
branch_refs () {
	refs_and_logs "$1" | grep -v "push.log"
}

test_expect_success 'setup: a server that logs its pushes, a consumer that follows it' '
	if ssh-keygen -q -t ed25519 -N "" -C stable -f stable.key >/dev/null 2>&1 &&
	   ssh-keygen -q -t ed25519 -N "" -C eve -f eve.key >/dev/null 2>&1 &&
	   echo "data" | ssh-keygen -Y sign -n git -f stable.key >/dev/null 2>&1
	then
		test_set_prereq SSH_SIGN
	fi &&
	echo "stable@example.org $(cat stable.key.pub)" >allowed-signers &&
	cp allowed-signers server-signers &&
	echo "eve@example.org $(cat eve.key.pub)" >>server-signers &&
	setup_upstream &&
	git --git-dir=server.git config receive.certNonceSeed seed &&
	git --git-dir=server.git config pushlog.archive "$TRASH_DIRECTORY/log" &&
	git --git-dir=server.git config gpg.ssh.allowedSignersFile "$TRASH_DIRECTORY/server-signers" &&
	cp "$TEST_DIRECTORY/../contrib/hooks/push-log" server.git/hooks/post-receive
'

test_expect_success SSH_SIGN 'init --follow --push-log configures the branch; fetch checks the tip' '
	publish_signed stable 13 &&
	git init -q consumer &&
	git -C consumer remote add origin "file://$TRASH_DIRECTORY/server.git" &&
	git -C consumer config gpg.ssh.allowedSignersFile "$TRASH_DIRECTORY/allowed-signers" &&
	git -C consumer rolling init --follow origin/$BRANCH --push-log="$TRASH_DIRECTORY/log" \
		--pusher=stable@example.org >out &&
	grep "^following origin/$BRANCH: git rolling fetch origin verifies it from now on, its tip against the push log$" out &&
	test "$(git -C consumer config rolling.$BRANCH.pushLog)" = "$TRASH_DIRECTORY/log" &&
	test "$(git -C consumer config --get-all rolling.$BRANCH.pusher)" = stable@example.org &&
	test_must_fail git -C consumer config rolling.$BRANCH.pushLogRepo &&
	git -C consumer rolling fetch origin >out &&
	grep "^origin/$BRANCH: published by stable@example.org (.*) on [0-9-]*, push 0.git [0-9a-f]\{12\}$" out &&
	grep "^origin/$BRANCH: the newest push to $BRANCH the push log records$" out &&
	test "$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH)" = \
		"$(git --git-dir=server.git rev-parse refs/heads/$BRANCH)"
'

test_expect_success SSH_SIGN 'a tip pushed by a key not trusted: fetch and pull move nothing' '
	publish_signed eve 14 &&
	branch_refs consumer >before &&
	test_expect_code 1 git -C consumer rolling fetch origin >out 2>err &&
	grep "^error: origin/$BRANCH: push log: published: the record 0.git [0-9a-f]\{12\} of the push is not evidence: its certificate.s signature: no public key: " err &&
	grep "^error: origin: 1 branch failed verification; nothing was updated and nothing fetched was kept$" err &&
	branch_refs consumer >after &&
	test_cmp before after &&
	git clone -q --no-tags -b $BRANCH "file://$TRASH_DIRECTORY/server.git" reader 2>/dev/null &&
	git -C reader reset -q --hard HEAD~1 &&
	git -C reader config gpg.ssh.allowedSignersFile "$TRASH_DIRECTORY/allowed-signers" &&
	git -C reader rolling init -q --follow origin/$BRANCH --push-log="$TRASH_DIRECTORY/log" &&
	head=$(git -C reader rev-parse HEAD) &&
	test_expect_code 1 git -C reader rolling pull >out 2>err &&
	grep "push log: published: .*no public key" err &&
	test "$(git -C reader rev-parse HEAD)" = "$head"
'

test_expect_success SSH_SIGN 'the next push signed by a trusted key: the chain since the last check holds' '
	publish_signed stable 15 &&
	git -C consumer rolling fetch origin >out &&
	grep "^origin/$BRANCH: published by stable@example.org" out &&
	grep "^origin/$BRANCH: push chain unbroken from [0-9a-f]\{12\}, 2 pushes$" out
'

test_expect_success SSH_SIGN 'status shows who published the verified tip, and whether it is the newest' '
	git -C consumer rolling status >out &&
	grep "^  push log: published by stable@example.org (SHA256:.*) on [0-9-]*$" out &&
	grep "^  push log: the newest push it records$" out &&
	git -C consumer rolling status --porcelain >out &&
	grep "^pushlog origin/$BRANCH 1 [0-9-]* 0 stable@example.org$" out &&
	git -C consumer rolling status --json >out.json &&
	test_python3 - <<-\EOF &&
	import json
	f = json.load(open("out.json"))["followed"][0]["push_log"]
	assert f["published"] and f["signer"] == "stable@example.org" and f["is_newest"], f
	assert f["later_pushes"] == 0 and f["failures"] == [], f
	EOF
	publish_signed stable 16 &&
	git -C consumer rolling status >out &&
	grep "^  push log: 1 later push, newest [0-9a-f]\{12\} on [0-9-]*: this copy is behind$" out &&
	git -C consumer rolling status --porcelain >out &&
	grep "^pushlog origin/$BRANCH 1 [0-9-]* 1 stable@example.org$" out
'

test_expect_success 'init --follow: the push log options need --push-log, a default needs a remote path' '
	test_expect_code 128 git -C consumer rolling init --follow origin/$BRANCH \
		--push-log-repo=x 2>err &&
	grep "^fatal: --push-log-repo, --push-log-ref, --pusher and --require-latest need --push-log$" err &&
	test_expect_code 128 git -C consumer rolling init --push-log=x $BRANCH 2>err &&
	grep "^fatal: --push-log and its options go with --follow$" err &&
	git -C consumer remote add pathless "example.org:" &&
	test_expect_code 128 git -C consumer rolling init --follow pathless/$BRANCH \
		--push-log="$TRASH_DIRECTORY/log" 2>err &&
	grep "^fatal: the remote.s URL names no repository path; give --push-log-repo or set rolling.$BRANCH.pushLogRepo$" err &&
	test_must_fail git -C consumer config rolling.$BRANCH.pushLogRepo &&
	git -C consumer rolling init -q --follow pathless/$BRANCH --push-log="$TRASH_DIRECTORY/log" \
		--push-log-repo=pub/scm/linux --require-latest &&
	test "$(git -C consumer config rolling.$BRANCH.pushLogRepo)" = pub/scm/linux &&
	test "$(git -C consumer config rolling.$BRANCH.requireLatest)" = true
'

test_done
