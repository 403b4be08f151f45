#!/bin/sh

test_description='the push-log hook records every push in a public-inbox v2 archive

A bare server with contrib/hooks/push-log as its post-receive gets real
pushes over file:// (signed with an SSH key, and with a GnuPG key where gpg
is installed, or unsigned); each writes one record, read back with
python3'\''s email module and PyYAML where available and compared with what
plain git says about the push: the changes, the commit lists, the
certificate the server stored.  Also: long lists as attachments, epoch
rollover, writers serialized by the lock, configuration errors that leave
the push standing, a certificate whose nonce git did not accept.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-push-log.sh
. "$TEST_DIRECTORY"/lib-hold-lock.sh

test_have_prereq PYTHON3 && test_python3 -c "import yaml" 2>/dev/null &&
	test_set_prereq PYYAML

ARCHIVE=$TRASH_DIRECTORY/log
ZERO_OID=0000000000000000000000000000000000000000
REPO=pub/scm/linux/kernel/git/stable/linux

# expect_yaml USER [STATUS-LINE] <changes: "old new ref" lines>: the YAML
# document of a record of the repository $REPO, from plain git in the
# client repository (the commit lists as git log prints them).
expect_yaml () {
	echo "---" &&
	echo "service: git-receive-pack" &&
	echo "repo: $REPO" &&
	echo "user: $1" &&
	if test -n "$2"
	then
		echo "$2"
	fi &&
	echo "changes:" &&
	while read -r old new ref
	do
		echo "  - ref: $ref" &&
		echo "    old: $old" &&
		echo "    new: $new" &&
		case $old,$new in
		*,*[!0]*)
			echo "    log: |" &&
			case $old in
			*[!0]*) git -C client log --format="         %H %s" "$old..$new" ;;
			# the first push: every commit is new
			*) git -C client log --format="         %H %s" "$new" ;;
			esac ;;
		*)
			echo "    log: ''" ;;
		esac || return 1
	done
}

# changes_sorted <YAML: the document with each change joined on one
# line, the changes sorted: for pushes of several refs, whose order is
# git's.
changes_sorted () {
	awk '
		/^  - ref: / { if (c != "") print c; c = $0; next }
		c != "" { c = c "|" $0; next }
		{ print }
		END { if (c != "") print c }
	' | sort
}

# check_headers MESSAGE REPO: the record's headers: Subject names the
# repository, From and Message-Id are there, Date is the commit's date.
check_headers () {
	test_python3 - "$1" "$2" "$(git --git-dir="$(push_log_epochs "$ARCHIVE" | sed -n \$p)" \
		log -1 --format=%at%n%ct master)" <<-\EOF
	import email, email.utils, sys
	msg = email.message_from_binary_file(open(sys.argv[1], "rb"))
	assert msg["Subject"] == "post-receive: " + sys.argv[2], msg["Subject"]
	assert msg["From"].startswith("Gitolite <devnull@"), msg["From"]
	assert msg["MIME-Version"] == "1.0"
	assert msg["Message-Id"].startswith("<") and msg["Message-Id"].endswith(">")
	when = email.utils.parsedate_to_datetime(msg["Date"]).timestamp()
	at, ct = sys.argv[3].split()
	assert int(at) == int(ct) == when, (at, ct, when)
	EOF
}

# yaml_parses FILE: PyYAML reads the document as the mapping the format
# has, with the changes of the "old new ref" lines of FILE.changes (in
# any order: the text comparisons check the order).
# Every scalar is read as a string (BaseLoader), as a reader of the
# format must: with YAML 1.1's types an id of 40 zeros is the number 0.
yaml_parses () {
	test_python3 - "$1" "$1.changes" <<-\EOF
	import sys, yaml
	doc = yaml.load(open(sys.argv[1], encoding="utf-8"), Loader=yaml.BaseLoader)
	changes = [l.split() for l in open(sys.argv[2])]
	assert doc["service"] == "git-receive-pack"
	assert sorted([c["old"], c["new"], c["ref"]] for c in doc["changes"]) == sorted(changes), doc
	print(doc["repo"])
	print(doc["user"])
	EOF
}

