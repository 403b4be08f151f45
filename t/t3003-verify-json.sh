#!/bin/sh

test_description='verify --json prints one parseable document with the facts

The document is read back with a real JSON parser (python3, and jq where
installed) and compared with what plain git says about the branch.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh

# json_check FILE PYTHON-EXPRESSION...: each expression, with the parsed
# document as `doc` and its first branch as `b`, must be true.
json_check () {
	jc_file=$1 &&
	shift &&
	test_python3 - "$jc_file" "$@" <<-\EOF
	import json, sys
	with open(sys.argv[1]) as f:
	    doc = json.load(f)
	b = doc["branches"][0] if doc["branches"] else None
	ok = True
	for expr in sys.argv[2:]:
	    if not eval(expr):
	        print("json_check: false: %s" % expr)
	        ok = False
	if not ok:
	    json.dump(doc, sys.stdout, indent=1)
	sys.exit(0 if ok else 1)
	EOF
}

test_expect_success PYTHON3 'setup' '
	verify_fixture tree
'

test_expect_success PYTHON3 'a verified branch: the document holds the facts' '
	cd tree &&
	git rolling verify --json linux-rolling-stable >out.json 2>err &&
	test_must_be_empty err &&
	tip=$(git rev-parse linux-rolling-stable) &&
	tag=$(git log -1 --format=%s $tip | sed "s/^Merge //") &&
	base=$(git rev-parse v5.19.2^{commit}) &&
	git rev-list --reverse --first-parent --merges linux-rolling-stable >merges &&
	for m in $(cat merges)
	do
		git log -1 --format=%s $m | sed "s/^Merge //" || return 1
	done >releases &&
	json_check out.json \
		"doc[\"version\"] == 1" \
		"doc[\"verified\"] is True" \
		"len(doc[\"branches\"]) == 1" \
		"b[\"name\"] == \"linux-rolling-stable\"" \
		"b[\"verified\"] is True" \
		"b[\"tip\"] == \"$tip\"" \
		"b[\"tip_release\"] == \"$tag\"" \
		"b[\"base\"] == {\"commit\": \"$base\", \"release\": \"v5.19.2\"}" \
		"b[\"since\"] is None" \
		"b[\"steps\"] == $(wc -l <merges)" \
		"[m[\"commit\"] for m in b[\"merges\"]] == open(\"merges\").read().split()" \
		"[m[\"release\"] for m in b[\"merges\"]] == open(\"releases\").read().split()" \
		"[(s[\"from_series\"], s[\"to_series\"]) for s in b[\"series_switches\"]] == [(\"5.19\", \"6.0\"), (\"6.0\", \"6.1\")]" \
		"all(s[\"commit\"] in [m[\"commit\"] for m in b[\"merges\"]] for s in b[\"series_switches\"])" \
		"b[\"series_switches\"][1][\"to\"] == \"v6.1.2\"" \
		"b[\"failures\"] == []" \
		"b[\"hazards\"] == []" \
		"b[\"truncated\"] is False" \
		"b[\"rebuild\"] is False and b[\"signatures\"] is False" \
		"b[\"patterns\"][\"source\"] == \"config\"" \
		"b[\"patterns\"][\"release\"] == \"$(git config rolling.linux-rolling-stable.releasePattern | sed "s/\\\\/\\\\\\\\/g")\""
'

test_expect_success PYTHON3 'series switches name the merge that switches' '
	cd tree &&
	git rolling verify --json linux-rolling-stable >out.json &&
	switch=$(git rev-list --first-parent --merges linux-rolling-stable --grep="^Merge v6.1.2$") &&
	json_check out.json \
		"b[\"series_switches\"][1] == {\"commit\": \"$switch\", \"from\": \"v6.0.11\", \"to\": \"v6.1.2\", \"from_series\": \"6.0\", \"to_series\": \"6.1\"}"
'

