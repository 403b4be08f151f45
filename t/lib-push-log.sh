# lib-push-log.sh - push logs for the tests: servers that record every
# push with the contrib hook (contrib/hooks/push-log) in a public-inbox v2
# archive, clients that sign their pushes, readers of the records, and
# hand-made records for the tests of bad input.  Source after test-lib.sh.
# Paths may hold spaces (the trash directory's name does).
#
# Servers and clients
#   push_log_server SERVER ARCHIVE [NAME]
#       a bare repository SERVER whose post-receive is the hook, with
#       receive.certNonceSeed set (so that it asks for push certificates)
#       and pushlog.archive ARCHIVE (made absolute); NAME, when given,
#       is pushlog.repo (the record's `repo:`).  The server trusts the
#       SSH keys listed in $PUSH_LOG_ALLOWED_SIGNERS (gpg.ssh.
#       allowedSignersFile) and the GnuPG keyring in $GNUPGHOME.
#   push_log_url SERVER
#       the file:// URL a client pushes to: file:// runs receive-pack over
#       the pack protocol, which carries certificates (the URL is the
#       certificate's `pushee`).
#   push_log_ssh_key KEY [IDENTITY [FILE]]
#       an ed25519 key KEY (KEY.pub beside it, made unless KEY exists),
#       listed for IDENTITY (default pusher@example.org) in FILE (default
#       $PUSH_LOG_ALLOWED_SIGNERS, the servers' list).  A key the server
#       trusts and a reader does not: list it in the default file only,
#       and give the reader another (gpg.ssh.allowedSignersFile).
#   push_log_ssh_client CLIENT KEY
#       configure the repository CLIENT to sign pushes with the SSH key.
#   push_log_gpg_setup
#       (prerequisite GPG) a GnuPG home under the trash directory
#       (GNUPGHOME, exported) with a new unprotected ed25519 key for
#       "GPG Pusher <gpg-pusher@example.org>"; its fingerprint in
#       $PUSH_LOG_GPG_KEY.  Fails when gpg cannot make one.
#   push_log_gpg_client CLIENT
#       configure CLIENT to sign pushes with that key.
#   The tests push with `git -C CLIENT push --signed "$(push_log_url
#   SERVER)" ...`; the hook writes one record per push.  A reader is
#   given "$ARCHIVE/git" (the directory holding the epochs N.git, as a
#   clone of kernel.org's log is laid out) or one epoch.
#
# Reading records
#   push_log_epochs ARCHIVE
#       the epochs' directories, oldest first (git/0.git, git/1.git, ...).
#   push_log_records ARCHIVE
#       one line per record, oldest first over all epochs: "<epoch-dir>
#       <commit>" (the epoch's path has no newline but may hold spaces:
#       read it as all but the last word).
#   push_log_message ARCHIVE [N]
#       the message of the Nth record from the newest (0, the default, is
#       the newest), as stored (blob m).
#   push_log_count ARCHIVE
#       how many records the archive holds.
#   push_log_part MESSAGE-FILE NAME
#       (prerequisite PYTHON3) the decoded payload of a part of the
#       message: "yaml" for the first text part, else the attachment's
#       file name; fails when there is no such part.
#
# Hand-made records (for the readers' tests of bad input)
#   push_log_append ARCHIVE FILE [DATE]
#       append FILE's bytes, whatever they are, as a new record: a commit
#       whose tree holds FILE as the blob m, on master of the newest epoch
#       (epoch 0, made when the archive has none; $PUSH_LOG_EPOCH names
#       another, made when missing), dated DATE (any date git reads;
#       default now).  Its commit message is FILE's Subject, as
#       public-inbox writes it (a reader skips a record whose subject
#       cannot name its repository).  Plain git plumbing, not the hook.
#       Prints the commit.
#   push_log_korg_record OLD NEW REF REPO [CERT-FILE] >FILE
#       a message laid out exactly as the sample record of kernel.org's
#       documentation (its boundary, headers and their order, 7bit parts,
#       user "mricon"), for one change OLD NEW REF of the repository REPO
#       with the log "<NEW> <subject>"; with CERT-FILE, the certificate
#       attached and git_push_cert_status G.
#   push_log_sign_cert KEY PUSHEE OLD NEW REF >FILE
#       a push certificate signed with the SSH key KEY as git push
#       --signed makes one (pusher: the key's fingerprint, a nonce made
#       up), for records of pushes that never happened.

PUSH_LOG_HOOK=${GIT_ROLLING_BUILD_DIR:-$TEST_DIRECTORY/..}/contrib/hooks/push-log
PUSH_LOG_ALLOWED_SIGNERS=$TRASH_DIRECTORY/push-log-allowed-signers

