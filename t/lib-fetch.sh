# lib-fetch.sh - for the tests of git rolling fetch and pull, which play
# an upstream that publishes to a server and a consumer that fetches.
# Source after lib-stable-tree.sh; the scripts set $BRANCH.
#
#   publish WEEK    replay the upstream tree to WEEK, advance it and push
#                   its tags and $BRANCH to the remote "server"

publish () {
	stable_tree_replay upstream "$1" &&
	git -C upstream rolling advance -q &&
	git -C upstream push -q --force server "refs/tags/*:refs/tags/*" \
		"refs/heads/$BRANCH:refs/heads/$BRANCH" 2>push.err
}
