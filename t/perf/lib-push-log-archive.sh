# lib-push-log-archive.sh - a kernel.org-scale push log (a public-inbox v2
# archive in the layout contrib/hooks/push-log writes) for the push-log
# benchmark (p8000), made once and cached beside the kernel-scale
# repository whose rolling branch it records.  Source it from a
# t/perf/p*.sh script after lib-kernel-scale.sh.
#
#   push_log_archive REPO
#       print the path of the archive for REPO (kernel_scale_repo's),
#       generating it first if the cache does not hold it.  Source
#       <archive>/bench-info for the PUSH_LOG_BENCH_* variables below.
#   push_log_archive_weekly REPO
#       print the path of the same archive a week later: a copy with
#       PERF_PUSH_LOG_WEEKLY (default 100) more records in its newest
#       epoch, one of them the push of the rolling branch's last step
#       (cached too).  Its epochs hold the base archive's commits, as a
#       fetch of the published log would: a reader that remembers what
#       it read in the base reads only the new records.
#   push_log_small_tree DIR
#       for the tests that generate the archive at a small size (t5211,
#       t3903; they source t/lib-stable-tree.sh): in DIR a stable tree
#       whose rolling branch, linux-rolling-stable, took a dozen steps.
#
# Sizes (PERF_* variables, in the cache directory's name):
#   PERF_PUSH_LOG_RECORDS       records of the base archive (200000)
#   PERF_PUSH_LOG_SHARE         percent of them for the followed
#                               repository (1)
#   PERF_PUSH_LOG_EPOCH_RECORDS records per epoch (50000: 4 epochs; a
#                               real epoch rolls over at about 1 GB)
#
# The followed repository is $PUSH_LOG_BENCH_REPO, its ref
# $PUSH_LOG_BENCH_REF (refs/heads/linux-rolling-stable).  Its records
# form a chain: the branch's creation, then one push per step (old = the
# previous push's new) along REPO's first-parent chain of
# linux-rolling-stable, every one with a push certificate signed with an
# SSH key kept in the archive ($PUSH_LOG_BENCH_ALLOWED_SIGNERS lists it
# for gregkh@example.org) and a commit list from git log old..new (an
# attachment when over 1 MB, as the hook does).  When the branch has
# fewer steps than the share allows, the chain has one record per step
# (582 steps for the default kernel-scale repository) and the rest of
# the share are pushes to the repository's other refs (stable branches
# and tags, with made-up ids and certificates that claim a good
# signature the reader never needs to check); with more steps than the
# share, each push covers several steps.  The base archive holds the
# chain up to $PUSH_LOG_BENCH_FIRST_TIP (the branch's tip but one step);
# the weekly one adds the push of $PUSH_LOG_BENCH_WEEKLY_TIP (the tip).
# All other records are for 500 made-up repositories, half of them with a
# certificate attachment.  Record times rise from before the first step
# to after the last; each step's push comes 10 minutes after its commit.
#
#   PUSH_LOG_BENCH_REPO, PUSH_LOG_BENCH_REF, PUSH_LOG_BENCH_PUSHEE
#       the followed repository's name, ref, and the certificates' pushee
#   PUSH_LOG_BENCH_ALLOWED_SIGNERS  allowed-signers file for the pusher key
#   PUSH_LOG_BENCH_FIRST_TIP, PUSH_LOG_BENCH_WEEKLY_TIP  (see above)
#   PUSH_LOG_BENCH_CHAIN            records of the ref in the base archive
#
# Made with one awk program that writes each epoch's git fast-import
# stream (no process per record); the only per-record processes are one
# git log per step of the chain and ssh-keygen, which signs all the
# certificates in one run.

PERF_PUSH_LOG_RECORDS=${PERF_PUSH_LOG_RECORDS:-200000}
PERF_PUSH_LOG_SHARE=${PERF_PUSH_LOG_SHARE:-1}
PERF_PUSH_LOG_EPOCH_RECORDS=${PERF_PUSH_LOG_EPOCH_RECORDS:-50000}
PERF_PUSH_LOG_WEEKLY=${PERF_PUSH_LOG_WEEKLY:-100}