test_expect_success PYTHON3 'a tampered branch: each failure with commit, check, expected, found' '
	cd tree &&
	tip=$(git rev-parse linux-rolling-stable) &&
	tag=$(git log -1 --format=%s $tip | sed "s/^Merge //") &&
	evil_tree=$(tampered_tree $tip) &&
	evil=$(git commit-tree -p $tip^1 -p $tip^2 -m "Merge $tag" $evil_tree) &&
	plain=$(git commit-tree -p $evil -m "on top" $evil_tree) &&
	git branch tampered $plain &&
	test_expect_code 1 git rolling verify --json tampered >out.json 2>err &&
	test_must_be_empty err &&
	json_check out.json \
		"doc[\"verified\"] is False" \
		"b[\"verified\"] is False" \
		"b[\"tip_release\"] is None" \
		"len(b[\"failures\"]) == 2" \
		"b[\"failures\"][0][\"commit\"] == \"$plain\"" \
		"b[\"failures\"][0][\"check\"] == \"injected\"" \
		"b[\"failures\"][1] == {\"commit\": \"$evil\", \"check\": \"tree\", \"expected\": \"tree $(git rev-parse $tag^{tree}) of $(git rev-parse $tag^{commit}) ($tag)\", \"found\": \"tree $evil_tree\"}" \
		"b[\"steps\"] == $(git rev-list --count --first-parent --merges $tip) - 1"
'

test_expect_success PYTHON3 'several branches in one document' '
	cd tree &&
	git rolling init -q --lts --series "5.19 6.1" --at v6.1.5 linux-rolling-lts &&
	git rolling verify --json >out.json &&
	json_check out.json \
		"[x[\"name\"] for x in doc[\"branches\"]] == [\"linux-rolling-stable\", \"linux-rolling-lts\"]" \
		"doc[\"verified\"] is True" \
		"doc[\"branches\"][1][\"steps\"] == 0" \
		"doc[\"branches\"][1][\"base\"][\"release\"] == \"v6.1.5\"" &&
	test_expect_code 1 git rolling verify --json linux-rolling-lts tampered >out.json &&
	json_check out.json \
		"doc[\"verified\"] is False" \
		"[x[\"verified\"] for x in doc[\"branches\"]] == [True, False]"
'

test_expect_success PYTHON3 '--since, --rebuild and --signatures are recorded' '
	cd tree &&
	old=$(git rev-parse linux-rolling-stable~3) &&
	old_tag=$(git log -1 --format=%s $old | sed "s/^Merge //") &&
	git rolling verify --json --rebuild --since $old linux-rolling-stable >out.json &&
	json_check out.json \
		"b[\"since\"] == {\"commit\": \"$old\", \"release\": \"$old_tag\", \"found\": True}" \
		"b[\"steps\"] == 3" \
		"b[\"base\"] is None" \
		"b[\"rebuild\"] is True" &&
	test_expect_code 1 git rolling verify --json --signatures --since $old \
		linux-rolling-stable >out.json &&
	json_check out.json \
		"b[\"signatures\"] is True" \
		"b[\"signatures_good\"] == 0" \
		"[f[\"check\"] for f in b[\"failures\"]] == [\"signature\"] * 3" \
		"all(f[\"found\"].endswith(\": unsigned tag\") for f in b[\"failures\"])"
'

test_expect_success PYTHON3 'where the patterns come from' '
	cd tree &&
	git rolling verify --json "$(git rev-parse linux-rolling-stable)" >out.json &&
	json_check out.json "b[\"patterns\"][\"source\"] == \"default\"" &&
	git rolling verify --json --preset linux linux-rolling-stable >out.json &&
	json_check out.json "b[\"patterns\"][\"source\"] == \"preset\"" &&
	git rolling verify --json --preset linux --release-pattern \
		"v(?<major>[0-9]+)\.(?<minor>[0-9]+)\.(?<patch>[0-9]+)" linux-rolling-stable >out.json &&
	json_check out.json "b[\"patterns\"][\"source\"] == \"options\""
'

test_expect_success PYTHON3 'a failure that stops the walk early says so' '
	cd tree &&
	test_expect_code 1 git rolling verify --json master >out.json &&
	json_check out.json \
		"b[\"truncated\"] is True" \
		"len(b[\"failures\"]) == 100" \
		"b[\"base\"] is None"
'

test_expect_success JQ 'jq reads the document too' '
	cd tree &&
	git rolling verify --json linux-rolling-stable >out.json &&
	jq -e ".verified and (.branches[0].steps == (.branches[0].merges | length))" out.json &&
	test_expect_code 1 git rolling verify --json tampered >out.json &&
	jq -r ".branches[0].failures[].check" out.json >checks &&
	printf "injected\ntree\n" >expect &&
	test_cmp expect checks
'

test_expect_success 'a fatal error prints no document' '
	cd tree &&
	test_expect_code 128 git rolling verify --json no-such-branch >out 2>err &&
	test_must_be_empty out &&
	grep "^fatal: " err
'

test_done
