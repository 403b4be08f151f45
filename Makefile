# git-rolling: rolling branches for projects with stable release series.

prefix ?= /usr/local
bindir = $(prefix)/bin

CC ?= cc
PKG_CONFIG ?= pkg-config
CFLAGS ?= -O2 -g
WARNINGS = -Wall -Wextra -Werror=implicit-function-declaration
ALL_CFLAGS = -std=gnu11 -D_GNU_SOURCE $(WARNINGS) $(CFLAGS) \
	$(shell $(PKG_CONFIG) --cflags libgit2 libpcre2-8)
ALL_LDFLAGS = $(LDFLAGS)
LIBS = $(shell $(PKG_CONFIG) --libs libgit2 libpcre2-8)

# Every builtin/<cmd>.c is one git-rolling-<cmd> executable.
COMMANDS = $(sort $(basename $(notdir $(wildcard builtin/*.c))))
PROGRAMS = git-rolling $(addprefix git-rolling-,$(COMMANDS))

LIB_OBJS = $(patsubst %.c,%.o,$(wildcard lib/*.c))
LIB = lib/librolling.a
TEST_HELPER = t/helper/test-rolling

PROVE ?= prove
PROVE_OPTS ?=

all: $(PROGRAMS) $(TEST_HELPER)

git-rolling: git-rolling.o
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^

git-rolling-%: builtin/%.o $(LIB)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

$(TEST_HELPER): t/helper/test-rolling.o $(LIB)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

$(LIB): $(LIB_OBJS)
	$(AR) rcs $@ $^

%.o: %.c
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

-include $(wildcard *.d lib/*.d builtin/*.d t/helper/*.d)

test: all
	cd t && $(PROVE) $(PROVE_OPTS) ./t[0-9]*.sh

# AddressSanitizer and UndefinedBehaviorSanitizer build and test run.
sanitize:
	$(MAKE) clean
	$(MAKE) CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
		LDFLAGS="-fsanitize=address,undefined" test

demo: all
	contrib/demo.sh

bench: all
	t/perf/run

install: $(PROGRAMS)
	install -d $(DESTDIR)$(bindir)
	install -m 755 $(PROGRAMS) $(DESTDIR)$(bindir)

clean:
	$(RM) $(PROGRAMS) $(TEST_HELPER) $(LIB) *.o *.d lib/*.o lib/*.d builtin/*.o builtin/*.d \
		t/helper/*.o t/helper/*.d
	$(RM) -r t/trash\ directory.*

.PHONY: all test sanitize demo bench install clean
.SECONDARY: $(patsubst %.c,%.o,$(wildcard builtin/*.c))