PUSH_LOG_BENCH_REPO=pub/scm/linux/kernel/git/stable/linux
PUSH_LOG_BENCH_REF=refs/heads/linux-rolling-stable
PUSH_LOG_BENCH_PUSHEE=ssh://git@gitolite.kernel.org/pub/scm/linux/kernel/git/stable/linux

# push_log_stream_ MODE OUT FOLLOWED FIRST_EPOCH: the awk program.  MODE
# "base" writes epochs FIRST_EPOCH... of OUT from scratch, "weekly"
# appends to epoch FIRST_EPOCH's master.  FOLLOWED has one line per
# record of the followed ref, oldest first: "<time> <file> <size>", the
# message in a file beside FOLLOWED.
push_log_stream_ () {
	awk -v mode="$1" -v out="$2" -v first_epoch="$4" \
	    -v records="$PERF_PUSH_LOG_RECORDS" -v share="$PERF_PUSH_LOG_SHARE" \
	    -v per_epoch="$PERF_PUSH_LOG_EPOCH_RECORDS" -v weekly="$PERF_PUSH_LOG_WEEKLY" \
	    -v frepo="$PUSH_LOG_BENCH_REPO" -v fref="$PUSH_LOG_BENCH_REF" \
	    -v t_start="$PUSH_LOG_T_START" -v t_end="$PUSH_LOG_T_END" \
	    -v gen="$(dirname "$3")" '
	function hex(n,    s) {
		s = ""
		while (length(s) < n)
			s = s sprintf("%08x", int(rand() * 4294967296))
		return substr(s, 1, n)
	}
	# RFC 2822 date of a Unix time, in UTC (days to a civil date).
	function rfc2822(t,    days, secs, z, era, doe, yoe, y, doy, mp, d, m) {
		days = int(t / 86400); secs = t - days * 86400
		z = days + 719468
		era = int(z / 146097)
		doe = z - era * 146097
		yoe = int((doe - int(doe / 1460) + int(doe / 36524) - int(doe / 146096)) / 365)
		y = yoe + era * 400
		doy = doe - (365 * yoe + int(yoe / 4) - int(yoe / 100))
		mp = int((5 * doy + 2) / 153)
		d = doy - int((153 * mp + 2) / 5) + 1
		m = mp < 10 ? mp + 3 : mp - 9
		if (m <= 2) y++
		return sprintf("%s, %02d %s %d %02d:%02d:%02d +0000", wday[(days + 4) % 7], d,
			month[m], y, int(secs / 3600), int(secs % 3600 / 60), secs % 60)
	}
	function part(body, name,    s) {
		s = "Content-Type: text/plain; charset=\"us-ascii\"\nMIME-Version: 1.0\n" \
			"Content-Transfer-Encoding: 7bit\n"
		if (name != "")
			s = s "Content-Disposition: attachment; filename=\"" name "\"\n"
		return s "\n" body
	}
	# One message: the YAML of one change, a certificate when cert != "".
	function message(t, repo, user, ref, old, new, lst, cert,    yaml, s, b, name, attach) {
		yaml = "---\nservice: git-receive-pack\nrepo: " repo "\nuser: " user "\n"
		if (cert != "")
			yaml = yaml "git_push_cert_status: G\n"
		yaml = yaml "changes:\n  - ref: " ref "\n    old: " old "\n    new: " new "\n"
		attach = ""
		if (lst == "")
			yaml = yaml "    log: '\'''\''\n"
		else if (length(lst) > 1048576) {
			name = "revlist-" substr(old, 1, 12) "-" substr(new, 1, 12) ".txt"
			yaml = yaml "    log: " name "\n"
			attach = "\n--" (b = boundary()) "\n" part(lst, name)
		} else {
			s = lst
			gsub(/\n/, "\n         ", s)
			yaml = yaml "    log: |\n         " substr(s, 1, length(s) - 9)
		}
		if (cert != "") {
			if (b == "")
				b = boundary()
			attach = attach "\n--" b "\n" part(cert, "git-push-certificate.txt")
		}
		s = "From: Gitolite <devnull@kernel.org>\nSubject: post-receive: " repo "\n" \
			"Date: " rfc2822(t) "\nMessage-Id: <" t "." ++msgid "@gitolite.example.org>\n"
		if (attach == "")
			return "Content-Type: text/plain; charset=\"us-ascii\"\n" \
				"MIME-Version: 1.0\nContent-Transfer-Encoding: 7bit\n" s "\n" yaml
		return "Content-Type: multipart/mixed; boundary=\"" b "\"\nMIME-Version: 1.0\n" s \
			"\n--" b "\n" part(yaml, "") attach "\n--" b "--\n"
	}
	function boundary() {
		return "===============" sprintf("%010d%09d", int(rand() * 1e10), int(rand() * 1e9)) "=="
	}
	function emit(t, repo, msg, file, size,    line) {
		if (n_epoch == per_epoch && mode == "base") {
			printf "done\n" | cmd
			if (close(cmd))
				failed = 1
			epoch++
			n_epoch = 0
		}
		if (n_epoch == 0 && !started[epoch]) {
			dir = out "/git/" epoch ".git"
			system("git init -q --bare --object-format=sha1 \"" dir "\" && " \
				"git --git-dir=\"" dir "\" symbolic-ref HEAD refs/heads/master && " \
				"git --git-dir=\"" dir "\" config gc.auto 0")
			cmd = "git --git-dir=\"" dir "\" fast-import --quiet --done"
			started[epoch] = 1
			from = ""
		}
		printf "commit refs/heads/master\n" | cmd
		printf "author Gitolite <devnull@kernel.org> %d +0000\n", t | cmd
		printf "committer Gitolite <devnull@kernel.org> %d +0000\n", t | cmd
		printf "data %d\npost-receive: %s\n", length("post-receive: " repo) + 1, repo | cmd
		if (from != "")
			printf "%s", from | cmd
		from = ""
		if (file == "") {
			printf "M 100644 inline m\ndata %d\n%s\n", length(msg), msg | cmd
		} else {
			# line by line: a string that grows is copied each time
			printf "M 100644 inline m\ndata %d\n", size | cmd
			while ((getline line < file) > 0)
				print line | cmd
			close(file)
			print "" | cmd
		}
		n_epoch++
	}
	function other(t,    r, repo, user, ref, old, new, n, i, lst, cert) {
		if (rand() * 100 < share_others) {
			repo = frepo; user = "gregkh"
			if (rand() < 0.5)
				ref = sprintf("refs/heads/linux-%d.%d.y", 3 + int(rand() * 4), int(rand() * 20))
			else
				ref = sprintf("refs/tags/v%d.%d.%d", 3 + int(rand() * 4), int(rand() * 20), 1 + int(rand() * 100))
		} else {
			r = int(rand() * 500)
			repo = "pub/scm/linux/kernel/git/dev" r "/tree" r % 7
			user = "dev" r
			ref = "refs/heads/" (r % 3 ? "for-next" : "master")
		}
		old = hex(40); new = hex(40)
		n = 1 + int(rand() * 5)
		lst = ""
		for (i = 0; i < n; i++)
			lst = lst (i ? "" : new) (i ? hex(40) : "") " subsystem: change " int(rand() * 1e6) "\n"
		cert = ""
		if (repo == frepo || rand() < 0.5)
			cert = "certificate version 0.1\npusher SHA256:" hex(43) "  " t " +0000\n" \
				"pushee ssh://git@gitolite.kernel.org/" repo "\nnonce " t "-" hex(40) "\n\n" \
				old " " new " " ref "\n" fake_sig
		emit(t, repo, message(t, repo, user, ref, old, new, lst, cert))
	}
	function followed(line,    f) {
		split(line, f, " ")
		emit(f[1], frepo, "", gen "/" f[2], f[3])
	}
	BEGIN {
		split("Thu Fri Sat Sun Mon Tue Wed", wday, " ")
		for (i = 0; i < 7; i++) wday[i] = wday[i + 1]
		split("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec", month, " ")
		fake_sig = "-----BEGIN SSH SIGNATURE-----\n"
		for (i = 0; i < 4; i++) fake_sig = fake_sig "U1NIU0lH" hex(62) "\n"
		fake_sig = fake_sig "-----END SSH SIGNATURE-----\n"
		nf = 0
		while ((getline line < ARGV[1]) > 0)
			fl[++nf] = line
		ARGV[1] = ""
		epoch = first_epoch
		n_epoch = 0
		if (mode == "weekly") {
			srand(2)
			started[epoch] = 1
			dir = out "/git/" epoch ".git"
			cmd = "git --git-dir=\"" dir "\" fast-import --quiet --done"
			from = "from refs/heads/master^0\n"
			n_others = weekly - nf
			share_others = share
		} else {
			srand(1)
			want = int(records * share / 100)
			n_others = records - nf
			# the rest of the share goes to the other refs of frepo
			share_others = n_others > 0 ? (want - nf) * 100 / n_others : 0
			if (share_others < 0) share_others = 0
		}
		span = t_end - t_start
		j = 1
		for (p = 0; p < n_others; p++) {
			t = t_start + int(p * span / n_others)
			while (j <= nf && (split(fl[j], f, " ") && f[1] <= t))
				followed(fl[j++])
			other(t)
		}
		while (j <= nf)
			followed(fl[j++])
		printf "done\n" | cmd
		if (close(cmd))
			failed = 1
		exit failed
	}' "$3"
}