test_expect_success 'setup: a server with the hook, a client with an SSH key' '
	push_log_server server.git "$ARCHIVE" "$REPO" &&
	git --git-dir=server.git config pushlog.user gregkh &&
	push_log_ssh_key key &&
	git init -q client &&
	push_log_ssh_client client key &&
	test_commit -C client one &&
	test_commit -C client two &&
	URL=$(push_log_url server.git)
'

test_expect_success PYTHON3 'a signed push writes a record with its certificate' '
	git -C client push -q --signed "$URL" main:refs/heads/linux-rolling-stable 2>err &&
	test_must_be_empty err &&
	test "$(push_log_count "$ARCHIVE")" = 1 &&
	push_log_message "$ARCHIVE" >m &&
	head -n 1 m >ctype &&
	grep "^Content-Type: multipart/mixed; boundary=\"=*[0-9a-f]*==\"$" ctype &&
	check_headers m "$REPO" &&
	echo "$ZERO_OID $(git -C client rev-parse main) refs/heads/linux-rolling-stable" \
		>yaml.changes &&
	expect_yaml gregkh "git_push_cert_status: G" <yaml.changes >expect &&
	push_log_part m yaml >yaml &&
	test_cmp expect yaml &&
	push_log_part m git-push-certificate.txt >cert &&
	# the certificate is the one the server stored, byte for byte
	git --git-dir=server.git cat-file -e "$(git hash-object cert)" &&
	sed -n "/^$/,/^-----BEGIN/p" cert | sed "1d; \$d" >cert.changes &&
	test_cmp yaml.changes cert.changes &&
	grep "^pushee $URL$" cert &&
	sed "/^-----BEGIN SSH SIGNATURE-----$/,\$d" cert >payload &&
	sed -n "/^-----BEGIN SSH SIGNATURE-----$/,\$p" cert >sig &&
	ssh-keygen -Y verify -f "$PUSH_LOG_ALLOWED_SIGNERS" -I pusher@example.org \
		-n git -s sig <payload
'

test_expect_success PYYAML 'PyYAML reads the record as the format says' '
	yaml_parses yaml >names &&
	printf "%s\n" "$REPO" gregkh >expect &&
	test_cmp expect names
'

test_expect_success PYTHON3 'the archive is a public-inbox v2 epoch: one blob m per commit' '
	epoch=$(push_log_epochs "$ARCHIVE") &&
	test "$epoch" = "$ARCHIVE/git/0.git" &&
	test "$(git --git-dir="$epoch" rev-parse --is-bare-repository)" = true &&
	test "$(git --git-dir="$epoch" symbolic-ref HEAD)" = refs/heads/master &&
	git --git-dir="$epoch" ls-tree master >tree &&
	test_line_count = 1 tree &&
	grep "^100644 blob [0-9a-f]*	m$" tree &&
	git --git-dir="$epoch" log -1 --format=%s master >subject &&
	echo "post-receive: $REPO" >expect &&
	test_cmp expect subject
'

test_expect_success PYTHON3 'an unsigned push: text/plain, no status, no certificate' '
	test_commit -C client three &&
	old=$(git -C client rev-parse main~1) &&
	new=$(git -C client rev-parse main) &&
	git -C client push -q "$URL" main:refs/heads/linux-rolling-stable &&
	test "$(push_log_count "$ARCHIVE")" = 2 &&
	push_log_message "$ARCHIVE" >m &&
	sed -n "1,/^$/p" m >headers &&
	grep "^Content-Type: text/plain; charset=\"us-ascii\"$" headers &&
	grep "^Content-Transfer-Encoding: 7bit$" headers &&
	! grep -i "boundary\|^Content-Disposition" m &&
	check_headers m "$REPO" &&
	echo "$old $new refs/heads/linux-rolling-stable" >yaml.changes &&
	expect_yaml gregkh <yaml.changes >expect &&
	sed "1,/^$/d" m >yaml &&
	test_cmp expect yaml &&
	! push_log_part m git-push-certificate.txt
'

