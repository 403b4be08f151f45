# lib-kernel-scale.sh - a kernel-scale repository for benchmarks, made
# once and cached.  Source it from a t/perf/p*.sh script.
#
#   kernel_scale_repo   print the path of the repository, generating it
#                       first if the cache does not hold it yet
#
# The history is written by one `git fast-import` stream that awk
# produces (no process per commit), with tiny flat trees, so a million
# commits take about a minute.  Its shape follows linux-stable:
#
#   - mainline ("master"): PERF_COMMITS commits in cycles of 20 ticks; a
#     cycle opens with a two-tick merge window, has rc1..rc7 and ends
#     with the final tag (v3.0, v3.1, ... v3.19, v4.0, ...);
#   - PERF_SERIES stable series ("linux-X.Y.y"), each forked at its final
#     and releasing once per tick, PERF_RELEASES_PER_SERIES releases of
#     1-3 backports and a tagged version bump (vX.Y.Z, annotated);
#   - "linux-rolling-stable": a rolling branch made in step with the
#     releases, following the last PERF_ROLLING_SERIES series: every
#     release of the series it is on, and the next series from its
#     second release.  Its merges are byte for byte the git CLI recipe's
#     (so `git rolling verify --rebuild` accepts them): author and
#     committer "Rolling Bench <bench@example.org>" with the release
#     commit's dates, message "Merge vX.Y.Z" and a Signed-off-by.
#
# With PERF_SIGNED_TAGS=1 (the default), every tag is then signed with a
# throwaway SSH key kept beside the repository (as real release tags
# are signed), and the rolling branch is remade with each merge
# embedding its release's signed tag in a mergetag header, as git commit
# does after git merge <tag>: one hash-object per merge, since each id
# depends on the one before.
#
# The defaults give about 1,000,000 commits and 5,000 release tags, and
# 3 objects per mainline commit (commit, tree, blob): a pack index of
# about 85 MB.  PERF_TREE_EVERY=N changes the tree of only every Nth
# mainline commit (the others are empty), for a smaller pack with the
# same graph.  The cache directory's name holds the parameters, so
# changing one makes a new repository.

. "$(cd "$(dirname "$0")" && pwd -P)/../lib-sign-tags.sh"

PERF_COMMITS=${PERF_COMMITS:-1000000}
PERF_SERIES=${PERF_SERIES:-50}
PERF_RELEASES_PER_SERIES=${PERF_RELEASES_PER_SERIES:-100}
PERF_ROLLING_SERIES=${PERF_ROLLING_SERIES:-24}
PERF_TREE_EVERY=${PERF_TREE_EVERY:-1}
PERF_SIGNED_TAGS=${PERF_SIGNED_TAGS:-1}
PERF_REPOS=${PERF_REPOS:-$(cd "$(dirname "$0")" && pwd -P)/repos}

