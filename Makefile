# git-rolling: rolling branches for projects with stable release series.

VERSION = 0.1.0

prefix ?= /usr/local
bindir = $(prefix)/bin
mandir = $(prefix)/share/man
completiondir = $(prefix)/share/bash-completion/completions

CC ?= cc
PKG_CONFIG ?= pkg-config
CFLAGS ?= -O2 -g
WARNINGS = -Wall -Wextra -Werror=implicit-function-declaration
ALL_CFLAGS = -std=gnu11 -D_GNU_SOURCE -DROLLING_VERSION='"$(VERSION)"' $(WARNINGS) $(CFLAGS) \
	$(shell $(PKG_CONFIG) --cflags libgit2 libpcre2-8)
ALL_LDFLAGS = $(LDFLAGS)
LIBS = $(shell $(PKG_CONFIG) --libs libgit2 libpcre2-8)

# Every builtin/<cmd>.c is one git-rolling-<cmd> executable.
COMMANDS = $(sort $(basename $(notdir $(wildcard builtin/*.c))))
PROGRAMS = git-rolling $(addprefix git-rolling-,$(COMMANDS))

LIB_OBJS = $(patsubst %.c,%.o,$(wildcard lib/*.c))
LIB = lib/librolling.a
TEST_HELPER = t/helper/test-rolling
# Preloaded by the tests that play a concurrent writer; never installed.
TEST_SEAM = t/helper/seam.so

ASCIIDOCTOR ?= asciidoctor
MAN1 = $(patsubst %.txt,%.1,$(wildcard Documentation/git-rolling*.txt))
MAN7 = Documentation/gitrolling.7

PROVE ?= prove
PROVE_OPTS ?=

all: $(PROGRAMS) $(TEST_HELPER) $(TEST_SEAM)

git-rolling: git-rolling.o
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^

git-rolling-%: builtin/%.o $(LIB)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

$(TEST_HELPER): t/helper/test-rolling.o $(LIB)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

# Built without the sanitizers: it is preloaded ahead of their runtime.
$(TEST_SEAM): t/helper/seam.c
	$(CC) -std=gnu11 -D_GNU_SOURCE $(WARNINGS) -O2 -g -fPIC -shared -o $@ $< -ldl

$(LIB): $(LIB_OBJS)
	$(AR) rcs $@ $^

%.o: %.c
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

-include $(wildcard *.d lib/*.d builtin/*.d t/helper/*.d)

test: all
	cd t && $(PROVE) $(PROVE_OPTS) ./t[0-9]*.sh

# AddressSanitizer and UndefinedBehaviorSanitizer build and test run.
# The objects do not record their flags, so clean before and after.
sanitize:
	$(MAKE) clean
	$(MAKE) CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
		LDFLAGS="-fsanitize=address,undefined" test
	$(MAKE) clean

demo: all
	contrib/demo.sh

bench: all
	t/perf/run

# Manual pages; a warning from asciidoctor fails the build.
doc: $(MAN1) $(MAN7)

Documentation/%.1: Documentation/%.txt Documentation/config.txt
	$(ASCIIDOCTOR) -b manpage -d manpage --failure-level WARN \
		-a mansource=git-rolling -a manversion=$(VERSION) \
		-a manmanual="Git Rolling Manual" -o $@ $<

Documentation/%.7: Documentation/%.txt Documentation/config.txt
	$(ASCIIDOCTOR) -b manpage -d manpage --failure-level WARN \
		-a mansource=git-rolling -a manversion=$(VERSION) \
		-a manmanual="Git Rolling Manual" -o $@ $<

install: $(PROGRAMS) doc
	install -d '$(DESTDIR)$(bindir)' '$(DESTDIR)$(mandir)/man1' '$(DESTDIR)$(mandir)/man7' \
		'$(DESTDIR)$(completiondir)'
	install -m 755 $(PROGRAMS) '$(DESTDIR)$(bindir)'
	install -m 644 $(MAN1) '$(DESTDIR)$(mandir)/man1'
	install -m 644 $(MAN7) '$(DESTDIR)$(mandir)/man7'
	install -m 644 contrib/completion/git-rolling.bash '$(DESTDIR)$(completiondir)/git-rolling'

# The server side: the updater the systemd units run, and the units.
libexecdir = $(prefix)/lib/git-rolling
systemdunitdir = $(prefix)/lib/systemd/system

install-contrib:
	install -d '$(DESTDIR)$(libexecdir)' '$(DESTDIR)$(systemdunitdir)'
	install -m 755 contrib/systemd/git-rolling-update '$(DESTDIR)$(libexecdir)'
	for unit in git-rolling-advance@.service git-rolling-advance@.timer; do \
		sed -e 's|/usr/local/lib/git-rolling|$(libexecdir)|' contrib/systemd/$$unit \
			>'$(DESTDIR)$(systemdunitdir)'/$$unit || exit; \
	done

clean:
	$(RM) $(PROGRAMS) $(TEST_HELPER) $(TEST_SEAM) $(LIB) *.o *.d lib/*.o lib/*.d builtin/*.o builtin/*.d \
		t/helper/*.o t/helper/*.d
	$(RM) Documentation/*.1 Documentation/*.7
	$(RM) -r t/trash\ directory.*

.PHONY: all test sanitize demo bench doc install install-contrib clean
.SECONDARY: $(patsubst %.c,%.o,$(wildcard builtin/*.c))

# --- git-rolling-verify: its --json output is written with json-c -------
JSON_C_CFLAGS = $(shell $(PKG_CONFIG) --cflags json-c)
JSON_C_LIBS = $(shell $(PKG_CONFIG) --libs json-c)
builtin/verify.o: ALL_CFLAGS += $(JSON_C_CFLAGS)
git-rolling-verify: LIBS += $(JSON_C_LIBS)

# --- git-rolling-log: --json, with json-c as verify ----------------------
builtin/log.o: ALL_CFLAGS += $(JSON_C_CFLAGS)
git-rolling-log: LIBS += $(JSON_C_LIBS)

# --- memcheck and stress runs (not part of make test) -------------------
# The suite with every git rolling command under valgrind's memcheck
# (t/valgrind/), which sees inside the uninstrumented libgit2 where ASan
# does not; a memory error exits 126 and fails the test.
valgrind: all
	cd t && GIT_ROLLING_TEST_VALGRIND=1 $(PROVE) $(PROVE_OPTS) ./t[0-9]*.sh

# kill -9 at random moments and concurrent runs of advance on a
# checked-out branch, STRESS_RUNS rounds (default 300).
stress: all
	t/stress-advance.sh

.PHONY: valgrind stress