test_expect_success PYTHON3 'one push of three refs: one record, the changes in order' '
	test_commit -C client four &&
	git -C client branch -f side main~2 &&
	git -C client tag -a -m "release" v1.0 main &&
	{
		echo "$(git -C client rev-parse main~1) $(git -C client rev-parse main) refs/heads/linux-rolling-stable" &&
		echo "$ZERO_OID $(git -C client rev-parse side) refs/heads/side" &&
		echo "$ZERO_OID $(git -C client rev-parse v1.0) refs/tags/v1.0"
	} >yaml.changes &&
	git -C client push -q --signed "$URL" main:refs/heads/linux-rolling-stable \
		side:refs/heads/side v1.0 &&
	test "$(push_log_count "$ARCHIVE")" = 3 &&
	push_log_message "$ARCHIVE" >m &&
	push_log_part m yaml >yaml &&
	# A new ref lists the commits no other ref had: none for these two.
	{
		expect_yaml gregkh "git_push_cert_status: G" <yaml.changes | sed "/log: |$/q" &&
		git -C client log --format="         %H %s" main~1..main &&
		echo "  - ref: refs/heads/side" &&
		echo "    old: $ZERO_OID" &&
		echo "    new: $(git -C client rev-parse side)" &&
		echo "    log: '\'''\''" &&
		echo "  - ref: refs/tags/v1.0" &&
		echo "    old: $ZERO_OID" &&
		echo "    new: $(git -C client rev-parse v1.0)" &&
		echo "    log: '\'''\''"
	} >expect &&
	test_cmp expect yaml &&
	push_log_part m git-push-certificate.txt >cert &&
	sed -n "/^$/,/^-----BEGIN/p" cert | sed "1d; \$d" >cert.changes &&
	sort yaml.changes >expect &&
	sort cert.changes >actual &&
	test_cmp expect actual
'

test_expect_success PYTHON3 'a new branch lists its own commits; a deletion lists none' '
	git -C client checkout -q -b topic main &&
	test_commit -C client five &&
	test_commit -C client six &&
	git -C client checkout -q main &&
	git -C client push -q "$URL" topic ":refs/heads/side" &&
	push_log_message "$ARCHIVE" >m &&
	{
		echo "$ZERO_OID $(git -C client rev-parse topic) refs/heads/topic" &&
		echo "$(git -C client rev-parse side) $ZERO_OID refs/heads/side"
	} >yaml.changes &&
	{
		expect_yaml gregkh <yaml.changes | sed "/log: |$/q" &&
		git -C client log --format="         %H %s" main..topic &&
		echo "  - ref: refs/heads/side" &&
		echo "    old: $(git -C client rev-parse side)" &&
		echo "    new: $ZERO_OID" &&
		echo "    log: '\'''\''"
	} | changes_sorted >expect &&
	sed "1,/^$/d" m >yaml &&
	changes_sorted <yaml >actual &&
	test_cmp expect actual
'

test_expect_success PYYAML 'the empty log and the deleted ref read back as YAML' '
	yaml_parses yaml >names &&
	test_python3 -c "import yaml; d = yaml.load(open(\"yaml\"), Loader=yaml.BaseLoader); assert [c[\"log\"] for c in d[\"changes\"] if c[\"ref\"] == \"refs/heads/side\"] == [\"\"], d"
'

test_expect_success PYTHON3 'a list over pushlog.maxLogBytes is an attachment named by log:' '
	git --git-dir=server.git config pushlog.maxLogBytes 100 &&
	test_when_finished "git --git-dir=server.git config --unset pushlog.maxLogBytes" &&
	old=$(git -C client rev-parse main) &&
	for i in 1 2 3 4
	do
		test_commit -C client "long-$i" || return 1
	done &&
	new=$(git -C client rev-parse main) &&
	git -C client push -q --signed "$URL" main:refs/heads/linux-rolling-stable &&
	push_log_message "$ARCHIVE" >m &&
	name=revlist-$(echo $old | cut -c1-12)-$(echo $new | cut -c1-12).txt &&
	{
		echo "---" &&
		echo "service: git-receive-pack" &&
		echo "repo: $REPO" &&
		echo "user: gregkh" &&
		echo "git_push_cert_status: G" &&
		echo "changes:" &&
		echo "  - ref: refs/heads/linux-rolling-stable" &&
		echo "    old: $old" &&
		echo "    new: $new" &&
		echo "    log: $name"
	} >expect &&
	push_log_part m yaml >yaml &&
	test_cmp expect yaml &&
	git -C client log --format="%H %s" $old..$new >expect &&
	test $(wc -c <expect) -gt 100 &&
	push_log_part m "$name" >actual &&
	test_cmp expect actual &&
	push_log_part m git-push-certificate.txt >cert &&
	git --git-dir=server.git cat-file -e "$(git hash-object cert)"
