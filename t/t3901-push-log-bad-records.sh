#!/bin/sh

test_description='verify --push-log refuses every malformed record, and trusts nothing

Records are crafted by hand into a public-inbox v2 epoch (one commit per
message m, as the archive lays them out): each one spoiled in one way,
each refused with a message that says how, and the tip never published
by it.  A record laid out exactly as kernel.org'"'"'s documented sample
is read.
'
. "$(dirname "$0")"/test-lib.sh

ZERO=0000000000000000000000000000000000000000

# craft_log DIR FILE...: an epoch repository DIR whose master adds each
# FILE in turn as its message m, its commit message the FILE's Subject
# as public-inbox writes it ($CL_SUBJECT when set, "post-receive:
# pub/scm/x" when the FILE has none); HEAD names master.
craft_log () {
	cl_dir=$1 &&
	shift &&
	git init -q --bare "$cl_dir" &&
	cl_parent= &&
	for cl_file in "$@"
	do
		cl_blob=$(git --git-dir="$cl_dir" hash-object -w "$cl_file") &&
		cl_tree=$(printf "100644 blob %s\tm\n" "$cl_blob" | git --git-dir="$cl_dir" mktree) &&
		cl_subject=${CL_SUBJECT-$(sed -n -e "/^\$/q" -e "s/^Subject: //p" "$cl_file")} &&
		cl_parent=$(echo "${cl_subject:-post-receive: pub/scm/x}" |
			git --git-dir="$cl_dir" commit-tree "$cl_tree" ${cl_parent:+-p "$cl_parent"}) ||
			return 1
	done &&
	git --git-dir="$cl_dir" symbolic-ref HEAD refs/heads/master &&
	git --git-dir="$cl_dir" update-ref refs/heads/master "$cl_parent"
}

# fails_against LOG [REPO]: git rolling verify main against the log LOG
# (for the repository pub/scm/x, or REPO) exits 1; its report in out,
# its errors in err.
fails_against () {
	test_expect_code 1 git -C work rolling verify --push-log="$TRASH_DIRECTORY/$1" \
		--push-log-repo="${2:-pub/scm/x}" --push-log-ref=refs/heads/main main >out 2>err
}

# record [YAML-FILE [CERT-FILE]]: a multipart record on stdout, as
# contrib/hooks/push-log and kernel.org write it.
record () {
	printf "%s\n" \
		"Content-Type: multipart/mixed; boundary=\"===============1234==\"" \
		"MIME-Version: 1.0" \
		"From: Gitolite <devnull@example.org>" \
		"Subject: post-receive: pub/scm/x" \
		"Date: Sun, 01 Nov 2020 14:30:04 -0000" \
		"Message-Id: <1@example.org>" \
		"" \
		"--===============1234==" \
		"Content-Type: text/plain; charset=\"us-ascii\"" \
		"MIME-Version: 1.0" \
		"Content-Transfer-Encoding: 7bit" \
		"" &&
	cat "${1:-yaml}" &&
	printf "%s\n" \
		"" \
		"--===============1234==" \
		"Content-Type: text/plain; charset=\"us-ascii\"" \
		"MIME-Version: 1.0" \
		"Content-Transfer-Encoding: 7bit" \
		"Content-Disposition: attachment; filename=\"git-push-certificate.txt\"" \
		"" &&
	cat "${2:-cert}" &&
	printf "%s\n" "" "--===============1234==--"
}

# refused NAME MESSAGE: a log of the record NAME.eml is refused with
# MESSAGE (a grep pattern) naming the record, and the tip is not published.
refused () {
	rm -rf "log-$1" &&
	craft_log "log-$1" "$1.eml" &&
	rf_commit=$(git --git-dir="log-$1" rev-parse HEAD | cut -c1-12) &&
	fails_against log-$1 &&
	grep "^error: main: push log: record: push log 0.git: record $rf_commit: $2" err &&
	test $(grep -c "push log:" err) = 1 &&
	! grep "published by" out
}