# push_log_bench_message_ TIME OLD NEW CERT LOG: the message of a push
# of the followed ref, laid out as contrib/hooks/push-log writes it.
push_log_bench_message_ () {
	plm_b="===============$(printf %019d "$1")==" &&
	plm_name=revlist-$(echo "$2" | cut -c1-12)-$(echo "$3" | cut -c1-12).txt &&
	plm_part='Content-Type: text/plain; charset="us-ascii"
MIME-Version: 1.0
Content-Transfer-Encoding: 7bit' &&
	echo "Content-Type: multipart/mixed; boundary=\"$plm_b\"" &&
	echo "MIME-Version: 1.0" &&
	echo "From: Gitolite <devnull@kernel.org>" &&
	echo "Subject: post-receive: $PUSH_LOG_BENCH_REPO" &&
	echo "Date: $(LC_ALL=C date -u -d "@$1" "+%a, %d %b %Y %H:%M:%S +0000")" &&
	echo "Message-Id: <$1.$3@gitolite.example.org>" &&
	printf "\n--%s\n%s\n\n" "$plm_b" "$plm_part" &&
	printf -- "---\nservice: git-receive-pack\nrepo: %s\nuser: gregkh\n" "$PUSH_LOG_BENCH_REPO" &&
	printf "git_push_cert_status: G\nchanges:\n  - ref: %s\n    old: %s\n    new: %s\n" \
		"$PUSH_LOG_BENCH_REF" "$2" "$3" &&
	if ! test -s "$5"
	then
		echo "    log: ''"
	elif test "$(wc -c <"$5")" -gt 1048576
	then
		echo "    log: $plm_name" &&
		printf "\n--%s\n%s\nContent-Disposition: attachment; filename=\"%s\"\n\n" \
			"$plm_b" "$plm_part" "$plm_name" &&
		cat "$5"
	else
		echo "    log: |" &&
		sed "s/^/         /" "$5"
	fi &&
	printf "\n--%s\n%s\nContent-Disposition: attachment; filename=\"git-push-certificate.txt\"\n\n" \
		"$plm_b" "$plm_part" &&
	cat "$4" &&
	printf "\n--%s--\n" "$plm_b"
}