'

test_expect_success PYTHON3 'a list of exactly pushlog.maxLogBytes stays inline' '
	old=$(git -C client rev-parse main) &&
	test_commit -C client at-limit &&
	git -C client log --format="%H %s" -1 >list &&
	git --git-dir=server.git config pushlog.maxLogBytes $(wc -c <list) &&
	test_when_finished "git --git-dir=server.git config --unset pushlog.maxLogBytes" &&
	git -C client push -q "$URL" main:refs/heads/linux-rolling-stable &&
	push_log_message "$ARCHIVE" >m &&
	echo "$old $(git -C client rev-parse main) refs/heads/linux-rolling-stable" >yaml.changes &&
	expect_yaml gregkh <yaml.changes >expect &&
	sed "1,/^$/d" m >yaml &&
	test_cmp expect yaml
'

test_expect_success 'each epoch holds at most pushlog.epochSize bytes, then a new one starts' '
	git --git-dir=server.git config pushlog.epochSize 1 &&
	test_when_finished "git --git-dir=server.git config --unset-all pushlog.epochSize || :" &&
	before=$(push_log_count "$ARCHIVE") &&
	test_commit -C client epoch-1 &&
	git -C client push -q "$URL" main:refs/heads/linux-rolling-stable &&
	test_commit -C client epoch-2 &&
	git -C client push -q "$URL" main:refs/heads/linux-rolling-stable &&
	push_log_epochs "$ARCHIVE" >epochs &&
	printf "$ARCHIVE/git/%s.git\n" 0 1 2 >expect &&
	test_cmp expect epochs &&
	test "$(push_log_count "$ARCHIVE")" = $((before + 2)) &&
	# each new epoch starts its own history, as public-inbox does
	for n in 1 2
	do
		git --git-dir="$ARCHIVE/git/$n.git" rev-list master >list &&
		test_line_count = 1 list || return 1
	done &&
	git --git-dir="$ARCHIVE/git/2.git" cat-file blob master:m >m &&
	grep "^    new: $(git -C client rev-parse main)$" m &&
	git --git-dir=server.git config --unset pushlog.epochSize &&
	test_commit -C client epoch-3 &&
	git -C client push -q "$URL" main:refs/heads/linux-rolling-stable &&
	git --git-dir="$ARCHIVE/git/2.git" rev-list master >list &&
	test_line_count = 2 list
'

test_expect_success 'a writer waits while another holds the archive lock' '
	before=$(push_log_count "$ARCHIVE") &&
	hold_lock "$ARCHIVE/push-log.lock" &&
	test_commit -C client locked &&
	{ git -C client push -q "$URL" main:refs/heads/linux-rolling-stable 2>push.err & } &&
	pusher=$! &&
	# the ref moves at once; its record waits for the lock
	tries=0 &&
	until test "$(git --git-dir=server.git rev-parse linux-rolling-stable)" = \
		"$(git -C client rev-parse main)"
	do
		tries=$((tries + 1)) &&
		test $tries -le 200 &&
		sleep 0.05 || return 1
	done &&
	sleep 1 &&
	test "$(push_log_count "$ARCHIVE")" = $before &&
	release_lock &&
	wait $pusher &&
	test "$(push_log_count "$ARCHIVE")" = $((before + 1)) &&
	grep "^    new: $(git -C client rev-parse main)$" "$(push_log_message "$ARCHIVE" >m && echo m)"
'

