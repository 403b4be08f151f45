# git-rolling: rolling branches for projects with stable release series.
#
#   make                 build (needs a C compiler, pkg-config, libgit2,
#                        libpcre2, json-c and libyaml with their headers)
#   make test            run the test suite
#   make install         the executables and the bash completion
#   make install-doc     the manual pages (built with asciidoctor from a
#                        checkout; a release tarball carries them built)
#   make dist            git-rolling-<version>.tar.gz, reproducibly
#   make deb             a Debian package, with dpkg-buildpackage
#   make DEVELOPER=1     stricter warnings, as errors

.DEFAULT_GOAL := all

prefix ?= /usr/local
bindir = $(prefix)/bin
mandir = $(prefix)/share/man
completiondir = $(prefix)/share/bash-completion/completions

CC ?= cc
PKG_CONFIG ?= pkg-config
CFLAGS ?= -O2 -g
WARNINGS = -Wall -Wextra -Werror=implicit-function-declaration
ifdef DEVELOPER
WARNINGS += -Werror -Wformat=2 -Wshadow -Wcast-qual -Wstrict-prototypes -Wvla
endif

# --- the version: VERSION-GEN writes it into VERSION-FILE ----------------
# Only what embeds the version depends on VERSION-FILE, which changes with
# every commit in a checkout; everything else ignores it.
VERSION-FILE: FORCE
	@$(SHELL) ./VERSION-GEN
-include VERSION-FILE
VERSION = $(ROLLING_VERSION)

# --- libraries, found through pkg-config --------------------------------
# Evaluated once; a missing one stops the build (not `make clean`) with a
# message that names it and the Debian package that provides it.
# PKG_CONFIG_PATH given on the command line (make PKG_CONFIG_PATH=...)
# reaches $(shell) only from GNU make 4.4 on: it is passed explicitly.
PKG_DEPS = libgit2:libgit2-dev libpcre2-8:libpcre2-dev json-c:libjson-c-dev zlib:zlib1g-dev \
	yaml-0.1:libyaml-dev
PKG_CONFIG_RUN = $(if $(PKG_CONFIG_PATH),PKG_CONFIG_PATH='$(subst ','\'',$(PKG_CONFIG_PATH))' )$(PKG_CONFIG)
PKG_MISSING := $(strip $(foreach d,$(PKG_DEPS),\
	$(if $(shell $(PKG_CONFIG_RUN) --exists $(word 1,$(subst :, ,$(d))) 2>/dev/null && echo ok),,$(d))))
GIT2_CFLAGS := $(shell $(PKG_CONFIG_RUN) --cflags libgit2 libpcre2-8 2>/dev/null)
GIT2_LIBS := $(shell $(PKG_CONFIG_RUN) --libs libgit2 libpcre2-8 2>/dev/null)
JSON_C_CFLAGS := $(shell $(PKG_CONFIG_RUN) --cflags json-c 2>/dev/null)
JSON_C_LIBS := $(shell $(PKG_CONFIG_RUN) --libs json-c 2>/dev/null)
# zlib: git's reftable library (below) inflates the log blocks of a table.
ZLIB_CFLAGS := $(shell $(PKG_CONFIG_RUN) --cflags zlib 2>/dev/null)
ZLIB_LIBS := $(shell $(PKG_CONFIG_RUN) --libs zlib 2>/dev/null)
# libyaml: the YAML body of a push log's records (lib/push-record.c), read
# with its event parser, which refuses what the format does not use.
YAML_CFLAGS := $(shell $(PKG_CONFIG_RUN) --cflags yaml-0.1 2>/dev/null)
YAML_LIBS := $(shell $(PKG_CONFIG_RUN) --libs yaml-0.1 2>/dev/null)

# --- what the libgit2 found provides, probed ----------------------------
# libgit2's main branch, the next release, calls itself 1.9.0 as 1.9.x
# does, so lib/git2-compat.h cannot tell them apart by version: each
# difference is probed here instead, by compiling one declaration against
# the headers found, and defines its macro (-DROLLING_PROBED_*) when that
# compiles.  Warnings are errors in a probe (gcc 12 only warns of a
# mismatched function pointer).  git2-compat.h says what each one changes.
GIT2_PROBE = $(if $(shell printf '%s\n' '$(2)' | $(CC) -std=gnu11 -Werror $(CPPFLAGS) \
	$(GIT2_CFLAGS) -include git2.h -include git2/sys/refdb_backend.h -fsyntax-only \
	-x c - >/dev/null 2>&1 && echo ok),-D$(1))