# push_log_chain_ REPO DIR: the followed ref's records, in DIR/chain as
# push_log_stream_ reads them (certificates and lists in DIR), and the
# variables FIRST_TIP, WEEKLY_TIP, CHAIN.
push_log_chain_ () {
	plc_repo=$1 plc_dir=$2 &&
	# "<commit> <committer time>": every merge of the first-parent
	# chain, then the release the branch started at; oldest first
	git -C "$plc_repo" log --first-parent --format="%H %P %ct" linux-rolling-stable |
	awk 'NF == 4 { print $1, $4; next } { print $1, $NF; exit }' |
	awk '{ l[NR] = $0 } END { for (i = NR; i; i--) print l[i] }' >"$plc_dir/steps" &&
	plc_steps=$(wc -l <"$plc_dir/steps") &&
	plc_want=$((PERF_PUSH_LOG_RECORDS * PERF_PUSH_LOG_SHARE / 100)) &&
	if test "$plc_want" -lt 2
	then
		plc_want=2
	fi &&
	# at most plc_want pushes, the last one at the tip
	awk -v want="$plc_want" -v n="$plc_steps" '
		{ s[NR - 1] = $0 }
		END {
			c = n < want ? n : want
			for (j = 0; j < c; j++)
				print s[int(j * (n - 1) / (c - 1))]
		}
	' "$plc_dir/steps" >"$plc_dir/pushes" &&
	ssh-keygen -q -t ed25519 -N "" -C "push log bench key" -f "$plc_dir/key" >/dev/null &&
	echo "gregkh@example.org $(cat "$plc_dir/key.pub")" >"$plc_dir/allowed-signers" &&
	plc_fpr=$(ssh-keygen -l -f "$plc_dir/key.pub" | awk '{ print $2 }') &&
	plc_old=0000000000000000000000000000000000000000 &&
	plc_i=0 &&
	while read -r plc_new plc_time
	do
		plc_i=$((plc_i + 1)) &&
		plc_time=$((plc_time + 600)) &&
		if test $plc_old = 0000000000000000000000000000000000000000
		then
			git -C "$plc_repo" log --format="%H %s" "$plc_new" --not \
				--exclude="$PUSH_LOG_BENCH_REF" --branches --tags
		else
			git -C "$plc_repo" log --format="%H %s" "$plc_old..$plc_new"
		fi >"$plc_dir/log.$plc_i" &&
		{
			echo "certificate version 0.1" &&
			echo "pusher $plc_fpr  $plc_time +0000" &&
			echo "pushee $PUSH_LOG_BENCH_PUSHEE" &&
			echo "nonce $plc_time-$(printf %040d $plc_i)" &&
			echo &&
			echo "$plc_old $plc_new $PUSH_LOG_BENCH_REF"
		} >"$plc_dir/cert.$plc_i" &&
		echo "cert.$plc_i" >>"$plc_dir/certs" &&
		echo "$plc_time $plc_old $plc_new cert.$plc_i log.$plc_i" \
			>>"$plc_dir/chain.all" &&
		plc_old=$plc_new || return 1
	done <"$plc_dir/pushes" &&
	(
		cd "$plc_dir" &&
		xargs ssh-keygen -q -Y sign -n git -f key <certs >/dev/null 2>&1 &&
		while read -r plc_time plc_old plc_new plc_cert plc_log
		do
			cat "$plc_cert" "$plc_cert.sig" >"$plc_cert.signed" &&
			push_log_bench_message_ $plc_time $plc_old $plc_new "$plc_cert.signed" \
				"$plc_log" >"$plc_cert.m" &&
			echo "$plc_time $plc_cert.m $(wc -c <"$plc_cert.m")" >>chain.m || exit 1
		done <chain.all
	) &&
	sed '$d' "$plc_dir/chain.m" >"$plc_dir/chain" &&
	sed '$!d' "$plc_dir/chain.m" >"$plc_dir/chain.weekly" &&
	PUSH_LOG_BENCH_CHAIN=$(wc -l <"$plc_dir/chain") &&
	PUSH_LOG_BENCH_FIRST_TIP=$(tail -n 2 "$plc_dir/chain.all" | awk 'NR == 1 { print $3 }') &&
	PUSH_LOG_BENCH_WEEKLY_TIP=$(tail -n 1 "$plc_dir/chain.all" | awk '{ print $3 }')
}

