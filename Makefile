# Frost: `make test` (the everyday check, a few minutes), `make check` (everything CI runs) and
# `make bench` (the comparison). Each first checks for cmph 2.0.2 (through pkg-config); on
# Debian/Ubuntu it installs what is missing (libcmph-dev, pkg-config, valgrind) with apt-get,
# elsewhere it says what to install.

SWIFT ?= swift
SWIFT_FLAGS := -Xswiftc -warnings-as-errors
FORMAT_PATHS := Package.swift Sources Tests Benchmarks/Package.swift Benchmarks/Sources \
    Examples/Package.swift Examples/Sources Examples/Tests
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# The builds of `make check`'s Swift stages go through this (the documentation's plugin and the
# Scripts/ tools call SwiftPM themselves): a build that llbuild aborts on its database is run once
# more (the script says why); a build that fails, and every test run, is not. Test runs use
# --skip-build after it, with the build's flags.
BUILD := $(CURDIR)/Scripts/build-retrying-on-abort.sh $(SWIFT) build

.PHONY: all deps build lint format test check unit readme-check layout-check sanitize memcheck \
	fuzz walk bench bench-quick docs examples hummingbird lifecycle macros dependency-probe clean

all: test

# Checks for what the build needs: the C library Frost links (cmph, found with pkg-config) and,
# for `make memcheck`, valgrind. On Debian/Ubuntu (apt-get), installs what is missing; elsewhere
# it says what to install, and goes on when cmph is there (valgrind is for Linux only).
deps:
	@if command -v pkg-config >/dev/null && pkg-config --exists cmph \
	   && { command -v valgrind >/dev/null || ! command -v apt-get >/dev/null; }; then \
	    :; \
	elif command -v apt-get >/dev/null; then \
	    echo "Installing libcmph-dev, pkg-config and valgrind with apt-get"; \
	    $(SUDO) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq \
	        libcmph-dev pkg-config valgrind; \
	else \
	    echo "Frost needs cmph 2.0.2 and pkg-config, which finds it: install them, e.g."; \
	    echo "  macOS (Homebrew): brew install cmph pkg-config"; \
	    echo "  Debian/Ubuntu: sudo apt-get install libcmph-dev pkg-config"; \
	    echo "  elsewhere: your system's cmph (libcmph) development package and pkg-config"; \
	    exit 1; \
	fi

build: deps
	$(BUILD) $(SWIFT_FLAGS)

lint:
	$(SWIFT) format lint --strict --recursive $(FORMAT_PATHS)

format:
	$(SWIFT) format --in-place --recursive $(FORMAT_PATHS)

# The everyday check, after every change: warnings as errors, format, the README's code, the
# engine's layout, and the test suites (a few minutes from a fresh clone).
test: build lint readme-check layout-check unit

# Everything CI runs (`.ci/run`): `make test`, then both sanitizers, valgrind, the fuzzer, the
# documentation, the Hummingbird and swift-service-lifecycle integrations, the macros, the
# examples, the dependency probe, and a short benchmark run that proves the executable works
# (its timings are not judged). Before a push.
check: test sanitize memcheck fuzz docs hummingbird lifecycle macros examples dependency-probe \
	bench-quick

# The README's code blocks are the code Tests/FrostTests/ReadmeTourTests.swift runs.
readme-check:
	Scripts/readme-check.sh

# Each lifetime handled in at most three files; at most eight public `_` hooks.
layout-check:
	Scripts/engine-layout-check.sh

unit: deps
	$(BUILD) $(SWIFT_FLAGS) --build-tests
	$(SWIFT) test $(SWIFT_FLAGS) --skip-build

# Swift Testing only (--disable-xctest): XCTest's empty harness run leaks on its own.
sanitize: deps
	$(BUILD) $(SWIFT_FLAGS) --sanitize=thread --scratch-path .build-tsan --disable-xctest \
	    --build-tests
	$(SWIFT) test $(SWIFT_FLAGS) --sanitize=thread --scratch-path .build-tsan --disable-xctest \
	    --skip-build
	$(BUILD) $(SWIFT_FLAGS) --sanitize=address --scratch-path .build-asan --disable-xctest \
	    --build-tests
	$(SWIFT) test $(SWIFT_FLAGS) --sanitize=address --scratch-path .build-asan --disable-xctest \
	    --skip-build

# Freezes and resolves through every public path 160 times under valgrind. "Possibly lost"
# blocks are the Swift runtime's metadata caches; definite or indirect leaks fail. The C code is
# built with DWARF 4 debug information: valgrind 3.19 cannot read the DWARF 5 clang emits.
memcheck: deps
	$(BUILD) $(SWIFT_FLAGS) -Xcc -gdwarf-4 --scratch-path .build-memcheck \
	    --product frost-smoke
	valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite,indirect \
	    --error-exitcode=3 .build-memcheck/debug/frost-smoke