test_expect_success 'concurrent pushes: every record is written, one chain' '
	before=$(push_log_count "$ARCHIVE") &&
	for i in 1 2 3 4 5 6
	do
		git -C client branch -f "race-$i" main~$i || return 1
	done &&
	for i in 1 2 3 4 5 6
	do
		{ git -C client push -q "$URL" "race-$i" 2>"race-$i.err" & } || return 1
	done &&
	wait &&
	for i in 1 2 3 4 5 6
	do
		test_must_be_empty "race-$i.err" || return 1
	done &&
	test "$(push_log_count "$ARCHIVE")" = $((before + 6)) &&
	newest=$(push_log_epochs "$ARCHIVE" | sed -n \$p) &&
	git --git-dir="$newest" rev-list --parents master >chain &&
	awk "NF > 2 { print \"a merge: \" \$0; bad = 1 } END { exit bad }" chain &&
	for i in 1 2 3 4 5 6
	do
		git --git-dir="$newest" log -7 --format=%H master |
		while read c
		do
			git --git-dir="$newest" cat-file blob $c:m
		done | grep -c "^  - ref: refs/heads/race-$i$" >count &&
		echo 1 >expect &&
		test_cmp expect count || return 1
	done
'

test_expect_success 'without flock(1), concurrent writers retry on a moved master' '
	mkdir no-flock &&
	printf "#!/bin/sh\nexit 0\n" >no-flock/flock &&
	chmod +x no-flock/flock &&
	before=$(push_log_count "$ARCHIVE") &&
	for i in 1 2 3 4 5 6 7 8
	do
		git -C client branch -f "free-$i" main~$i || return 1
	done &&
	for i in 1 2 3 4 5 6 7 8
	do
		{ PATH=$TRASH_DIRECTORY/no-flock:$PATH git -C client push -q "$URL" "free-$i" \
			2>"free-$i.err" & } || return 1
	done &&
	wait &&
	cat free-*.err >errors &&
	test_must_be_empty errors &&
	test "$(push_log_count "$ARCHIVE")" = $((before + 8))
'

test_expect_success 'a broken configuration is an error, and the push stands' '
	git --git-dir=server.git config --unset pushlog.archive &&
	test_when_finished "git --git-dir=server.git config pushlog.archive \"\$ARCHIVE\"" &&
	before=$(push_log_count "$ARCHIVE") &&
	test_commit -C client unlogged-1 &&
	git -C client push "$URL" main:refs/heads/linux-rolling-stable 2>err &&
	grep "^remote: error: push-log: pushlog.archive is not set; no record written" err &&
	test "$(git --git-dir=server.git rev-parse linux-rolling-stable)" = \
		"$(git -C client rev-parse main)" &&

	git --git-dir=server.git config pushlog.archive relative/log &&
	test_commit -C client unlogged-2 &&
	git -C client push "$URL" main:refs/heads/linux-rolling-stable 2>err &&
	grep "^remote: error: push-log: pushlog.archive must be an absolute path" err &&

	git --git-dir=server.git config pushlog.archive "$ARCHIVE" &&
	git --git-dir=server.git config pushlog.maxLogBytes lots &&
	test_commit -C client unlogged-3 &&
	git -C client push "$URL" main:refs/heads/linux-rolling-stable 2>err &&
	git --git-dir=server.git config --unset pushlog.maxLogBytes &&
	grep "^remote: error: push-log: pushlog.maxLogBytes is not a number" err &&

	echo "not a directory" >not-a-dir &&
	git --git-dir=server.git config pushlog.archive "$TRASH_DIRECTORY/not-a-dir" &&
	test_commit -C client unlogged-4 &&
	git -C client push "$URL" main:refs/heads/linux-rolling-stable 2>err &&
	grep "^remote: error: push-log: cannot make the archive" err &&
	test "$(git --git-dir=server.git rev-parse linux-rolling-stable)" = \
		"$(git -C client rev-parse main)" &&
	test "$(push_log_count "$ARCHIVE")" = $before
'