# git_odb_backend_loose() takes an options struct (libgit2 main).
GIT2_PROBE_LOOSE_OPTIONS = int (*p)(git_odb_backend **, const char *, \
	git_odb_backend_loose_options *) = git_odb_backend_loose;
# libgit2 reads reftable repositories itself (main).
GIT2_PROBE_REFTABLE = int (*p)(git_refdb_backend **, git_repository *) = \
	git_refdb_backend_reftable;
GIT2_FEATURES := $(if $(PKG_MISSING),,\
	$(call GIT2_PROBE,ROLLING_PROBED_LOOSE_OPTIONS,$(GIT2_PROBE_LOOSE_OPTIONS)) \
	$(call GIT2_PROBE,ROLLING_PROBED_REFTABLE,$(GIT2_PROBE_REFTABLE)))

# -pthread: a push log's epochs are walked on threads (lib/push-log.c).
ALL_CFLAGS = -std=gnu11 -D_GNU_SOURCE -pthread $(WARNINGS) $(CPPFLAGS) $(CFLAGS) $(GIT2_CFLAGS) \
	$(ZLIB_CFLAGS) $(GIT2_FEATURES)
ALL_LDFLAGS = -pthread $(LDFLAGS)
LIBS = $(GIT2_LIBS) $(ZLIB_LIBS) $(YAML_LIBS)