test_expect_success 'setup' '
	git init -q work &&
	git -C work commit -q --allow-empty -m one &&
	git -C work branch -M main &&
	tip=$(git -C work rev-parse HEAD) &&
	cat >yaml <<-EOF &&
	---
	service: git-receive-pack
	repo: pub/scm/x
	user: someone
	git_push_cert_status: G
	changes:
	  - ref: refs/heads/main
	    old: $ZERO
	    new: $tip
	    log: |
	         $tip one
	EOF
	cat >cert <<-EOF &&
	certificate version 0.1
	pusher someone <someone@example.org> 1604241004 +0000
	pushee example.org:/pub/scm/x.git
	nonce 1604241003-0123456789abcdef

	$ZERO $tip refs/heads/main
	-----BEGIN SSH SIGNATURE-----
	U1NIU0lHAAAAAQ==
	-----END SSH SIGNATURE-----
	EOF
	record >good.eml
'

test_expect_success 'a well-formed record is read: only its signature fails' '
	craft_log log-good good.eml &&
	fails_against log-good &&
	grep "^error: main: push log: published: the record 0.git [0-9a-f]\{12\} of the push is not evidence: its certificate.s signature: no public key: gpg.ssh.allowedSignersFile needs to be configured$" err &&
	test $(grep -c "push log:" err) = 1
'

test_expect_success 'a malformed record of another repository stops nobody' '
	sed -e "s|pub/scm/x|pub/scm/other|" \
	    -e "s/^Content-Transfer-Encoding: 7bit$/Content-Transfer-Encoding: base64/" \
	    good.eml >other.eml &&
	! grep "pub/scm/x" other.eml &&
	craft_log log-other other.eml good.eml &&
	fails_against log-other &&
	grep "^error: main: push log: published: the record 0.git [0-9a-f]\{12\} of the push is not evidence: its certificate.s signature: no public key" err &&
	test $(grep -c "push log:" err) = 1 &&
	fails_against log-other pub/scm/other &&
	grep "^error: main: push log: record: push log 0.git: record [0-9a-f]\{12\}: part 1: Content-Transfer-Encoding base64 refused" err &&
	# A subject that may name it (a backslash) has the blob looked at: its
	# bytes cannot, and it is skipped there.
	CL_SUBJECT="post-receive: pub\\scm\\other" craft_log log-other-bs other.eml good.eml &&
	git --git-dir=log-other-bs log -1 --format=%s HEAD^ >subject &&
	grep "^post-receive: pub.scm.other$" subject && ! grep "pub/scm/other" subject &&
	fails_against log-other-bs &&
	grep "^error: main: push log: published: the record 0.git [0-9a-f]\{12\} of the push is not evidence: its certificate.s signature: no public key" err &&
	test $(grep -c "push log:" err) = 1
'

test_expect_success 'a repository name spelled with YAML escapes is still read' '
	sed "s|^repo: pub/scm/x|repo: \"pub/scm/\\\\x78\"|" yaml >y &&
	grep "^repo: \"pub/scm/\\\\x78\"$" y &&
	record y >escaped.eml &&
	craft_log log-escaped escaped.eml &&
	fails_against log-escaped &&
	grep "^error: main: push log: published: the record 0.git [0-9a-f]\{12\} of the push is not evidence: its certificate.s signature: no public key" err
'

test_expect_success 'a record whose subject cannot name the repository is skipped unread' '
	tip=$(git -C work rev-parse HEAD) &&
	CL_SUBJECT="post-receive: pub/scm/other" craft_log log-misled good.eml &&
	git --git-dir=log-misled cat-file blob HEAD:m >m &&
	test_cmp good.eml m &&
	fails_against log-misled &&
	grep "^error: main: push log: published: $(echo $tip | cut -c1-12) was never pushed to main of pub/scm/x: no record of the push log has it as new$" err &&
	test $(grep -c "push log:" err) = 1 &&
	sed "s/^Content-Transfer-Encoding: 7bit$/Content-Transfer-Encoding: base64/" good.eml \
		>bad.eml &&
	CL_SUBJECT="post-receive: pub/scm/other" craft_log log-misled-bad bad.eml &&
	fails_against log-misled-bad &&
	grep "^error: main: push log: published: $(echo $tip | cut -c1-12) was never pushed" err &&
	test $(grep -c "push log:" err) = 1
