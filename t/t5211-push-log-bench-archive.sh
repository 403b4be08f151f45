#!/bin/sh

test_description='the push log the p8000 benchmark generates is what it claims

t/perf/lib-push-log-archive.sh makes, at a small size here, an archive
of records over a real rolling branch: every record must parse (MIME and
YAML), the epochs must hold the counts asked for, the followed ref'\''s
records must chain old to new along the branch'\''s first-parent chain with
certificates that ssh-keygen verifies and that name the same update, and
the weekly copy must add its records on top of the same history, with
the push of the branch'\''s tip among them.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/perf/lib-push-log-archive.sh

test_have_prereq PYTHON3 && test_python3 -c "import yaml" 2>/dev/null &&
	test_set_prereq PYYAML

PERF_PUSH_LOG_RECORDS=600
PERF_PUSH_LOG_SHARE=2
PERF_PUSH_LOG_EPOCH_RECORDS=250
PERF_PUSH_LOG_WEEKLY=20

# records ARCHIVE: "<epoch> <repo> <ref> <old> <new> <cert-status>
# <attachments>" per record, oldest first, from python3's email module
# and PyYAML; each certificate to cert.<n> (n counts the followed
# ref's records).  Fails on a record either cannot read.
records () {
	test_python3 - "$1" <<-\EOF
	import email, os, subprocess, sys, yaml
	top = sys.argv[1] + "/git"
	epochs = sorted(int(d[:-4]) for d in os.listdir(top) if d.endswith(".git"))
	n = 0
	for e in epochs:
	    gd = "--git-dir=%s/%d.git" % (top, e)
	    revs = subprocess.run(["git", gd, "rev-list", "--reverse", "master"],
	                          check=True, capture_output=True, text=True).stdout.split()
	    out = subprocess.run(["git", gd, "cat-file", "--batch"], check=True, capture_output=True,
	                         input="".join(r + ":m\n" for r in revs).encode()).stdout
	    i = 0
	    while i < len(out):
	        nl = out.index(b"\n", i)
	        size = int(out[i:nl].split()[2])
	        msg = email.message_from_bytes(out[nl + 1:nl + 1 + size])
	        i = nl + 1 + size + 1
	        parts = [p for p in msg.walk() if not p.is_multipart()]
	        doc = yaml.load(parts[0].get_payload(decode=True), Loader=yaml.BaseLoader)
	        names = [p.get_filename() for p in parts[1:]]
	        c = doc["changes"][0]
	        if c["ref"] == "refs/heads/linux-rolling-stable":
	            n += 1
	            with open("cert.%d" % n, "wb") as f:
	                f.write(parts[names.index("git-push-certificate.txt") + 1].get_payload(decode=True))
	            if c["log"] and c["log"].startswith("revlist-"):
	                assert c["log"] in names, names
	        print(e, doc["repo"], c["ref"], c["old"], c["new"],
	              doc.get("git_push_cert_status", "-"), ",".join(names) or "-")
	EOF
}

test_expect_success 'setup: a stable tree whose rolling branch took a dozen steps' '
	push_log_small_tree tree &&
	git -C tree rev-list --first-parent --merges linux-rolling-stable >merges &&
	test_line_count -ge 12 merges
'

test_expect_success 'generate the archive and its next week' '
	archive=$(push_log_archive "$TRASH_DIRECTORY/tree") &&
	weekly=$(push_log_archive_weekly "$TRASH_DIRECTORY/tree") &&
	test -f "$archive/bench-info" &&
	test -f "$weekly/bench-info"
'

test_expect_success PYYAML 'every record reads; the epochs hold what was asked' '
	records "$archive" >base &&
	test_line_count = 600 base &&
	awk "{ n[\$1]++ } END { for (e in n) print e, n[e] }" base | sort -n >epochs &&
	printf "0 250\n1 250\n2 100\n" >expect &&
	test_cmp expect epochs &&
	grep -c "^[0-9]* $PUSH_LOG_BENCH_REPO " base >share &&
	echo 12 >expect &&
	test_cmp expect share
'

test_expect_success PYYAML 'the followed ref chains along the branch, each push certified' '
	. "$archive/bench-info" &&
	git -C tree rev-list --first-parent linux-rolling-stable >first-parent &&
	awk -v ref="$PUSH_LOG_BENCH_REF" "\$3 == ref" base >chain &&
	test "$(wc -l <chain)" = "$PUSH_LOG_BENCH_CHAIN" &&
	test $PUSH_LOG_BENCH_CHAIN -ge 10 &&
	awk "
		NR == 1 && \$4 != \"0000000000000000000000000000000000000000\" { print \"no creation: \" \$0 }
		NR > 1 && \$4 != prev { print \"gap: \" \$0 }
		\$6 != \"G\" || \$7 != \"git-push-certificate.txt\" { print \"not certified: \" \$0 }
		{ prev = \$5 }
	" chain >problems &&
	test_must_be_empty problems &&
	awk "{ print \$5 }" chain >news &&
	{ grep -vxF -f first-parent news >off-chain || :; } &&
	test_must_be_empty off-chain &&
	test "$(tail -n 1 news)" = "$PUSH_LOG_BENCH_FIRST_TIP" &&
	n=0 &&
	while read e repo ref old new status names
	do
		n=$((n + 1)) &&
		sed "/^-----BEGIN SSH SIGNATURE-----$/,\$d" cert.$n >payload &&
		sed -n "/^-----BEGIN SSH SIGNATURE-----$/,\$p" cert.$n >sig &&
		ssh-keygen -Y verify -f "$PUSH_LOG_BENCH_ALLOWED_SIGNERS" -I gregkh@example.org \
			-n git -s sig <payload >/dev/null &&
		echo "$old $new $ref" >expect &&
		sed "1,/^$/d" payload >actual &&
		test_cmp expect actual &&
		grep -x "pushee $PUSH_LOG_BENCH_PUSHEE" payload || return 1
	done <chain
'

test_expect_success PYYAML 'the weekly copy adds its records on the same history, the tip among them' '
	. "$weekly/bench-info" &&
	records "$weekly" >week &&
	test_line_count = 620 week &&
	head -n 600 week >same &&
	test_cmp base same &&
	for e in 0 1 2
	do
		git --git-dir="$archive/git/$e.git" rev-parse master >expect &&
		git --git-dir="$weekly/git/$e.git" rev-parse master~0 >/dev/null &&
		git --git-dir="$weekly/git/$e.git" merge-base --is-ancestor "$(cat expect)" master ||
		return 1
	done &&
	tail -n 20 week | awk -v ref="$PUSH_LOG_BENCH_REF" "\$3 == ref" >new-chain &&
	test_line_count = 1 new-chain &&
	read e repo ref old new status names <new-chain &&
	test "$old" = "$PUSH_LOG_BENCH_FIRST_TIP" &&
	test "$new" = "$PUSH_LOG_BENCH_WEEKLY_TIP" &&
	test "$new" = "$(git -C tree rev-parse linux-rolling-stable)"
'

test_done