# git's reftable library, copied from git (lib/vendor/reftable/, refreshed
# by lib/vendor/refresh-reftable.sh, which applies the few fixes of
# lib/vendor/reftable-patches/ that git's release lacks), which git-rolling reads
# reftable repositories with.  Its platform header and the functions it
# asks of its host are ours (lib/reftable-system.[ch]): whatever includes
# the library's headers finds that header by its name, through
# REFTABLE_CFLAGS.  The library is built with our warnings, as errors
# under DEVELOPER=1, but for three that git's own build does not turn on
# and that its code does not heed (it casts const away, shadows, and
# leaves fields of initializers out).
REFTABLE_CFLAGS = -iquote lib
REFTABLE_OBJS = $(patsubst %.c,%.o,$(wildcard lib/vendor/reftable/*.c))
VENDOR_NO_WARNINGS = -Wno-cast-qual -Wno-shadow -Wno-missing-field-initializers

# --- BUILD-FLAGS: a change of compiler or flags rebuilds everything -----
TRACK_FLAGS = $(CC) : $(ALL_CFLAGS) : $(ALL_LDFLAGS) : $(JSON_C_CFLAGS) $(JSON_C_LIBS) : \
	$(ZLIB_LIBS) $(YAML_CFLAGS) $(YAML_LIBS) : $(REFTABLE_CFLAGS) $(VENDOR_NO_WARNINGS)

BUILD-FLAGS: FORCE
	$(if $(PKG_MISSING),$(error pkg-config cannot find \
		$(foreach d,$(PKG_MISSING),$(word 1,$(subst :, ,$(d))) (Debian package $(word 2,$(subst :, ,$(d))))): \
		install the development files, or point PKG_CONFIG_PATH at their .pc files))
	@flags='$(subst ','\'',$(TRACK_FLAGS))'; \
	if test x"$$flags" != x"`cat $@ 2>/dev/null`"; then \
		echo "$$flags" >$@; \
	fi

# Every builtin/<cmd>.c is one git-rolling-<cmd> executable.
COMMANDS = $(sort $(basename $(notdir $(wildcard builtin/*.c))))
PROGRAMS = git-rolling $(addprefix git-rolling-,$(COMMANDS))

# lib/: the domain, which returns errors and never exits or writes to the
# terminal.  cli/: what only the commands need (option parsing, usage,
# die(), colour, progress meters, report formats).
LIB_OBJS = $(patsubst %.c,%.o,$(wildcard lib/*.c))
LIB = lib/librolling.a
CLI_OBJS = $(patsubst %.c,%.o,$(wildcard cli/*.c))
CLI = cli/librolling-cli.a
TEST_HELPER = t/helper/test-rolling
# Writes reftables in the layouts git's commands do not choose, with git's
# own reftable library, for the tests to read back.
TEST_REFTABLE = t/helper/test-reftable
# Preloaded by the tests that play a concurrent writer; never installed.
TEST_SEAM = t/helper/seam.so

# The scripts run in parallel, one per core, as git's DEFAULT_TEST_TARGET
# = prove does with GIT_PROVE_OPTS; PROVE_OPTS (or GIT_PROVE_OPTS from the
# environment) replaces the default, e.g. PROVE_OPTS="-j1 --timer".
PROVE ?= prove
NPROC := $(shell nproc 2>/dev/null || echo 2)
PROVE_OPTS ?= $(or $(GIT_PROVE_OPTS),-j$(NPROC) --timer)
# Every run generates its fixture trees anew, once each (t/lib-stable-tree.sh):
# here when the run's trash directories are in t/ (t/run-suite.sh).
FIXTURE_CACHE = t/.fixture-cache

all: programs $(TEST_HELPER) $(TEST_REFTABLE) $(TEST_SEAM)

# The commands alone, without the test helpers (the Debian package built
# with nocheck).
programs: $(PROGRAMS)

git-rolling: git-rolling.o cli/about.o BUILD-FLAGS
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^)

git-rolling-%: builtin/%.o $(CLI) $(LIB) BUILD-FLAGS
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $(filter %.o %.a,$^) $(LIBS)

$(TEST_HELPER): t/helper/test-rolling.o $(LIB) BUILD-FLAGS
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $(filter %.o %.a,$^) $(LIBS)

$(TEST_REFTABLE): t/helper/test-reftable.o $(LIB) BUILD-FLAGS
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $(filter %.o %.a,$^) $(LIBS)

# Built without the sanitizers: it is preloaded ahead of their runtime.
$(TEST_SEAM): t/helper/seam.c
	$(CC) -std=gnu11 -D_GNU_SOURCE $(WARNINGS) -O2 -g -fPIC -shared -o $@ $< -ldl

$(LIB): $(LIB_OBJS) $(REFTABLE_OBJS)
	$(RM) $@
	$(AR) rcs $@ $^

$(CLI): $(CLI_OBJS)
	$(RM) $@
	$(AR) rcs $@ $^

%.o: %.c BUILD-FLAGS
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# The one place the version enters the code.
cli/about.o: ALL_CFLAGS += -DROLLING_VERSION='"$(VERSION)"'
cli/about.o: VERSION-FILE

-include $(wildcard *.d lib/*.d lib/vendor/reftable/*.d cli/*.d builtin/*.d t/helper/*.d)

# private: not inherited by the prerequisites (BUILD-FLAGS records the
# flags of none but its own).
lib/%.o t/helper/%.o: private ALL_CFLAGS += $(REFTABLE_CFLAGS)
lib/vendor/reftable/%.o: private WARNINGS += $(VENDOR_NO_WARNINGS)

# git-rolling-verify, -log and -status: their --json output is written with json-c.
builtin/verify.o builtin/log.o builtin/status.o: ALL_CFLAGS += $(JSON_C_CFLAGS)
lib/push-record.o: ALL_CFLAGS += $(YAML_CFLAGS)
git-rolling-verify git-rolling-log git-rolling-status: LIBS += $(JSON_C_LIBS)

# The longest scripts start first, the longest first, so that the short
# ones fill the end of a parallel run and no long one is left running
# alone: the scripts that took 3 s or more when all ran one after the
# other (wall time, /usr/bin/time).  The others, and a script missing
# from the list, run after them in their turn.  t2600 and t7010 wait
# seconds on purpose (for a lock, for a killed run's git), so they do
# not start side by side: a CPU-bound script runs beside each.
TEST_FIRST = t2600-advance-worktree-atomic.sh t4010-bisect-run.sh \
	t7010-pull.sh t6200-backfill.sh t7000-fetch.sh \
	t7001-fetch-interrupted.sh t6120-status-advance-init-agree.sh \
	t6000-log.sh t4020-bisect-by-hand.sh t2900-advance-each.sh \
	t7007-fetch-one-connection.sh t8020-repo-shapes-env.sh \
	t7006-fetch-view.sh t2620-signal-cleanup.sh t1400-init-adopt.sh \
	t1300-init-scheme.sh t2100-advance-weeks.sh t5400-long-names.sh \
	t4500-describe-release.sh t7040-fetch-enospc.sh t4590-describe-dates.sh \
	t3100-verify-mergetag.sh t6010-log-merged-history.sh \
	t8030-repo-shapes-refusals.sh t8010-repo-shapes-sparse.sh \
	t3005-verify-signatures.sh t3000-verify-basic.sh t5200-server.sh \
	t7050-fetch-https.sh t3101-verify-tag-free.sh t3001-verify-tamper.sh \
	t3003-verify-json.sh t3600-verify-tag-free-base.sh t2000-advance.sh \
	t3501-verify-base-tag.sh t7042-fetch-race.sh t7020-fetch-plan.sh \
	t6110-status-schemes.sh t1000-init.sh t3203-verify-json-utf8.sh \
	t8000-repo-shapes-partial.sh t4030-bisect-refusals.sh \
	t7002-fetch-signatures.sh t3400-hostile-text.sh \
	t7041-advance-init-pull-enospc.sh t1410-init-adopt-cadence.sh \
	t2700-advance-server-lock.sh t2200-advance-systemd.sh \
	t2840-advance-weeks-linux26.sh t6020-log-counts-any-option.sh \
	t5000-documentation.sh t0000-basic.sh t1200-init-failures.sh \
	t5310-dist.sh t3200-verify-replace-graft.sh t2800-advance-weeks-git.sh
ALL_TEST_SCRIPTS = $(sort $(notdir $(wildcard t/t[0-9]*.sh)))
TEST_SCRIPTS = $(foreach t,$(TEST_FIRST),$(filter $(t),$(ALL_TEST_SCRIPTS))) \
	$(filter-out $(TEST_FIRST),$(ALL_TEST_SCRIPTS))

# Where make test, test-long and valgrind put the trash directories and
# the fixture cache, in a directory of the run's own (t/run-suite.sh): a
# tmpfs, as git's tests run with --root=/dev/shm; TEST_ROOT= keeps them
# in t/.
TEST_ROOT ?= /dev/shm
RUN_SUITE = PROVE='$(PROVE)' PROVE_OPTS='$(PROVE_OPTS)' TEST_ROOT='$(TEST_ROOT)' t/run-suite.sh

test: all
	@$(RUN_SUITE) "make test" $(addprefix ./,$(TEST_SCRIPTS))

# The exhaustive replays (every week of every time line, every tag of
# t6200's full tree), the variants that make test covers in short (the
# signed and lightweight weekly replays, t5400's lightweight tree,
# t7041's pull on a full disk), the second file system of the full-disk
# loops, the runs under memcheck of test_memcheck, and the builds
# (t5330, and the release artifacts of t5310, t5320), the kill loops at
# every point of a run (TEST_POINT_STEP, t/test-lib.sh): the scripts
# with a test that needs EXPENSIVE, themselves or through a t/lib-*.sh,
# or that step through the points.
LONG_LIBS = $(shell cd t && grep -l EXPENSIVE lib-*.sh)
LONG_TEST_SCRIPTS = $(shell cd t && grep -l -e EXPENSIVE -e TEST_POINT_STEP $(addprefix -e ,$(LONG_LIBS)) t[0-9]*.sh)

test-long: all
	$(if $(LONG_TEST_SCRIPTS),,$(error no script has an EXPENSIVE test))
	@GIT_ROLLING_TEST_LONG=1 $(RUN_SUITE) "make test-long" $(addprefix ./,$(LONG_TEST_SCRIPTS))

# AddressSanitizer and UndefinedBehaviorSanitizer build and test run;
# BUILD-FLAGS makes the next plain `make` rebuild without them.
sanitize:
	$(MAKE) CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
		LDFLAGS="-fsanitize=address,undefined" test

demo: all
	contrib/demo.sh

# The benchmarks of t/perf/ (t/perf/run): make bench at kernel scale (a
# repository of a million commits, made once and cached), make
# bench-small at a small size in a minute or two, as CI runs it: every
# benchmark's own checks on, its targets printed, not enforced.  Both
# fail only when a benchmark could not run or one of its checks failed.
# The generated repositories are cached in t/perf/repos, or PERF_REPOS.
bench: all
	t/perf/run

bench-small: all
	t/perf/run --small

# --- manual pages ---------------------------------------------------------
# A warning from asciidoctor fails the build.  In a checkout the pages
# follow the version; a release tarball carries them built for its own,
# so that installing it needs no asciidoctor.  SOURCE_DATE_EPOCH, when
# set, dates them (make dist sets it).
ASCIIDOCTOR ?= asciidoctor
MAN1 = $(patsubst %.txt,%.1,$(wildcard Documentation/git-rolling*.txt))
MAN7 = Documentation/gitrolling.7
ifneq ($(wildcard .git),)
MAN_VERSION_DEP = VERSION-FILE
endif
ASCIIDOCTOR_MAN = $(if $(SOURCE_DATE_EPOCH),SOURCE_DATE_EPOCH=$(SOURCE_DATE_EPOCH)) \
	$(ASCIIDOCTOR) -b manpage -d manpage --failure-level WARN \
	-a mansource="git-rolling $(VERSION)" -a manversion=$(VERSION) \
	-a manmanual="Git Rolling Manual"

doc: $(MAN1) $(MAN7)

# One asciidoctor run makes every page: it starts in about a second,
# seven times what a page then takes, and the pages change together
# with the version anyway.
MAN_TXT = $(MAN1:.1=.txt) $(MAN7:.7=.txt)

$(MAN1) $(MAN7) &: $(MAN_TXT) Documentation/config.txt $(MAN_VERSION_DEP)
	$(ASCIIDOCTOR_MAN) -D Documentation $(MAN_TXT)

# --- installation ---------------------------------------------------------
install: $(PROGRAMS)
	install -d '$(DESTDIR)$(bindir)' '$(DESTDIR)$(completiondir)'
	install -m 755 $(PROGRAMS) '$(DESTDIR)$(bindir)'
	install -m 644 contrib/completion/git-rolling.bash '$(DESTDIR)$(completiondir)/git-rolling'

install-doc: doc
	install -d '$(DESTDIR)$(mandir)/man1' '$(DESTDIR)$(mandir)/man7'
	install -m 644 $(MAN1) '$(DESTDIR)$(mandir)/man1'
	install -m 644 $(MAN7) '$(DESTDIR)$(mandir)/man7'

# The server side: the updater the systemd units run, and the units.
libexecdir = $(prefix)/lib/git-rolling
systemdunitdir = $(prefix)/lib/systemd/system

install-contrib:
	install -d '$(DESTDIR)$(libexecdir)/hooks' '$(DESTDIR)$(systemdunitdir)'
	install -m 755 contrib/systemd/git-rolling-update '$(DESTDIR)$(libexecdir)'
	install -m 755 contrib/hooks/post-receive contrib/hooks/push-log '$(DESTDIR)$(libexecdir)/hooks'
	for unit in git-rolling-advance@.service git-rolling-advance@.timer; do \
		sed -e 's|/usr/local/lib/git-rolling|$(libexecdir)|' contrib/systemd/$$unit \
			>'$(DESTDIR)$(systemdunitdir)'/$$unit || exit; \
	done

# --- release tarball ------------------------------------------------------
# git-rolling-<version>.tar.gz from the committed HEAD (a tree with
# uncommitted changes is refused: the tarball would not hold them), with
# VERSION holding the exact version and the manual pages built from HEAD's
# sources, dated with HEAD's commit time.  git archive fixes the order,
# the owner, the modes and the dates (HEAD's commit time) of every entry;
# gzip -n leaves out the name and time, so one commit gives the same
# bytes.  debian/ and .ci/ are not shipped.
DIST_NAME = git-rolling-$(VERSION)
DIST_TARBALL = $(DIST_NAME).tar.gz
DIST_TMP = .dist-tmp
DIST_SRC = $(DIST_TMP)/$(DIST_NAME)
DIST_PAGES = $(patsubst Documentation/%,$(DIST_SRC)/Documentation/%,$(MAN1) $(MAN7))

dist: VERSION-FILE
	@git update-index -q --refresh && git diff-index --quiet HEAD -- || { \
		echo >&2 'fatal: make dist: commit your changes first; the tarball is made from HEAD'; \
		exit 128; }
	$(RM) -r $(DIST_TMP) && mkdir $(DIST_TMP)
	git archive --format=tar --prefix=$(DIST_NAME)/ HEAD | tar -xf - -C $(DIST_TMP)
	echo '$(VERSION)' >$(DIST_SRC)/VERSION
	$(MAKE) -C $(DIST_SRC) doc SOURCE_DATE_EPOCH=$$(git log -1 --format=%ct HEAD)
	git -c tar.umask=022 archive --format=tar \
		--prefix=$(DIST_NAME)/Documentation/ $(addprefix --add-file=,$(DIST_PAGES)) \
		--prefix=$(DIST_NAME)/ --add-file=$(DIST_SRC)/VERSION \
		HEAD -- . ':!VERSION' ':!debian' ':!.ci' | gzip -n -9 >$(DIST_TMP)/$(DIST_TARBALL)
	mv $(DIST_TMP)/$(DIST_TARBALL) $(DIST_TARBALL)
	$(RM) -r $(DIST_TMP)
	@echo $(DIST_TARBALL)

# --- Debian package ---------------------------------------------------------
# Built the Debian way, from the release tarball with debian/ (HEAD's)
# added, in $(DEB_DIR); lintian must find no error.  DEB_BUILD_OPTIONS
# passes through (nocheck skips the test suite in the build).
DEB_DIR = build-deb
LINTIAN ?= lintian

deb: dist
	$(RM) -r $(DEB_DIR) && mkdir $(DEB_DIR)
	tar -xzf $(DIST_TARBALL) -C $(DEB_DIR)
	git archive HEAD debian | tar -xf - -C $(DEB_DIR)/$(DIST_NAME)
	cd $(DEB_DIR)/$(DIST_NAME) && dpkg-buildpackage -us -uc -b
	$(LINTIAN) --fail-on error $(DEB_DIR)/*.changes
	@ls $(DEB_DIR)/*.deb

clean:
	$(RM) $(PROGRAMS) $(TEST_HELPER) $(TEST_REFTABLE) $(TEST_SEAM) $(LIB) $(CLI) *.o *.d lib/*.o lib/*.d cli/*.o cli/*.d builtin/*.o builtin/*.d \
		lib/vendor/reftable/*.o lib/vendor/reftable/*.d t/helper/*.o t/helper/*.d
ifneq ($(wildcard .git),)
	$(RM) Documentation/*.1 Documentation/*.7
endif
	$(RM) VERSION-FILE BUILD-FLAGS git-rolling-*.tar.gz
	$(RM) -r t/trash\ directory.* $(FIXTURE_CACHE) $(DIST_TMP) $(DEB_DIR)

.PHONY: all programs test test-long sanitize demo bench bench-small doc install install-doc install-contrib dist deb clean FORCE
.SECONDARY: $(patsubst %.c,%.o,$(wildcard builtin/*.c))

# --- memcheck and stress runs (not part of make test) -------------------
# The suite with every git rolling command under valgrind's memcheck
# (t/valgrind/), which sees inside the uninstrumented libgit2 where ASan
# does not; a memory error exits 126 and fails the test.
valgrind: all
	@GIT_ROLLING_TEST_VALGRIND=1 $(RUN_SUITE) "make valgrind" $(addprefix ./,$(TEST_SCRIPTS))

# kill -9 at random moments and concurrent runs of advance on a
# checked-out branch, STRESS_RUNS rounds (default 300).
stress: all
	t/stress-advance.sh

# Seeded bugs (t/mutation/mutants.txt) applied one at a time to a copy
# of the sources, each against the scripts that should catch it; prints
# KILLED or SURVIVED for each and the kill rate (t/mutation.sh).
mutation:
	MUTATION_REFTABLE_GIT='$(MUTATION_REFTABLE_GIT)' t/mutation.sh

.PHONY: valgrind stress mutation