'

test_expect_success 'a subject that names the repository, or holds a backslash, is read in full' '
	CL_SUBJECT="post-receive: pub/scm/x" craft_log log-named-bad bad.eml &&
	fails_against log-named-bad &&
	grep "^error: main: push log: record: push log 0.git: record [0-9a-f]\{12\}: part 1: Content-Transfer-Encoding base64 refused" err &&
	CL_SUBJECT="post-receive: pub\\scm\\x" craft_log log-backslash good.eml &&
	git --git-dir=log-backslash log -1 --format=%s >subject &&
	grep "^post-receive: pub.scm.x$" subject && ! grep "pub/scm/x" subject &&
	fails_against log-backslash &&
	grep "^error: main: push log: published: the record 0.git [0-9a-f]\{12\} of the push is not evidence: its certificate.s signature: no public key" err
'

test_expect_success 'truncated: the closing boundary missing' '
	sed "\$d" good.eml >truncated.eml &&
	refused truncated "multipart message: truncated: boundary ===============1234== not closed$"
'

test_expect_success 'no boundary parameter' '
	sed "1s/; boundary=.*//" good.eml >noparam.eml &&
	refused noparam "multipart message without a boundary$"
'

test_expect_success 'a boundary that never comes' '
	sed "1s/1234/9999/" good.eml >nobound.eml &&
	refused nobound "multipart message: boundary ===============9999== missing$"
'

test_expect_success 'base64 and quoted-printable parts' '
	sed "s/^Content-Transfer-Encoding: 7bit$/Content-Transfer-Encoding: base64/" good.eml >b64.eml &&
	refused b64 "part 1: Content-Transfer-Encoding base64 refused (only 7bit and 8bit text is read, never decoded)$" &&
	sed "0,/7bit/s/7bit/quoted-printable/" good.eml >qp.eml &&
	refused qp "part 1: Content-Transfer-Encoding quoted-printable refused"
'

test_expect_success 'CRLF line ends' '
	sed "s/\$/\r/" good.eml >crlf.eml &&
	refused crlf "carriage return in the record (CRLF line ends are refused)$"
'

test_expect_success 'YAML anchors, aliases and tags' '
	sed "s/^repo: /repo: \&r /" yaml >y && record y >anchor.eml &&
	refused anchor "YAML: anchor &r refused$" &&
	sed "s/^user: someone/user: *r/" yaml >y && record y >alias.eml &&
	refused alias "YAML: alias \*r refused$" &&
	sed "s/^user: /user: !!str /" yaml >y && record y >tag.eml &&
	refused tag "YAML: tag tag:yaml.org,2002:str refused$"
'

test_expect_success 'YAML tabs, duplicated keys, a second document' '
	sed "s/^user: /user:	/" yaml >y && record y >tab.eml &&
	refused tab "YAML: tab character refused$" &&
	sed "s/^user: someone/user: someone\nuser: other/" yaml >y && record y >dup.eml &&
	refused dup "YAML: key user given twice$" &&
	sed "s/^    old: /    old: $ZERO\n    old: /" yaml >y && record y >dupold.eml &&
	refused dupold "YAML: key old given twice$" &&
	{ cat yaml && printf "%s\n" "---" "service: x"; } >y && record y >twodocs.eml &&
	refused twodocs "YAML: "
'

test_expect_success 'a huge scalar' '
	{
		sed "/^    log:/,\$d" yaml &&
		printf "    log: " &&
		test_python3 -c "print(\"x\" * (1200 * 1024))"
	} >y &&
	record y >huge.eml &&
	refused huge "YAML: a scalar longer than 1114112 bytes$"
'

test_expect_success 'an attachment named by log: but missing' '
	tip=$(git -C work rev-parse HEAD) &&
	sed -e "/^    log:/,\$d" yaml >y &&
	echo "    log: revlist-000000000000-$(echo $tip | cut -c1-12).txt" >>y &&
	record y >nolist.eml &&
	refused nolist "log: names the attachment revlist-000000000000-$(echo $tip | cut -c1-12).txt, which is missing$"
