# Oracles for `git rolling log`, written with plain git (git log
# --first-parent and its %h, git rev-list --count, git tag) so that
# they share no code with git-rolling.  Source after test-lib.sh.

# log_steps_ <branch>: "<commit> <date> <release>" per step, newest
# first; the base (the release commit at the bottom of the first-parent
# chain) last, its release found with git tag --points-at.
log_steps_ () {
	git log --first-parent --format='%H %cd %s' --date=short "$1" >"$TRASH_DIRECTORY/log.fp" &&
	while read commit date subject
	do
		case $subject in
		"Merge "*)
			echo "$commit $date ${subject#Merge }" ;;
		*)
			release=$(git tag --points-at "$commit" | grep -E "$LOG_RELEASE_RE" | sort -V | tail -n 1) &&
			echo "$commit $date $release" &&
			return 0 ;;
		esac
	done <"$TRASH_DIRECTORY/log.fp"
}

# log_counts_: for each step of log.steps, newest first, git rev-list
# --count <previous release>..<release>, or "base" for the last step.
# A count depends on the two commits alone, which never change, so it
# is kept in log.count-memo under their ids (one cat-file resolves the
# release names) and each pair is counted once per script.
log_counts_ () {
	awk 'NR > 1 { print $3 "^{commit}"; print prev "^{commit}" } { prev = $3 }' \
		"$TRASH_DIRECTORY/log.steps" >"$TRASH_DIRECTORY/log.pairs" &&
	git cat-file --batch-check='%(objectname)' <"$TRASH_DIRECTORY/log.pairs" \
		>"$TRASH_DIRECTORY/log.pair-ids" &&
	touch "$TRASH_DIRECTORY/log.count-memo" &&
	awk '
		FILENAME == ARGV[1] { known[$1 " " $2] = 1; next }
		FNR % 2 { from = $1; next }
		!((from " " $1) in known) { print from, $1; known[from " " $1] = 1 }
	' "$TRASH_DIRECTORY/log.count-memo" "$TRASH_DIRECTORY/log.pair-ids" \
		>"$TRASH_DIRECTORY/log.count-new" &&
	while read from to
	do
		count=$(git rev-list --count "$from..$to") &&
		echo "$from $to $count" || return 1
	done <"$TRASH_DIRECTORY/log.count-new" >>"$TRASH_DIRECTORY/log.count-memo" &&
	awk '
		FILENAME == ARGV[1] { count[$1 " " $2] = $3; next }
		FNR % 2 { from = $1; next }
		{ print count[from " " $1] }
		END { print "base" }
	' "$TRASH_DIRECTORY/log.count-memo" "$TRASH_DIRECTORY/log.pair-ids"
}

# expected_log_fields <branch>: "date|release|id|what it brought" per
# step, newest first: the id abbreviated as git abbreviates ids (%h of
# git log, which is git rev-parse --short), and what the step brought
# counted with git rev-list --count <previous release>..<release>.  A step that changes series (v6.6.4 -> 6.6,
# v255.3 -> 255) also names the merge windows it includes ($LOG_CYCLE:
# a preset's words for them, the kernel's by default): the series
# with release tags after the old one up to the new one, in version
# order (sort -V).  One git log abbreviates every id and one git tag
# lists the series; log_counts_ counts; awk writes the lines (14872
# commits: "14,872 commits").
expected_log_fields () {
	log_steps_ "$1" >"$TRASH_DIRECTORY/log.steps" &&
	awk '{ print $1 }' "$TRASH_DIRECTORY/log.steps" >"$TRASH_DIRECTORY/log.ids" &&
	git log --no-walk=unsorted --format=%h --stdin <"$TRASH_DIRECTORY/log.ids" \
		>"$TRASH_DIRECTORY/log.short" &&
	log_counts_ >"$TRASH_DIRECTORY/log.counts" &&
	git tag -l >"$TRASH_DIRECTORY/log.tags" &&
	grep -E "$LOG_RELEASE_RE" "$TRASH_DIRECTORY/log.tags" |
	sed -e 's/^v//' -e 's/\.[0-9]*$//' >"$TRASH_DIRECTORY/log.series.all" &&
	sort -u -V "$TRASH_DIRECTORY/log.series.all" >"$TRASH_DIRECTORY/log.series" &&
	awk -v cycle="${LOG_CYCLE:-merge window}" '
		function series(release) {
			sub(/^v/, "", release)
			sub(/\.[0-9]*$/, "", release)
			return release
		}
		function thousands(n,   s) {
			s = ""
			while (length(n) > 3) {
				s = "," substr(n, length(n) - 2) s
				n = substr(n, 1, length(n) - 3)
			}
			return n s
		}
		# "the 6.8 merge window", "the 6.7 and 6.8 merge windows": the
		# series after <from> up to <to>.
		function windows(from, to,   i, on, n, list, s) {
			n = 0
			for (i = 1; i <= ns; i++) {
				if (on)
					list[++n] = all[i]
				if (all[i] == from)
					on = 1
				if (on && all[i] == to)
					break
			}
			s = list[1]
			for (i = 2; i <= n; i++)
				s = s (i == n ? " and " : ", ") list[i]
			return "the " s " " cycle (n > 1 ? "s" : "")
		}
		FILENAME == ARGV[1] { all[++ns] = $0; next }
		FILENAME == ARGV[2] { short[FNR] = $0; next }
		FILENAME == ARGV[3] { count[FNR] = $0; next }
		{ date[FNR] = $2; release[FNR] = $3; n = FNR }
		END {
			for (i = 1; i <= n; i++) {
				if (count[i] == "base") {
					what = "base"
				} else {
					what = thousands(count[i]) " commit" (count[i] == 1 ? "" : "s")
					from = series(release[i + 1])
					to = series(release[i])
					if (from != to)
						what = "series " from " -> " to ", includes " \
							windows(from, to) ": " what
				}
				print date[i] "|" release[i] "|" short[i] "|" what
			}
		}
	' "$TRASH_DIRECTORY/log.series" "$TRASH_DIRECTORY/log.short" \
		"$TRASH_DIRECTORY/log.counts" "$TRASH_DIRECTORY/log.steps"
}

# log_format [<prefix>]: the fields on stdin as lines, the columns padded
# to the widest release name and id among them.
log_format () {
	awk -F'|' -v prefix="$1" '
		{ line[NR] = $0; if (length($2) > w2) w2 = length($2); if (length($3) > w3) w3 = length($3) }
		END {
			for (i = 1; i <= NR; i++) {
				split(line[i], f, "|")
				printf "%s%s %-" w2 "s %-" w3 "s %s\n", prefix, f[1], f[2], f[3], f[4]
			}
		}'
}

# expected_log <branch> [<prefix>]: what `git rolling log <branch>` prints.
expected_log () {
	expected_log_fields "$1" >"$TRASH_DIRECTORY/log.fields" &&
	log_format "$2" <"$TRASH_DIRECTORY/log.fields"
}