test_expect_success 'master of the epoch not updated: no record, an error' '
	git init -q --bare hostile.git &&
	cp "$PUSH_LOG_HOOK" hostile.git/hooks/post-receive &&
	git --git-dir=hostile.git config pushlog.archive "$TRASH_DIRECTORY/hostile-log" &&
	git -C client push -q "$(push_log_url hostile.git)" main &&
	epoch=$TRASH_DIRECTORY/hostile-log/git/0.git &&
	master=$(git --git-dir="$epoch" rev-parse master) &&
	# the epoch refuses the update of master
	printf "#!/bin/sh\ntest \"\$1\" = prepared || exit 0\nexit 1\n" \
		>"$epoch/hooks/reference-transaction" &&
	chmod +x "$epoch/hooks/reference-transaction" &&
	test_commit -C client unlogged-5 &&
	git -C client push "$(push_log_url hostile.git)" main 2>err &&
	grep "^remote: error: push-log: cannot update master of .*; no record written" err &&
	test "$(git --git-dir="$epoch" rev-parse master)" = "$master"
'

test_expect_success PYTHON3 'a certificate whose nonce git did not accept is not called good' '
	test_commit -C client nonce &&
	git -C client push -q --signed "$URL" main:refs/heads/linux-rolling-stable &&
	push_log_message "$ARCHIVE" >m &&
	push_log_part m git-push-certificate.txt >signed &&
	cert=$(git hash-object signed) &&
	git --git-dir=server.git cat-file -e $cert &&
	tip=$(git --git-dir=server.git rev-parse linux-rolling-stable) &&
	for status in BAD SLOP
	do
		echo "$tip $tip refs/heads/linux-rolling-stable" |
		(
			cd server.git &&
			GIT_DIR=. GIT_PUSH_CERT=$cert GIT_PUSH_CERT_STATUS=G \
			GIT_PUSH_CERT_NONCE_STATUS=$status \
			GIT_PUSH_CERT_SIGNER=pusher@example.org \
			./hooks/post-receive
		) &&
		push_log_message "$ARCHIVE" >m &&
		push_log_part m yaml >yaml &&
		! grep "^git_push_cert_status:" yaml &&
		grep "^git_push_cert_nonce_status: $status$" yaml &&
		push_log_part m git-push-certificate.txt >got &&
		git --git-dir=server.git cat-file blob $cert >expect &&
		test_cmp expect got || return 1
	done
'

test_expect_success PYYAML 'names that YAML would misread are quoted' '
	git init -q --bare names.git &&
	cp "$PUSH_LOG_HOOK" names.git/hooks/post-receive &&
	git --git-dir=names.git config pushlog.archive "$TRASH_DIRECTORY/names-log" &&
	git --git-dir=names.git config pushlog.repo "it'\''s: a #repo" &&
	git -C client push -q "$(push_log_url names.git)" main &&
	test_commit -C client names &&
	GL_USER=yes git -C client push -q "$(push_log_url names.git)" main &&
	git --git-dir="$TRASH_DIRECTORY/names-log/git/0.git" cat-file blob master:m >m &&
	sed "1,/^$/d" m >yaml &&
	git -C client rev-parse main~1 main >ids &&
	echo "$(cat ids | tr "\n" " ")refs/heads/main" >yaml.changes &&
	yaml_parses yaml >names &&
	printf "%s\n" "it'\''s: a #repo" yes >expect &&
	test_cmp expect names &&
	# and a reader that types its scalars sees strings, not true
	test_python3 -c "import yaml; d = yaml.safe_load(open(\"yaml\")); assert d[\"user\"] == \"yes\" and d[\"repo\"] == \"it'\''s: a #repo\", d"
'

test_expect_success PYYAML 'a subject that is not UTF-8 or holds control characters stays YAML' '
	# git commit would take the byte for Latin-1 and write UTF-8: the
	# commits are written as they are, on a branch of their own
	main=$(git -C client rev-parse main) &&
	tree=$(git -C client rev-parse main^{tree}) &&
	printf "tree %s\nparent %s\nauthor A U Thor <a@example.org> 1 +0000\ncommitter A U Thor <a@example.org> 1 +0000\n\nbad \377 byte\n" \
		$tree $main >raw1 &&
	c1=$(git -C client hash-object -t commit -w "$TRASH_DIRECTORY/raw1") &&
	printf "tree %s\nparent %s\nauthor A U Thor <a@example.org> 1 +0000\ncommitter A U Thor <a@example.org> 1 +0000\n\nbell \007 tab \011 end\n" \
		$tree $c1 >raw2 &&
	c2=$(git -C client hash-object -t commit -w "$TRASH_DIRECTORY/raw2") &&
	git -C client push -q "$(push_log_url names.git)" $c2:refs/heads/main &&
	git --git-dir="$TRASH_DIRECTORY/names-log/git/0.git" cat-file blob master:m >m &&
	sed "1,/^$/d" m >yaml &&
	echo "$main $c2 refs/heads/main" >yaml.changes &&
	yaml_parses yaml &&
	{
		echo "         $c2 bell ? tab ? end" &&
		echo "         $c1 bad ? byte"
	} >expect &&
	grep "^         [0-9a-f]\{40\} " yaml >actual &&
	test_cmp expect actual