kernel_scale_stream_ () {
	awk -v commits="$PERF_COMMITS" -v nseries="$PERF_SERIES" \
	    -v per="$PERF_RELEASES_PER_SERIES" -v rolling="$PERF_ROLLING_SERIES" \
	    -v tree_every="$PERF_TREE_EVERY" '
	function version(k) { return (3 + int(k / 20)) "." (k % 20) }
	function data(s) { printf "data %d\n%s", length(s), s }
	function blob(path, content) {
		printf "M 100644 inline %s\n", path
		data(content)
		printf "\n"
	}
	function makefile(v, sub_, extra,    parts) {
		split(v, parts, ".")
		return "VERSION = " parts[1] "\nPATCHLEVEL = " parts[2] "\nSUBLEVEL = " \
			sub_ "\nEXTRAVERSION =" extra "\n"
	}
	function header(ref, who, tz) {
		now += 29
		printf "commit %s\nmark :%d\n", ref, ++mark
		printf "author %s %d %s\ncommitter %s %d %s\n", who, now, tz, who, now, tz
	}
	function annotated(name, target, who, tz, message) {
		printf "tag %s\nfrom :%d\ntagger %s %d %s\n", name, target, who, now, tz
		data(message "\n")
	}
	function mainline_commit(   f, a) {
		a = authors[mark % 4]
		header("refs/heads/master", substr(a, 1, index(a, ">")), substr(a, index(a, ">") + 2))
		data("change " mark "\n")
		if (++ml_count % tree_every)
			return
		f = "f" (mark % 8) ".c"
		ml[f] = "/* change " mark " */\n"
		blob(f, ml[f])
	}
	function mainline_tag(k, extra,    name) {
		name = "v" version(k) extra
		header("refs/heads/master", boss, "-0700")
		data("Linux " version(k) extra "\n")
		ml["Makefile"] = makefile(version(k), 0, extra == "" ? "" : " " extra)
		blob("Makefile", ml["Makefile"])
		annotated(name, mark, boss, "-0700", "Linux " version(k) extra)
	}
	function fork(k,    f) {
		for (f in ml)
			st[k, f] = ml[f]
		fork_mark[k] = mark
	}
	# A stable release: backports, the tagged version bump, and the
	# rolling step it may cause.
	function release(k, patch,    n, i, f, branch, name) {
		branch = "refs/heads/linux-" version(k) ".y"
		n = 1 + (k + patch) % 3
		for (i = 0; i < n; i++) {
			header(branch, maint, "+0100")
			data("backport " k "." patch "." i "\n")
			if (fork_mark[k]) {
				printf "from :%d\n", fork_mark[k]
				fork_mark[k] = 0
			}
			f = "f" ((k + patch + i) % 8) ".c"
			st[k, f] = "/* stable " version(k) " fix " patch "." i " */\n"
			blob(f, st[k, f])
		}
		name = "v" version(k) "." patch
		header(branch, maint, "+0100")
		data("Linux " version(k) "." patch "\n")
		st[k, "Makefile"] = makefile(version(k), patch, "")
		blob("Makefile", st[k, "Makefile"])
		annotated(name, mark, maint, "+0100", "Linux " version(k) "." patch)
		roll(k, patch, name, mark)
	}
	function roll(k, patch, name, release_mark,    f, msg) {
		if (!roll_tip) {
			if (k == first_rolled && patch == 1) {
				roll_tip = release_mark
				roll_series = k
			}
			return
		}
		if (!(k == roll_series || (k == roll_series + 1 && patch >= 2)))
			return
		roll_series = k
		msg = "Merge " name "\n\nSigned-off-by: " roller "\n"
		printf "commit refs/heads/linux-rolling-stable\nmark :%d\n", ++mark
		printf "author %s %d +0100\ncommitter %s %d +0100\n", roller, now, roller, now
		data(msg)
		printf "from :%d\nmerge :%d\ndeleteall\n", roll_tip, release_mark
		for (f in ml)
			blob(f, st[k, f])
		roll_tip = mark
	}
	BEGIN {
		boss = "Linus T <torvalds@example.org>"
		maint = "Greg KH <gregkh@example.org>"
		roller = "Rolling Bench <bench@example.org>"
		authors[0] = "Ada Lovelace <ada@example.com> +0100"
		authors[1] = "Bob Builder <bob@example.net> -0700"
		authors[2] = "Chandra Rao <chandra@example.in> +0530"
		authors[3] = "Stable Dev <stable@example.org> +0000"
		ticks = 20
		life = int((per + ticks - 1) / ticks)
		cycles = nseries + life
		per_tick = int(commits / (cycles * ticks))
		first_rolled = nseries - rolling
		now = 1300000000
		for (f = 0; f < 8; f++)
			ml["f" f ".c"] = "/* empty */\n"
		ml["Makefile"] = makefile("0.0", 0, "")
		for (c = 0; c < cycles; c++) {
			for (t = 0; t < ticks; t++) {
				for (i = 0; i < per_tick; i++)
					mainline_commit()
				if (t >= 3 && t <= 15 && t % 2 == 1)
					mainline_tag(c, "-rc" (t - 1) / 2)
				if (t == ticks - 1 && c < nseries) {
					mainline_tag(c, "")
					fork(c)
				}
				# Series k releases from the first tick after its final.
				for (k = c - life; k < c && k < nseries; k++) {
					if (k < 0)
						continue
					patch = (c - k - 1) * ticks + t + 1
					if (patch <= per)
						release(k, patch)
				}
			}
		}
		print "done"
	}'
}