push_log_server () {
	pls_dir=$1 pls_archive=$2 &&
	case $pls_archive in
	/*) ;;
	*) pls_archive=$(pwd -P)/$pls_archive ;;
	esac &&
	git init -q --bare "$pls_dir" &&
	cp "$PUSH_LOG_HOOK" "$pls_dir/hooks/post-receive" &&
	chmod +x "$pls_dir/hooks/post-receive" &&
	git --git-dir="$pls_dir" config receive.certNonceSeed "push-log-test-seed" &&
	git --git-dir="$pls_dir" config pushlog.archive "$pls_archive" &&
	git --git-dir="$pls_dir" config gpg.ssh.allowedSignersFile "$PUSH_LOG_ALLOWED_SIGNERS" &&
	touch "$PUSH_LOG_ALLOWED_SIGNERS" &&
	if test $# -ge 3
	then
		git --git-dir="$pls_dir" config pushlog.repo "$3"
	fi
}

push_log_url () {
	echo "file://$(cd "$1" && pwd -P)"
}

push_log_ssh_key () {
	if ! test -f "$1"
	then
		ssh-keygen -q -t ed25519 -N "" -C "push log key" -f "$1" >/dev/null || return 1
	fi &&
	echo "${2:-pusher@example.org} $(cat "$1.pub")" >>"${3:-$PUSH_LOG_ALLOWED_SIGNERS}"
}

push_log_ssh_client () {
	git -C "$1" config gpg.format ssh &&
	git -C "$1" config user.signingKey "$(cd "$(dirname "$2")" && pwd -P)/${2##*/}"
}

push_log_gpg_setup () {
	GNUPGHOME=$TRASH_DIRECTORY/gnupg &&
	export GNUPGHOME &&
	mkdir -p "$GNUPGHOME" &&
	chmod 700 "$GNUPGHOME" &&
	gpg --batch --quiet --passphrase "" --quick-generate-key \
		"GPG Pusher <gpg-pusher@example.org>" ed25519 sign never 2>/dev/null &&
	PUSH_LOG_GPG_KEY=$(gpg --batch --with-colons --list-secret-keys gpg-pusher@example.org |
		awk -F: '$1 == "fpr" { print $10; exit }') &&
	test -n "$PUSH_LOG_GPG_KEY"
}
command -v gpg >/dev/null 2>&1 && test_set_prereq GPG

push_log_gpg_client () {
	git -C "$1" config gpg.format openpgp &&
	git -C "$1" config user.signingKey "$PUSH_LOG_GPG_KEY"
}

push_log_epochs () {
	for ple_dir in "$1"/git/*.git
	do
		ple_n=${ple_dir##*/}
		ple_n=${ple_n%.git}
		case $ple_n in
		''|*[!0-9]*) continue ;;
		esac
		echo "$ple_n $ple_dir"
	done | sort -n | sed "s/^[0-9]* //"
}

push_log_records () {
	push_log_epochs "$1" >"$TRASH_DIRECTORY/push-log.epochs" &&
	while read -r plr_dir
	do
		git --git-dir="$plr_dir" rev-list --reverse refs/heads/master \
			>"$TRASH_DIRECTORY/push-log.epoch" &&
		sed "s|^|$plr_dir |" "$TRASH_DIRECTORY/push-log.epoch" || return 1
	done <"$TRASH_DIRECTORY/push-log.epochs"
}

push_log_count () {
	push_log_records "$1" >"$TRASH_DIRECTORY/push-log.records" &&
	wc -l <"$TRASH_DIRECTORY/push-log.records" | tr -d " "
}

push_log_message () {
	push_log_records "$1" >"$TRASH_DIRECTORY/push-log.records" &&
	plm_line=$(sed -n '$!d; p' "$TRASH_DIRECTORY/push-log.records") &&
	if test "${2:-0}" != 0
	then
		plm_total=$(wc -l <"$TRASH_DIRECTORY/push-log.records") &&
		plm_line=$(sed -n "$((plm_total - $2))p" "$TRASH_DIRECTORY/push-log.records")
	fi &&
	test -n "$plm_line" &&
	git --git-dir="${plm_line% *}" cat-file blob "${plm_line##* }:m"
}

push_log_part () {
	test_python3 - "$1" "$2" <<-\EOF
	import email, email.policy, sys
	with open(sys.argv[1], "rb") as f:
	    msg = email.message_from_binary_file(f, policy=email.policy.compat32)
	want = sys.argv[2]
	parts = [p for p in msg.walk() if not p.is_multipart()]
	for i, part in enumerate(parts):
	    name = part.get_filename()
	    if (want == "yaml" and i == 0 and name is None) or (name is not None and name == want):
	        sys.stdout.buffer.write(part.get_payload(decode=True))
	        sys.exit(0)
	sys.exit(1)
	EOF
}