'

test_expect_success 'an unknown key, a change without new, an id that is not one' '
	sed "s/^user: someone/user: someone\nextra: 1/" yaml >y && record y >unknown.eml &&
	refused unknown "YAML: unknown key extra$" &&
	sed "/^    new:/d" yaml >y && record y >nonew.eml &&
	refused nonew "YAML: a change without new$" &&
	sed "s/^    new: .*/    new: HEAD/" yaml >y && record y >badid.eml &&
	refused badid "YAML: new: not an object id: HEAD$"
'

test_expect_success 'two records claiming the same new' '
	tip=$(git -C work rev-parse HEAD) &&
	craft_log log-twice good.eml good.eml &&
	first=$(git --git-dir=log-twice rev-parse HEAD^ | cut -c1-12) &&
	second=$(git --git-dir=log-twice rev-parse HEAD | cut -c1-12) &&
	fails_against log-twice &&
	grep "^error: main: push log: record: two records claim the push of $tip: 0.git $first and 0.git $second (a replayed push cannot be told from a real one)$" err
'

test_expect_success 'a record too large is refused before it is read' '
	test_python3 -c "import sys; sys.stdout.write(\"x\" * (33 << 20))" >big.eml &&
	big=$(git hash-object big.eml | cut -c1-40) &&
	rm -rf log-big && craft_log log-big big.eml &&
	fails_against log-big &&
	grep "^error: main: push log: record: push log 0.git: $big is 34603008 bytes, more than the 33554432 a record may have$" err
'

test_expect_success 'a deletion or a merge in the log: it only appends' '
	craft_log log-del good.eml &&
	blob=$(git --git-dir=log-del rev-parse HEAD:m) &&
	tree=$(printf "100644 blob %s\td\n" "$blob" | git --git-dir=log-del mktree) &&
	del=$(echo "post-receive: pub/scm/x" | git --git-dir=log-del commit-tree -p HEAD "$tree") &&
	git --git-dir=log-del update-ref refs/heads/master "$del" &&
	fails_against log-del &&
	grep "push log: record: push log 0.git: commit $(echo $del | cut -c1-12) does not add one message m (a deletion?): a push log only appends$" err &&
	merge=$(echo merge | git --git-dir=log-del commit-tree -p HEAD^ -p HEAD HEAD^^{tree}) &&
	git --git-dir=log-del update-ref refs/heads/master "$merge" &&
	fails_against log-del &&
	grep "push log: record: push log 0.git: commit $(echo $merge | cut -c1-12) is a merge: a push log only appends$" err
'

test_expect_success 'a record without its certificate, or with a status other than G' '
	tip=$(git -C work rev-parse HEAD) &&
	{
		sed -n "1,/^    log: |/p" good.eml &&
		printf "%s\n" "         $tip one" "" "--===============1234==--"
	} >nocert.eml &&
	craft_log log-nocert nocert.eml &&
	fails_against log-nocert &&
	grep "push log: published: the record 0.git [0-9a-f]\{12\} of the push is not evidence: it has no push certificate$" err &&
	sed "s/^git_push_cert_status: G/git_push_cert_status: B/" yaml >y && record y >bad.eml &&
	craft_log log-bad bad.eml &&
	fails_against log-bad &&
	grep "push log: published: the record 0.git [0-9a-f]\{12\} of the push is not evidence: git_push_cert_status is B, not G (good)$" err
'