push_log_archive_dir_ () {
	echo "$1.push-log-$PERF_PUSH_LOG_RECORDS-$PERF_PUSH_LOG_SHARE-$PERF_PUSH_LOG_EPOCH_RECORDS"
}

push_log_archive () {
	pla_dir=$(push_log_archive_dir_ "$1") &&
	if ! test -f "$pla_dir/bench-complete"
	then
		echo "generating $pla_dir (once; cached)" >&2 &&
		rm -rf "$pla_dir" &&
		mkdir -p "$pla_dir/git" "$pla_dir/gen" &&
		push_log_chain_ "$1" "$pla_dir/gen" &&
		# the records span from a day before the first push of the
		# ref to half a week before its last (the weekly one)
		PUSH_LOG_T_START=$(($(awk '{ print $1; exit }' "$pla_dir/gen/chain") - 86400)) &&
		PUSH_LOG_T_END=$(($(awk '{ print $1 }' "$pla_dir/gen/chain.weekly") - 302400)) &&
		push_log_stream_ base "$pla_dir" "$pla_dir/gen/chain" 0 &&
		mv "$pla_dir/gen/allowed-signers" "$pla_dir/gen/key" "$pla_dir/gen/key.pub" "$pla_dir" &&
		{
			echo "PUSH_LOG_BENCH_REPO=$PUSH_LOG_BENCH_REPO"
			echo "PUSH_LOG_BENCH_REF=$PUSH_LOG_BENCH_REF"
			echo "PUSH_LOG_BENCH_PUSHEE=$PUSH_LOG_BENCH_PUSHEE"
			echo "PUSH_LOG_BENCH_ALLOWED_SIGNERS='$pla_dir/allowed-signers'"
			echo "PUSH_LOG_BENCH_FIRST_TIP=$PUSH_LOG_BENCH_FIRST_TIP"
			echo "PUSH_LOG_BENCH_WEEKLY_TIP=$PUSH_LOG_BENCH_WEEKLY_TIP"
			echo "PUSH_LOG_BENCH_CHAIN=$PUSH_LOG_BENCH_CHAIN"
			echo "PUSH_LOG_T_END=$PUSH_LOG_T_END"
		} >"$pla_dir/bench-info" &&
		touch "$pla_dir/bench-complete" || return 1
	fi &&
	. "$pla_dir/bench-info" &&
	echo "$pla_dir"
}