push_log_append () {
	pla_archive=$1 pla_file=$2 &&
	if test -n "$PUSH_LOG_EPOCH"
	then
		pla_epoch=$pla_archive/git/$PUSH_LOG_EPOCH.git
	else
		pla_epoch=$(push_log_epochs "$pla_archive" | sed -n '$p') &&
		pla_epoch=${pla_epoch:-$pla_archive/git/0.git}
	fi &&
	if ! test -d "$pla_epoch"
	then
		git init -q --bare --object-format=sha1 "$pla_epoch" &&
		git --git-dir="$pla_epoch" symbolic-ref HEAD refs/heads/master
	fi &&
	pla_blob=$(git --git-dir="$pla_epoch" hash-object -w --no-filters "$pla_file") &&
	pla_tree=$(printf "100644 blob %s\tm\n" "$pla_blob" | git --git-dir="$pla_epoch" mktree) &&
	pla_parent=$(git --git-dir="$pla_epoch" rev-parse -q --verify refs/heads/master || :) &&
	pla_commit=$(
		if test -n "$3"
		then
			GIT_AUTHOR_DATE=$3 GIT_COMMITTER_DATE=$3 &&
			export GIT_AUTHOR_DATE GIT_COMMITTER_DATE
		fi &&
		pla_subject=$(sed -n -e "/^\$/q" -e "s/^Subject: //p" "$pla_file" | sed -n 1p) &&
		echo "${pla_subject:-post-receive: hand-made record}" |
		GIT_AUTHOR_NAME=Gitolite GIT_AUTHOR_EMAIL=devnull@example.org \
		GIT_COMMITTER_NAME=Gitolite GIT_COMMITTER_EMAIL=devnull@example.org \
		git --git-dir="$pla_epoch" commit-tree "$pla_tree" ${pla_parent:+-p "$pla_parent"}
	) &&
	git --git-dir="$pla_epoch" update-ref refs/heads/master "$pla_commit" "$pla_parent" &&
	echo "$pla_commit"
}

push_log_korg_record () {
	plk_boundary="===============9216280479104659071==" &&
	if test -n "$5"
	then
		echo "Content-Type: multipart/mixed; boundary=\"$plk_boundary\""
		echo "MIME-Version: 1.0"
	else
		echo "Content-Type: text/plain; charset=\"us-ascii\""
		echo "MIME-Version: 1.0"
		echo "Content-Transfer-Encoding: 7bit"
	fi &&
	echo "From: Gitolite <devnull@kernel.org>" &&
	echo "Subject: post-receive: $4" &&
	echo "Date: Sun, 01 Nov 2020 14:30:04 -0000" &&
	echo "Message-Id: <160424100444.28613.2392504408513983803@gitolite.kernel.org>" &&
	echo &&
	if test -n "$5"
	then
		echo "--$plk_boundary"
		echo "Content-Type: text/plain; charset=\"us-ascii\""
		echo "MIME-Version: 1.0"
		echo "Content-Transfer-Encoding: 7bit"
		echo
	fi &&
	echo "---" &&
	echo "service: git-receive-pack" &&
	echo "repo: $4" &&
	echo "user: mricon" &&
	if test -n "$5"
	then
		echo "git_push_cert_status: G"
	fi &&
	echo "changes:" &&
	echo "  - ref: $3" &&
	echo "    old: $1" &&
	echo "    new: $2" &&
	echo "    log: |" &&
	echo "         $2 Another push to test transparency log" &&
	if test -n "$5"
	then
		echo
		echo "--$plk_boundary"
		echo "Content-Type: text/plain; charset=\"us-ascii\""
		echo "MIME-Version: 1.0"
		echo "Content-Transfer-Encoding: 7bit"
		echo "Content-Disposition: attachment; filename=\"git-push-certificate.txt\""
		echo
		cat "$5"
		echo
		echo "--$plk_boundary--"
	fi
}

push_log_sign_cert () {
	plc_key=$1 &&
	plc_fpr=$(ssh-keygen -l -f "$plc_key.pub" | awk '{ print $2 }') &&
	plc_time=$(date +%s) &&
	plc_payload=$TRASH_DIRECTORY/push-log-cert.$$ &&
	{
		echo "certificate version 0.1" &&
		echo "pusher $plc_fpr  $plc_time +0000" &&
		echo "pushee $2" &&
		echo "nonce $plc_time-$(echo "$2 $3 $4 $5" | git hash-object --stdin)" &&
		echo &&
		echo "$3 $4 $5"
	} >"$plc_payload" &&
	ssh-keygen -q -Y sign -n git -f "$plc_key" "$plc_payload" >/dev/null 2>&1 &&
	cat "$plc_payload" "$plc_payload.sig" &&
	rm -f "$plc_payload" "$plc_payload.sig"
}
