#!/bin/sh

test_description='git rolling fetch and pull over HTTPS with basic auth: one authentication

The server is Apache (its own configuration, ServerRoot, PidFile and
logs in the trash directory) serving git-http-backend over TLS on
127.0.0.1 with a self-signed certificate that the test makes, behind
basic auth.  The consumer trusts that certificate (http.sslCAInfo in its
configuration) and has no credential helper: git asks GIT_ASKPASS, a
program that answers and counts the prompts.  One fetch, or one pull,
is one connection: git asks for the username and the password once
each.  The fetch verifies and moves the refs as over any transport, and
refuses an injected commit as well.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh
. "$TEST_DIRECTORY"/lib-fetch.sh

BRANCH=linux-rolling-stable
VERIFIED=refs/rolling/verified/origin/$BRANCH
APACHE=$TRASH_DIRECTORY/apache
# The environment here may point git at another CA bundle, which would
# override http.sslCAInfo; test-lib.sh unsets GIT_*, these are OpenSSL's
# and curl's, and must not matter either.
unset SSL_CERT_FILE SSL_CERT_DIR CURL_CA_BUNDLE

apache_bin () {
	for a in apache2 httpd
	do
		for dir in /usr/sbin /usr/local/sbin /usr/bin
		do
			test -x "$dir/$a" && echo "$dir/$a" && return 0
		done
		command -v $a 2>/dev/null && return 0
	done
	return 1
}

apache_modules () {
	for dir in /usr/lib/apache2/modules /usr/lib64/httpd/modules /usr/lib/httpd/modules
	do
		test -f "$dir/mod_ssl.so" && echo "$dir" && return 0
	done
	return 1
}

# apache_config PORT: the whole configuration, in $APACHE/httpd.conf.
# Run as root, Apache drops to nobody for its children: git-http-backend
# then reads a repository it does not own, which git allows only with
# safe.directory, given here as command-line configuration.
apache_config () {
	{
		printf "ServerRoot \"%s\"\n" "$APACHE"
		printf "DefaultRuntimeDir \"%s/run\"\n" "$APACHE"
		printf "PidFile \"%s/httpd.pid\"\n" "$APACHE"
		printf "ErrorLog \"%s/error.log\"\n" "$APACHE"
		printf "LogLevel warn\n"
		printf "Listen 127.0.0.1:%s\n" "$1"
		printf "ServerName 127.0.0.1\n"
		for m in mpm_prefork authz_core authn_core authn_file auth_basic authz_user \
			alias cgi env ssl socache_shmcb
		do
			printf "LoadModule %s_module \"%s/mod_%s.so\"\n" $m "$modules" $m
		done
		if test "$(id -u)" = 0
		then
			printf "User nobody\nGroup %s\n" "$(id -gn nobody)"
		fi
		printf "StartServers 2\nMinSpareServers 1\nMaxSpareServers 4\n"
		printf "SSLEngine on\n"
		printf "SSLCertificateFile \"%s/cert.pem\"\n" "$APACHE"
		printf "SSLCertificateKeyFile \"%s/key.pem\"\n" "$APACHE"
		printf "SSLSessionCache \"shmcb:%s/run/ssl-cache(51200)\"\n" "$APACHE"
		printf "SetEnv GIT_PROJECT_ROOT \"%s\"\n" "$TRASH_DIRECTORY"
		printf "SetEnv GIT_HTTP_EXPORT_ALL 1\n"
		printf "SetEnv GIT_CONFIG_PARAMETERS \"'safe.directory=*'\"\n"
		printf "ScriptAlias /git/ \"%s/git-http-backend/\"\n" "$(git --exec-path)"
		printf "<Location /git/>\n"
		printf "\tAuthType Basic\n\tAuthName git\n"
		printf "\tAuthUserFile \"%s/passwd\"\n" "$APACHE"
		printf "\tRequire valid-user\n"
		printf "</Location>\n"
	} >"$APACHE/httpd.conf"
}

stop_apache () {
	test -f "$APACHE/httpd.pid" || return 0
	pid=$(cat "$APACHE/httpd.pid") &&
	kill "$pid" &&
	tries=0 &&
	while kill -0 "$pid" 2>/dev/null && test $tries -lt 100
	do
		sleep 0.1
		tries=$((tries + 1))
	done
	rm -f "$APACHE/httpd.pid"
}

# start_apache: serve on a free port of 127.0.0.1; sets $port, or says
# why not (in $why) and returns 1.
start_apache () {
	for port in $(seq $((30000 + $$ % 20000)) $((30010 + $$ % 20000)))
	do
		apache_config $port &&
		"$apache" -f "$APACHE/httpd.conf" -k start 2>"$APACHE/start.err" &&
		tries=0 &&
		while ! test -s "$APACHE/httpd.pid" && test $tries -lt 50
		do
			sleep 0.1
			tries=$((tries + 1))
		done &&
		test -s "$APACHE/httpd.pid" && return 0
		why="Apache would not start: $(cat "$APACHE/start.err" "$APACHE/error.log" 2>/dev/null | tail -n 3)"
		stop_apache
	done
	return 1
}

# Never leave Apache running, whatever ends the script.
https_on_exit_ () {
	https_code_=$?
	stop_apache 2>/dev/null
	test_status_ $https_code_
	test_on_exit_
}
trap 'https_on_exit_' EXIT

# The prompts git made, one a line, counted by the askpass program.
prompts_were () {
	printf "%s\n" "$@" >expect.prompts &&
	sed "s/ for .*//" prompts >actual.prompts &&
	rm -f prompts &&
	test_cmp expect.prompts actual.prompts
}

apache=$(apache_bin)
modules=$(apache_modules)
if test -z "$apache" || test -z "$modules"
then
	skip_all="Apache (Debian package apache2) is not installed"
	test_done