# libFuzzer on the C core, with AddressSanitizer: clang and lld from the Swift toolchain.
# CI runs it for FUZZ_SECONDS=20; `make fuzz FUZZ_SECONDS=3600` is a real session.
FUZZ_SECONDS ?= 20
TOOLCHAIN_BIN := $(dir $(realpath $(shell command -v $(SWIFT))))
fuzz: deps
	mkdir -p .build/fuzz-corpus
	$(TOOLCHAIN_BIN)clang -g -O1 -fsanitize=fuzzer,address -fuse-ld=lld \
	    -I Sources/CFrost/include Fuzz/frost_fuzz.c Sources/CFrost/*.c -lcmph \
	    -o .build/frost-fuzz
	.build/frost-fuzz -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	    -max_len=4096 -print_final_stats=1 .build/fuzz-corpus > .build/fuzz.log 2>&1 \
	    || { tail -60 .build/fuzz.log; exit 1; }
	tail -6 .build/fuzz.log

# The Swift files one resolve runs code in (callgrind), for the three walks the engine is
# judged by: a first singleton resolve, an awaited transient, an awaited `.scoped` resolve
# through `withChild`.
walk: deps
	Scripts/file-walk.sh

# The benchmark: frozen vs dictionary container vs Swinject vs hand-written, release mode.
bench: deps
	cd Benchmarks && $(BUILD) -c release $(SWIFT_FLAGS) --product frost-bench
	cd Benchmarks && .build/release/frost-bench $(BENCH_ARGS)

# A short run that proves the benchmark works (CI); never read its timings.
bench-quick: deps
	cd Benchmarks && $(BUILD) -c release $(SWIFT_FLAGS) --product frost-bench
	cd Benchmarks && .build/release/frost-bench --quick
	cd Benchmarks && .build/release/frost-bench --quick --json --filter singleton > .build/quick.json
	@if command -v python3 >/dev/null; then python3 -m json.tool Benchmarks/.build/quick.json \
	    > /dev/null && echo "frost-bench --json: valid JSON"; fi

# The documentation of the three products, Frost, FrostHummingbird and FrostServiceLifecycle
# (each catalog, Sources/*/*.docc, with the API's doc comments; a target without a catalog is
# rendered from its doc comments), every DocC warning an error. The integrations need their
# traits on. swift-docc-plugin is in the package graph only when FROST_DOCC_PLUGIN=1 (see
# Package.swift), so that no consumer resolves it. The archives land in .build/docs/NAME; the
# build shares `make lifecycle`'s scratch path (same traits).
DOC_TARGETS := Frost FrostHummingbird FrostServiceLifecycle
INTEGRATION_TRAITS := ServiceLifecycle,Hummingbird
docs: deps
	@mkdir -p .build/docs
	@for target in $(DOC_TARGETS); do \
	    echo "generate-documentation --target $$target"; \
	    FROST_DOCC_PLUGIN=1 $(SWIFT) package --traits $(INTEGRATION_TRAITS) \
	        --scratch-path .build-lifecycle --allow-writing-to-directory .build/docs \
	        generate-documentation --target $$target --warnings-as-errors \
	        --output-path .build/docs/$$target || exit 1; \
	done

# FrostHummingbird, behind the package trait "Hummingbird": built with warnings as errors and
# tested, in its own scratch path (switching traits recompiles the package).
hummingbird: deps
	$(BUILD) $(SWIFT_FLAGS) --traits Hummingbird --scratch-path .build-hummingbird --build-tests
	$(SWIFT) test $(SWIFT_FLAGS) --traits Hummingbird --scratch-path .build-hummingbird \
	    --skip-build --filter FrostHummingbirdTests

# FrostMacros (`@Injectable`), behind the package trait "Macros": the compiler plugin and the
# library built with warnings as errors, then the expansion and behaviour tests, in a scratch
# path of its own (swift-syntax is built there once).
macros: deps
	$(BUILD) $(SWIFT_FLAGS) --traits Macros --scratch-path .build-macros --target FrostMacros
	$(BUILD) $(SWIFT_FLAGS) --traits Macros --scratch-path .build-macros --build-tests
	$(SWIFT) test $(SWIFT_FLAGS) --traits Macros --scratch-path .build-macros \
	    --skip-build --filter FrostMacrosTests

# FrostServiceLifecycle, behind the package trait "ServiceLifecycle": built with warnings as
# errors and tested in its own scratch path, with "Hummingbird" on too, because its
# documentation's code runs a real Hummingbird server (Tests/FrostServiceLifecycleDocumentation*).
lifecycle: deps
	$(BUILD) $(SWIFT_FLAGS) --traits $(INTEGRATION_TRAITS) --scratch-path .build-lifecycle \
	    --build-tests
	$(SWIFT) test $(SWIFT_FLAGS) --traits $(INTEGRATION_TRAITS) --scratch-path .build-lifecycle \
	    --skip-build --filter FrostServiceLifecycle

# A package that depends on the Frost product alone resolves no other package; one that enables
# the "ServiceLifecycle" trait resolves swift-service-lifecycle, one that enables "Hummingbird"
# resolves Hummingbird and swift-nio.
dependency-probe:
	Scripts/dependency-probe.sh

# Examples/ is a package of its own (Frost by path): a Hummingbird server and a command-line
# tool, built with warnings as errors and tested.
examples: deps
	cd Examples && $(BUILD) $(SWIFT_FLAGS) --build-tests
	cd Examples && $(SWIFT) test $(SWIFT_FLAGS) --skip-build

clean:
	rm -rf .build .build-tsan .build-asan .build-memcheck .build-hummingbird .build-lifecycle \
	    .build-macros Benchmarks/.build Examples/.build