# kernel_scale_remerge_ DIR: remake the rolling branch of DIR with a
# mergetag in every merge whose release tag is signed.
kernel_scale_remerge_ () {
	ksm_tmp=$1/.git/remerge &&
	rm -rf "$ksm_tmp" && mkdir "$ksm_tmp" &&
	git -C "$1" rev-list --reverse --first-parent --merges linux-rolling-stable \
		>"$ksm_tmp/merges" &&
	ksm_tip=$(git -C "$1" rev-parse "$(head -n 1 "$ksm_tmp/merges")^1") &&
	# Every merge and its release tag, in one cat-file each.
	git -C "$1" cat-file --batch <"$ksm_tmp/merges" |
	awk -v dir="$ksm_tmp" '
		!left && !NF { next }
		!left { file = dir "/m" ++n; left = $3; next }
		{ print > file; left -= length($0) + 1; if (left <= 0) { left = 0; close(file) } }
	' &&
	git -C "$1" log --no-walk=unsorted --format=%s --stdin <"$ksm_tmp/merges" |
	sed 's,^Merge ,refs/tags/,' |
	git -C "$1" cat-file --batch |
	awk -v dir="$ksm_tmp" '
		!left && !NF { next }
		!left { file = dir "/t" ++n; left = $3; next }
		{ print > file; left -= length($0) + 1; if (left <= 0) { left = 0; close(file) } }
	' &&
	ksm_i=1 &&
	while read ksm_merge
	do
		ksm_tip=$(awk -v tip="$ksm_tip" -v tag="$ksm_tmp/t$ksm_i" '
			/^parent / && !seen++ { print "parent " tip; next }
			/^$/ && !body++ {
				signed = 0
				while ((getline line < tag) > 0) {
					lines[++n] = line
					if (line ~ /^-----BEGIN (PGP|SSH) SIGNATURE-----$/) signed = 1
				}
				for (i = 1; signed && i <= n; i++)
					print (i == 1 ? "mergetag " : " ") lines[i]
			}
			{ print }
		' "$ksm_tmp/m$ksm_i" | git -C "$1" hash-object -t commit -w --stdin) || return 1
		ksm_i=$((ksm_i + 1))
	done <"$ksm_tmp/merges" &&
	git -C "$1" update-ref refs/heads/linux-rolling-stable $ksm_tip &&
	rm -rf "$ksm_tmp"
}

# kernel_scale_generate_ DIR: make the repository (about a minute, and
# about as much again to sign and remerge).
kernel_scale_generate_ () {
	rm -rf "$1" &&
	git init -q -b master "$1" &&
	git -C "$1" config gc.auto 0 &&
	kernel_scale_stream_ |
	git -C "$1" fast-import --quiet --done --active-branches=16 &&
	if test "$PERF_SIGNED_TAGS" = 1
	then
		sign_all_tags "$1" "$1/.git/perf-signing.key" &&
		kernel_scale_remerge_ "$1" &&
		git -C "$1" repack -q -d
	fi &&
	git -C "$1" pack-refs --all --prune &&
	touch "$1/.git/perf-complete"
}

kernel_scale_repo () {
	ksr_dir=$PERF_REPOS/kernel-scale-$PERF_COMMITS-$PERF_SERIES-$PERF_RELEASES_PER_SERIES-$PERF_ROLLING_SERIES
	test "$PERF_TREE_EVERY" = 1 || ksr_dir=$ksr_dir-tree$PERF_TREE_EVERY
	test "$PERF_SIGNED_TAGS" != 1 || ksr_dir=$ksr_dir-signed
	if ! test -f "$ksr_dir/.git/perf-complete"
	then
		mkdir -p "$PERF_REPOS" &&
		echo "generating $ksr_dir (once; cached)" >&2 &&
		kernel_scale_generate_ "$ksr_dir" >&2 || return 1
	fi
	echo "$ksr_dir"
}