fi
for tool in openssl htpasswd
do
	if ! command -v $tool >/dev/null
	then
		skip_all="$tool is not installed (Debian packages openssl, apache2-utils)"
		test_done
	fi
done

# Run as root, Apache's children are nobody's: they must reach git's
# git-http-backend and the repository, or every request fails with 500.
nobody_cannot_reach () {
	test "$(id -u)" = 0 || return 1
	for path in "$(git --exec-path)/git-http-backend" "$TRASH_DIRECTORY"
	do
		if ! setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
			test -r "$path" -a -x "$path" 2>/dev/null
		then
			echo "$path"
			return 0
		fi
	done
	return 1
}
if unreachable=$(nobody_cannot_reach)
then
	skip_all="Apache runs as nobody, who cannot reach $unreachable (a directory above it is private)"
	test_done
fi

test_expect_success 'setup: a certificate, a password, Apache serving the server over HTTPS' '
	mkdir -p "$APACHE/run" &&
	openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
		-addext subjectAltName=IP:127.0.0.1 \
		-keyout "$APACHE/key.pem" -out "$APACHE/cert.pem" 2>openssl.err &&
	htpasswd -bc "$APACHE/passwd" rolling "s3cret pass" 2>htpasswd.err &&
	setup_upstream &&
	publish 12 &&
	cat >askpass <<-EOF &&
	#!/bin/sh
	echo "\$1" >>"$TRASH_DIRECTORY/prompts"
	case "\$1" in
	Username*) echo rolling ;;
	Password*) echo "s3cret pass" ;;
	esac
	EOF
	chmod +x askpass &&
	if start_apache
	then
		test_set_prereq HTTPS
	else
		echo "# skipping the HTTPS tests: $why"
	fi
'

test_expect_success HTTPS 'the reference: git ls-remote asks for the username and the password once' '
	git init -q reference &&
	git -C reference config http.sslCAInfo "$APACHE/cert.pem" &&
	GIT_ASKPASS="$TRASH_DIRECTORY/askpass" git -C reference ls-remote \
		"https://127.0.0.1:$port/git/server.git" refs/heads/$BRANCH >listed &&
	grep "refs/heads/$BRANCH\$" listed &&
	prompts_were Username Password &&
	test_must_fail env GIT_ASKPASS=false git -C reference ls-remote \
		"https://127.0.0.1:$port/git/server.git" 2>err &&
	grep -i "authentication failed\|could not read" err &&
	rm -f prompts
'

test_expect_success HTTPS 'a first and a weekly fetch over HTTPS: one authentication each' '
	git init -q consumer &&
	git -C consumer config http.sslCAInfo "$APACHE/cert.pem" &&
	git -C consumer remote add origin "https://127.0.0.1:$port/git/server.git" &&
	git -C consumer rolling init -q --follow origin/$BRANCH &&
	GIT_ASKPASS="$TRASH_DIRECTORY/askpass" git -C consumer rolling fetch origin >out &&
	prompts_were Username Password &&
	grep "^origin/$BRANCH: verified for the first time at " out &&
	test "$(git -C consumer rev-parse $VERIFIED)" = "$(git --git-dir=server.git rev-parse $BRANCH)" &&
	publish 13 &&
	GIT_ASKPASS="$TRASH_DIRECTORY/askpass" git -C consumer rolling fetch origin >out &&
	prompts_were Username Password &&
	grep "^origin/$BRANCH: 1 step since " out &&
	test "$(git -C consumer rev-parse $VERIFIED)" = "$(git --git-dir=server.git rev-parse $BRANCH)" &&
	test "$(git -C consumer rev-parse refs/remotes/origin/$BRANCH)" = \
		"$(git --git-dir=server.git rev-parse $BRANCH)" &&
	no_leftovers consumer
'

test_expect_success HTTPS 'an injected commit over HTTPS is refused, nothing kept' '
	good=$(git --git-dir=server.git rev-parse $BRANCH) &&
	test_when_finished "git --git-dir=server.git update-ref refs/heads/$BRANCH $good" &&
	injected=$(git --git-dir=server.git commit-tree -p $good -m "Tune the scheduler" $good^{tree}) &&
	git --git-dir=server.git update-ref refs/heads/$BRANCH $injected &&
	refs_and_logs consumer >before &&
	GIT_ASKPASS="$TRASH_DIRECTORY/askpass" test_expect_code 1 \
		git -C consumer rolling fetch origin 2>err &&
	prompts_were Username Password &&
	grep "^error: origin/$BRANCH: $injected: injected: " err &&
	refs_and_logs consumer >after &&
	test_cmp before after &&
	test_must_fail git -C consumer cat-file -e $injected &&
	no_leftovers consumer
'

test_expect_success HTTPS 'a pull over HTTPS: one authentication' '
	git clone -q --no-tags -b $BRANCH -c http.sslCAInfo="$APACHE/cert.pem" \
		"https://rolling:s3cret%20pass@127.0.0.1:$port/git/server.git" reader &&
	git -C reader config http.sslCAInfo "$APACHE/cert.pem" &&
	git -C reader remote set-url origin "https://127.0.0.1:$port/git/server.git" &&
	git -C reader rolling init -q --follow origin/$BRANCH &&
	publish 14 &&
	GIT_ASKPASS="$TRASH_DIRECTORY/askpass" git -C reader rolling pull >out &&
	prompts_were Username Password &&
	grep "^Fast-forward$" out &&
	test "$(git -C reader rev-parse HEAD)" = "$(git --git-dir=server.git rev-parse $BRANCH)"
'

test_expect_success HTTPS 'stop Apache' '
	stop_apache
'

test_done