'

test_expect_success GPG,PYTHON3 'a push signed with a GnuPG key' '
	push_log_gpg_setup &&
	push_log_gpg_client client &&
	old=$(git --git-dir=server.git rev-parse linux-rolling-stable) &&
	test_commit -C client gpg-signed &&
	git -C client push -q --signed "$URL" main:refs/heads/linux-rolling-stable &&
	push_log_message "$ARCHIVE" >m &&
	echo "$old $(git -C client rev-parse main) refs/heads/linux-rolling-stable" >yaml.changes &&
	expect_yaml gregkh "git_push_cert_status: G" <yaml.changes >expect &&
	push_log_part m yaml >yaml &&
	test_cmp expect yaml &&
	push_log_part m git-push-certificate.txt >cert &&
	git --git-dir=server.git cat-file -e "$(git hash-object cert)" &&
	sed "/^-----BEGIN PGP SIGNATURE-----$/,\$d" cert >payload &&
	sed -n "/^-----BEGIN PGP SIGNATURE-----$/,\$p" cert >sig &&
	gpg --batch --status-fd 1 --verify sig payload 2>/dev/null >status &&
	grep "^\[GNUPG:\] VALIDSIG $PUSH_LOG_GPG_KEY " status
'

test_expect_success PYTHON3 'hand-made records: push_log_append and the kernel.org layout' '
	printf "not a mail\r\n\000" >raw &&
	c=$(push_log_append "$TRASH_DIRECTORY/made" raw "2020-11-01 14:30:04 +0000") &&
	git --git-dir="$TRASH_DIRECTORY/made/git/0.git" cat-file blob master:m >back &&
	test_cmp raw back &&
	test "$(git --git-dir="$TRASH_DIRECTORY/made/git/0.git" log -1 --format=%ct $c)" = 1604241004 &&
	push_log_sign_cert key "$URL" "$ZERO_OID" "$(git -C client rev-parse main)" \
		refs/heads/linux-rolling-stable >cert &&
	sed "/^-----BEGIN SSH SIGNATURE-----$/,\$d" cert >payload &&
	sed -n "/^-----BEGIN SSH SIGNATURE-----$/,\$p" cert >sig &&
	ssh-keygen -Y verify -f "$PUSH_LOG_ALLOWED_SIGNERS" -I pusher@example.org \
		-n git -s sig <payload &&
	push_log_korg_record "$ZERO_OID" "$(git -C client rev-parse main)" \
		refs/heads/linux-rolling-stable "$REPO" cert >korg &&
	PUSH_LOG_EPOCH=1 push_log_append "$TRASH_DIRECTORY/made" korg &&
	test "$(push_log_count "$TRASH_DIRECTORY/made")" = 2 &&
	push_log_message "$TRASH_DIRECTORY/made" >m &&
	test_cmp korg m &&
	push_log_part m git-push-certificate.txt >got &&
	test_cmp cert got &&
	push_log_message "$TRASH_DIRECTORY/made" 1 >first &&
	test_cmp raw first
'

test_expect_success 'make install-contrib installs the hook beside the other' '
	make -C "$GIT_ROLLING_BUILD_DIR" -s install-contrib prefix="$TRASH_DIRECTORY/inst" &&
	test -x inst/lib/git-rolling/hooks/push-log &&
	test -x inst/lib/git-rolling/hooks/post-receive &&
	test_cmp "$PUSH_LOG_HOOK" inst/lib/git-rolling/hooks/push-log
'

test_done
