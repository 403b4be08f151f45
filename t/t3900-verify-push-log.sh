#!/bin/sh

test_description='verify --push-log: who published the tip, is it the newest, is the chain unbroken

A real server receives real signed pushes (git push --signed, SSH keys,
receive.certNonceSeed) and contrib/hooks/push-log writes every push into
a public-inbox v2 archive, as kernel.org'"'"'s transparency log; verify
reads that archive.  Each scenario has a server and a log of its own.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh

HOOK=$TEST_DIRECTORY/../contrib/hooks/push-log

# new_server NAME: a bare server srv/NAME/pub/scm/linux.git logging to
# log-NAME, trusting the stable, mallory and eve keys, and the remote
# NAME of tree pointing at it.
new_server () {
	ns_dir=$TRASH_DIRECTORY/srv/$1/pub/scm/linux.git &&
	git init -q --bare "$ns_dir" &&
	git --git-dir="$ns_dir" config receive.certNonceSeed "seed-$1" &&
	git --git-dir="$ns_dir" config pushlog.archive "$TRASH_DIRECTORY/log-$1" &&
	git --git-dir="$ns_dir" config pushlog.repo pub/scm/linux &&
	git --git-dir="$ns_dir" config gpg.ssh.allowedSignersFile "$TRASH_DIRECTORY/server-signers" &&
	cp "$HOOK" "$ns_dir/hooks/post-receive" &&
	git -C tree remote add "$1" "file://$ns_dir"
}

# spush KEY REMOTE REV [OPTION...]: push REV as linux-rolling-stable, signed with KEY.
spush () {
	sp_key=$1 sp_remote=$2 sp_rev=$3 &&
	shift 3 &&
	git -C tree -c gpg.format=ssh -c user.signingkey="$TRASH_DIRECTORY/$sp_key.key" \
		push -q --signed "$@" "$sp_remote" "$sp_rev:refs/heads/linux-rolling-stable"
}

# step N: the Nth first-parent commit below the tip of tree's branch.
step () {
	git -C tree rev-parse "linux-rolling-stable~$1"
}

# pv REMOTE [OPTION...]: verify REMOTE/linux-rolling-stable against log-REMOTE.
pv () {
	pv_remote=$1 &&
	shift &&
	git -C tree fetch -q "$pv_remote" &&
	git -C tree rolling verify --push-log="$TRASH_DIRECTORY/log-$pv_remote" \
		--push-log-repo=pub/scm/linux "$@" "$pv_remote/linux-rolling-stable"
}

test_expect_success 'setup' '
	verify_fixture tree &&
	if ssh-keygen -q -t ed25519 -N "" -C stable -f stable.key >/dev/null 2>&1 &&
	   ssh-keygen -q -t ed25519 -N "" -C mallory -f mallory.key >/dev/null 2>&1 &&
	   ssh-keygen -q -t ed25519 -N "" -C eve -f eve.key >/dev/null 2>&1 &&
	   echo "data" | ssh-keygen -Y sign -n git -f stable.key >/dev/null 2>&1
	then
		test_set_prereq SSH_SIGN
	fi &&
	{
		echo "stable@example.org $(cat stable.key.pub)" &&
		echo "mallory@example.org $(cat mallory.key.pub)"
	} >allowed-signers &&
	cat allowed-signers >server-signers &&
	echo "eve@example.org $(cat eve.key.pub)" >>server-signers &&
	git -C tree config gpg.ssh.allowedSignersFile "$TRASH_DIRECTORY/allowed-signers"
'