push_log_archive_weekly () {
	plw_base=$(push_log_archive "$1") &&
	plw_dir=$plw_base-weekly$PERF_PUSH_LOG_WEEKLY &&
	if ! test -f "$plw_dir/bench-complete"
	then
		echo "generating $plw_dir (once; cached)" >&2 &&
		rm -rf "$plw_dir" &&
		mkdir -p "$plw_dir/git" &&
		. "$plw_base/bench-info" &&
		cp -R "$plw_base"/git/*.git "$plw_dir/git" &&
		plw_last=$(ls "$plw_dir/git" | sed -n "s/^\([0-9]*\)\.git$/\1/p" | sort -n | tail -n 1) &&
		PUSH_LOG_T_START=$((PUSH_LOG_T_END + 60)) &&
		PUSH_LOG_T_END=$((PUSH_LOG_T_START + 604800)) &&
		# the ref's last push comes in the middle of the week
		push_log_stream_ weekly "$plw_dir" "$plw_base/gen/chain.weekly" "$plw_last" &&
		cp "$plw_base/bench-info" "$plw_base/allowed-signers" "$plw_dir" &&
		touch "$plw_dir/bench-complete" || return 1
	fi &&
	echo "$plw_dir"
}

push_log_small_tree () {
	stable_tree_linux "$1" &&
	stable_tree_replay "$1" 40 &&
	git -C "$1" rolling init -q linux-rolling-stable &&
	for plst_week in 41 42 43 44 45 46 47 48 49 50 51 52 53 54
	do
		stable_tree_replay "$1" $plst_week &&
		git -C "$1" rolling advance -q || return 1
	done
}