test_expect_success 'a certificate that disagrees with its YAML' '
	tip=$(git -C work rev-parse HEAD) &&
	sed "s/^$ZERO $tip /$tip $tip /" cert >c && record yaml c >disagree.eml &&
	craft_log log-disagree disagree.eml &&
	fails_against log-disagree &&
	grep "push log: published: the record 0.git [0-9a-f]\{12\} of the push is not evidence: its certificate disagrees with its YAML: it certifies another <old> <new> for the ref than the YAML records$" err &&
	sed "s| refs/heads/main$| refs/heads/other|" cert >c && record yaml c >otherref.eml &&
	craft_log log-otherref otherref.eml &&
	fails_against log-otherref &&
	grep "push log: published: .*: its certificate disagrees with its YAML: it does not name the ref$" err &&
	sed "s|^pushee .*|pushee example.org:/pub/scm/y.git|" cert >c && record yaml c >otherrepo.eml &&
	craft_log log-otherrepo otherrepo.eml &&
	fails_against log-otherrepo &&
	grep "push log: published: .*: its certificate is for another repository (pushee example.org:/pub/scm/y.git, not pub/scm/x)$" err
'

# kernel.org's documented sample record (korg docs, gitolite/transparency-
# log), its annotations left out; the certificate is its layout with a
# signature of our own making, which nobody trusts here.
test_expect_success 'a record laid out as kernel.org'"'"'s sample is read' '
	cat >sample.eml <<-\EOF &&
	Content-Type: multipart/mixed; boundary="===============9216280479104659071=="
	MIME-Version: 1.0
	From: Gitolite <devnull@kernel.org>
	Subject: post-receive: pub/scm/linux/kernel/git/mricon/hook-test
	Date: Sun, 01 Nov 2020 14:30:04 -0000
	Message-Id: <160424100444.28613.2392504408513983803@gitolite.kernel.org>

	--===============9216280479104659071==
	Content-Type: text/plain; charset="us-ascii"
	MIME-Version: 1.0
	Content-Transfer-Encoding: 7bit

	---
	service: git-receive-pack
	repo: pub/scm/linux/kernel/git/mricon/hook-test
	user: mricon
	git_push_cert_status: G
	changes:
	  - ref: refs/heads/main
	    old: 29000644713a1a7ecea7871b433cf83f2740da90
	    new: fe6ba5369e98005e5f0d76442447a966aa70d0dc
	    log: |
	         fe6ba5369e98005e5f0d76442447a966aa70d0dc Another push to test transparency log

	--===============9216280479104659071==
	Content-Type: text/plain; charset="us-ascii"
	MIME-Version: 1.0
	Content-Transfer-Encoding: 7bit
	Content-Disposition: attachment; filename="git-push-certificate.txt"

	certificate version 0.1
	pusher Konstantin Ryabitsev <konstantin@linuxfoundation.org> 1604241003 -0500
	pushee gitolite.kernel.org:/pub/scm/linux/kernel/git/mricon/hook-test
	nonce 1604241003-81c1af8f5ec8b8bb0ec3

	29000644713a1a7ecea7871b433cf83f2740da90 fe6ba5369e98005e5f0d76442447a966aa70d0dc refs/heads/main
	-----BEGIN PGP SIGNATURE-----

	iHUEABYIAB0WIQR2vl2yUnHhSB5njDW2xBzjVmSZbAUCX57GawAKCRC2xBzjVmSZ
	=abcd
	-----END PGP SIGNATURE-----

	--===============9216280479104659071==--
	EOF
	craft_log log-sample sample.eml &&
	test_expect_code 1 git -C work rolling verify --json --push-log="$TRASH_DIRECTORY/log-sample" \
		--push-log-repo=pub/scm/linux/kernel/git/mricon/hook-test --push-log-ref=refs/heads/main \
		main >out.json &&
	test_python3 - <<-\EOF
	import json
	p = json.load(open("out.json"))["branches"][0]["push_log"]
	assert p["newest"]["new"] == "fe6ba5369e98005e5f0d76442447a966aa70d0dc", p
	assert p["newest"]["old"] == "29000644713a1a7ecea7871b433cf83f2740da90", p
	# The certificate'"'"'s pusher time, 2020-11-01 14:30:03 UTC.
	assert p["newest"]["time"] == 1604241003 and p["newest"]["date"] == "2020-11-01", p
	assert [f["check"] for f in p["failures"]] == ["published"], p
	assert "was never pushed to main of pub/scm/linux/kernel/git/mricon/hook-test" in p["failures"][0]["message"], p
	EOF
'

test_done