test_expect_success SSH_SIGN 'a tip published by a signed push: published, newest' '
	new_server a &&
	spush stable a "$(step 3)" &&
	spush stable a "$(step 2)" &&
	pv a >out 2>err &&
	test_must_be_empty err &&
	commit=$(git --git-dir=log-a/git/0.git rev-parse HEAD) &&
	date=$(git --git-dir=log-a/git/0.git log -1 --format=%cd --date=format:%Y-%m-%d) &&
	fpr=$(ssh-keygen -lf stable.key.pub | cut -d" " -f2) &&
	grep "^a/linux-rolling-stable: published by stable@example.org ($fpr) on $date, push 0.git $(echo $commit | cut -c1-12)$" out &&
	grep "^a/linux-rolling-stable: the newest push to linux-rolling-stable the push log records$" out &&
	grep "^a/linux-rolling-stable: verified$" out &&
	git -C tree for-each-ref --format="%(objecttype)" refs/rolling/push-log/ >types &&
	echo blob >expect &&
	test_cmp expect types
'

# push_log_json CONDITION: the push_log object of verify --json (p) meets CONDITION.
push_log_json () {
	test_python3 -c "import json,sys; p=json.load(open(\"out.json\"))[\"branches\"][0][\"push_log\"]; print(p); sys.exit(0 if $1 else 1)"
}

test_expect_success SSH_SIGN 'the next check reads only the new records and checks the chain' '
	pv a --json >out.json &&
	push_log_json "p[\"records_read\"] == 0 and p[\"published\"] and p[\"is_newest\"]" &&
	spush stable a "$(step 1)" &&
	pv a >out &&
	grep "^a/linux-rolling-stable: push chain unbroken from $(step 2 | cut -c1-12), 1 push$" out &&
	spush stable a "$(step 0)" &&
	pv a --json >out.json &&
	push_log_json "p[\"records_read\"] == 1 and p[\"checked_from\"] == \"$(step 1)\"" &&
	pv a >out &&
	! grep "push chain unbroken" out
'

test_expect_success SSH_SIGN 'a tip the log never recorded is not published' '
	git -C tree update-ref refs/remotes/a/linux-rolling-stable "$(step 4)" &&
	test_expect_code 1 git -C tree rolling verify --push-log="$TRASH_DIRECTORY/log-a" \
		--push-log-repo=pub/scm/linux a/linux-rolling-stable >out 2>err &&
	grep "^error: a/linux-rolling-stable: push log: published: $(step 4 | cut -c1-12) was never pushed to linux-rolling-stable of pub/scm/linux: no record of the push log has it as new$" err &&
	test $(grep -c "^error: " err) = 1
'

test_expect_success SSH_SIGN 'an older tip than the one checked before is a rewind' '
	git -C tree update-ref refs/remotes/a/linux-rolling-stable "$(step 2)" &&
	test_expect_code 1 git -C tree rolling verify --push-log="$TRASH_DIRECTORY/log-a" \
		--push-log-repo=pub/scm/linux a/linux-rolling-stable >out 2>err &&
	grep "^error: a/linux-rolling-stable: push log: unbroken: rewind: the tip was pushed before $(step 0 | cut -c1-12), the push last checked$" err &&
	! grep "push chain unbroken" out
'

test_expect_success SSH_SIGN 'behind the newest push: a warning, a failure with --require-latest' '
	new_server g &&
	spush stable g "$(step 2)" &&
	pv g >/dev/null &&
	spush stable g "$(step 1)" &&
	spush stable g "$(step 0)" &&
	git -C tree update-ref refs/remotes/g/linux-rolling-stable "$(step 2)" &&
	newest=$(step 0 | cut -c1-12) &&
	date=$(git --git-dir=log-g/git/0.git log -1 --format=%cd --date=format:%Y-%m-%d) &&
	git -C tree rolling verify --push-log="$TRASH_DIRECTORY/log-g" \
		--push-log-repo=pub/scm/linux g/linux-rolling-stable >out 2>err &&
	grep "^warning: g/linux-rolling-stable: the push log records 2 later pushes to linux-rolling-stable, newest $newest on $date: this copy is behind$" err &&
	test_expect_code 1 git -C tree rolling verify --require-latest \
		--push-log="$TRASH_DIRECTORY/log-g" --push-log-repo=pub/scm/linux \
		g/linux-rolling-stable >out 2>err &&
	grep "^error: g/linux-rolling-stable: push log: newest: the push log records 2 later pushes to linux-rolling-stable, newest $newest on $date: this copy is behind$" err &&
	git -C tree config rolling.linux-rolling-stable.requireLatest true &&
	test_when_finished "git -C tree config --unset rolling.linux-rolling-stable.requireLatest" &&
	test_expect_code 1 git -C tree rolling verify --push-log="$TRASH_DIRECTORY/log-g" \
		--push-log-repo=pub/scm/linux g/linux-rolling-stable 2>err &&
	grep "push log: newest: the push log records 2 later pushes" err &&
	git -C tree rolling verify --no-require-latest --push-log="$TRASH_DIRECTORY/log-g" \
		--push-log-repo=pub/scm/linux g/linux-rolling-stable >/dev/null
'

test_expect_success SSH_SIGN 'a signer git does not trust, or not a listed pusher' '
	new_server b &&
	spush eve b "$(step 1)" &&
	test_expect_code 1 pv b 2>err &&
	grep "^error: b/linux-rolling-stable: push log: published: the record 0.git [0-9a-f]\{12\} of the push is not evidence: its certificate.s signature: no public key: " err &&
	spush mallory b "$(step 0)" &&
	pv b >out &&
	grep "published by mallory@example.org" out &&
	git -C tree config rolling.linux-rolling-stable.pusher stable@example.org &&
	test_when_finished "git -C tree config --unset-all rolling.linux-rolling-stable.pusher" &&
	fpr=$(ssh-keygen -lf mallory.key.pub | cut -d" " -f2) &&
	test_expect_code 1 pv b 2>err &&
	grep "push log: published: the record 0.git [0-9a-f]\{12\} of the push is not evidence: signed by mallory@example.org ($fpr), who is not listed in rolling.linux-rolling-stable.pusher$" err &&
	git -C tree config --add rolling.linux-rolling-stable.pusher "$fpr" &&
	pv b >out &&
	grep "published by mallory@example.org" out
'

test_expect_success SSH_SIGN 'the certificate is checked by the program git.s configuration names' '
	cat >ssh-wrapper <<-EOF &&
	#!/bin/sh
	echo "\$1 \$2" >>"$TRASH_DIRECTORY/ssh-wrapper.log"
	exec ssh-keygen "\$@"
	EOF
	chmod +x ssh-wrapper &&
	test_when_finished "git -C tree config --unset gpg.ssh.program" &&
	git -C tree config gpg.ssh.program "$TRASH_DIRECTORY/ssh-wrapper" &&
	pv b >out &&
	grep "published by mallory@example.org" out &&
	printf "%s\n" "-Y find-principals" "-Y verify" >expect &&
	test_cmp expect ssh-wrapper.log &&
	git -C tree config gpg.ssh.program "$TRASH_DIRECTORY/no-such-program" &&
	test_expect_code 128 pv b 2>err &&
	grep "^fatal: b/linux-rolling-stable: push log .*: cannot run .*no-such-program" err
'

test_expect_success SSH_SIGN 'an unsigned push is not evidence' '
	new_server c &&
	git -C tree push -q c "$(step 1):refs/heads/linux-rolling-stable" &&
	test_expect_code 1 pv c 2>err &&
	grep "push log: published: the record 0.git [0-9a-f]\{12\} of the push is not evidence: git_push_cert_status is absent, not G (good)$" err
'

test_expect_success SSH_SIGN 'a push the log missed is a gap' '
	new_server d &&
	spush stable d "$(step 3)" &&
	pv d >/dev/null &&
	mv srv/d/pub/scm/linux.git/hooks/post-receive hook.saved &&
	spush stable d "$(step 2)" &&
	mv hook.saved srv/d/pub/scm/linux.git/hooks/post-receive &&
	spush stable d "$(step 1)" &&
	test_expect_code 1 pv d 2>err &&
	grep "push log: unbroken: gap: the push 0.git [0-9a-f]\{12\} moved the ref from $(step 2 | cut -c1-12), but the push before it left $(step 3 | cut -c1-12)$" err
'

test_expect_success SSH_SIGN 'a push off the first-parent chain is a rewind' '
	new_server e &&
	spush stable e "$(step 3)" &&
	pv e >/dev/null &&
	side=$(git -C tree commit-tree -p "$(step 3)" -m side "$(step 3)^{tree}") &&
	spush stable e "$side" &&
	spush stable e "$(step 1)" --force &&
	test_expect_code 1 pv e 2>err &&
	grep "push log: unbroken: rewind: the push 0.git [0-9a-f]\{12\} of $(echo $side | cut -c1-12) is not on the tip.s first-parent chain$" err
'

test_expect_success SSH_SIGN 'a rewritten log is refused' '
	new_server f &&
	spush stable f "$(step 2)" &&
	pv f >/dev/null &&
	date=$(git --git-dir=log-f/git/0.git log -1 --format=%cd --date=format:%Y-%m-%d) &&
	spush stable f "$(step 1)" &&
	# The history rewritten: the first record dropped, the second kept.
	second=$(git --git-dir=log-f/git/0.git rev-parse HEAD) &&
	rewritten=$(git --git-dir=log-f/git/0.git commit-tree -m rewritten "$second^{tree}") &&
	git --git-dir=log-f/git/0.git update-ref refs/heads/master "$rewritten" &&
	test_expect_code 1 pv f 2>err &&
	grep "^error: f/linux-rolling-stable: push log: grows: the push log was rewritten since $date: 0.git no longer holds [0-9a-f]\{12\}, read before$" err &&
	test $(grep -c "^error: " err) = 1
'

test_expect_success SSH_SIGN 'the index is a cache: one that lies is thrown away' '
	for ref in $(git -C tree for-each-ref --format="%(refname)" refs/rolling/push-log/)
	do
		git -C tree cat-file blob "$ref" >index &&
		if grep "^log .*/log-a$" index >/dev/null
		then
			break
		fi
	done &&
	# The tip'"'"'s record gone from the index, and one more push listed after it.
	tip=$(step 0) &&
	grep "^record .* $tip [0-9]*$" index >/dev/null &&
	sed -e "/^record .* $tip [0-9]*$/d" index >lie &&
	echo "record 0 $(step 5) $tip $(step 6) 1" >>lie &&
	git -C tree update-ref "$ref" "$(git -C tree hash-object -w --stdin <lie)" &&
	pv a --require-latest >out 2>err &&
	grep "published by stable@example.org" out &&
	git -C tree cat-file blob "$ref" >index &&
	grep "^record .* $tip [0-9]*$" index >/dev/null &&
	! grep "$(step 6)" index
'

test_expect_success SSH_SIGN 'the repository and ref default from the remote, else an error names the option' '
	git -C tree fetch -q a &&
	git -C tree update-ref refs/remotes/a/linux-rolling-stable "$(step 0)" &&
	git -C tree config rolling.linux-rolling-stable.pushLog "$TRASH_DIRECTORY/log-a" &&
	test_when_finished "git -C tree config --remove-section rolling.linux-rolling-stable 2>/dev/null || :" &&
	# The server logs the repository as pub/scm/linux; the remote URL path is longer.
	test_expect_code 1 git -C tree rolling verify a/linux-rolling-stable 2>err &&
	grep "push log: published: .* was never pushed to linux-rolling-stable of $(echo "$TRASH_DIRECTORY" | sed "s|^/||")/srv/a/pub/scm/linux" err &&
	git -C tree config rolling.linux-rolling-stable.pushLogRepo pub/scm/linux &&
	git -C tree rolling verify a/linux-rolling-stable >out &&
	grep "published by" out &&
	test_expect_code 128 git -C tree rolling verify --push-log="$TRASH_DIRECTORY/log-a" \
		"$(step 0)" 2>err &&
	grep "^fatal: $(step 0): no remote to name the push log.s repository; give --push-log-repo$" err
'

test_done
