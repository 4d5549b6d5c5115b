# Frost: `make test` (the everyday check, a few minutes), `make check` (everything CI runs) and
# `make bench` (the comparison). Each installs what it needs on Debian/Ubuntu first:
# libcmph-dev (cmph 2.0.2), pkg-config and valgrind, through apt-get.

SWIFT ?= swift
SWIFT_FLAGS := -Xswiftc -warnings-as-errors
FORMAT_PATHS := Package.swift Sources Tests Benchmarks/Package.swift Benchmarks/Sources \
    Examples/Package.swift Examples/Sources Examples/Tests
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build lint format test check unit readme-check layout-check sanitize memcheck \
	fuzz bench bench-quick docs examples hummingbird macros dependency-probe clean

all: test

# Installs what the build needs, when it is missing: the C library Frost links (cmph),
# pkg-config to find it, and valgrind for `make memcheck`.
deps:
	@if ! dpkg-query -W -f='$${Status}' libcmph-dev 2>/dev/null | grep -q 'ok installed' \
	   || ! command -v pkg-config >/dev/null || ! command -v valgrind >/dev/null; then \
	    echo "Installing libcmph-dev, pkg-config and valgrind with apt-get"; \
	    $(SUDO) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq \
	        libcmph-dev pkg-config valgrind; \
	fi

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

lint:
	$(SWIFT) format lint --strict --recursive $(FORMAT_PATHS)

format:
	$(SWIFT) format --in-place --recursive $(FORMAT_PATHS)

# The everyday check, after every change: warnings as errors, format, the README's code, the
# engine's layout, and the test suites (a few minutes from a fresh clone).
test: build lint readme-check layout-check unit

# Everything CI runs (`.ci/run`): `make test`, then both sanitizers, valgrind, the fuzzer, the
# documentation, the Hummingbird integration, the macros, the examples, the dependency probe,
# and a short benchmark run that proves the executable works (its timings are not judged).
# Before a push.
check: test sanitize memcheck fuzz docs hummingbird macros examples dependency-probe bench-quick

# The README's code blocks are the code Tests/FrostTests/ReadmeTourTests.swift runs.
readme-check:
	Scripts/readme-check.sh

# Each lifetime handled in at most three files; at most eight public `_` hooks.
layout-check:
	Scripts/engine-layout-check.sh

unit: deps
	$(SWIFT) test $(SWIFT_FLAGS)

# Swift Testing only (--disable-xctest): XCTest's empty harness run leaks on its own.
sanitize: deps
	$(SWIFT) test $(SWIFT_FLAGS) --sanitize=thread --scratch-path .build-tsan --disable-xctest
	$(SWIFT) test $(SWIFT_FLAGS) --sanitize=address --scratch-path .build-asan --disable-xctest

# Freezes and resolves through every public path 160 times under valgrind. "Possibly lost"
# blocks are the Swift runtime's metadata caches; definite or indirect leaks fail. The C code is
# built with DWARF 4 debug information: valgrind 3.19 cannot read the DWARF 5 clang emits.
memcheck: deps
	$(SWIFT) build $(SWIFT_FLAGS) -Xcc -gdwarf-4 --scratch-path .build-memcheck \
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

# The benchmark: frozen vs dictionary container vs Swinject vs hand-written, release mode.
bench: deps
	cd Benchmarks && $(SWIFT) run -c release $(SWIFT_FLAGS) frost-bench $(BENCH_ARGS)

# A short run that proves the benchmark works (CI); never read its timings.
bench-quick: deps
	cd Benchmarks && $(SWIFT) run -c release $(SWIFT_FLAGS) frost-bench --quick
	cd Benchmarks && .build/release/frost-bench --quick --json --filter singleton > .build/quick.json
	@if command -v python3 >/dev/null; then python3 -m json.tool Benchmarks/.build/quick.json \
	    > /dev/null && echo "frost-bench --json: valid JSON"; fi

# The DocC catalog (Sources/Frost/Frost.docc) with the API's doc comments, every DocC warning
# an error; the archive lands in .build/docs (swift-docc-plugin, a dependency of the package).
docs: deps
	$(SWIFT) package --allow-writing-to-directory .build/docs generate-documentation \
	    --target Frost --warnings-as-errors --output-path .build/docs

# FrostHummingbird, behind the package trait "Hummingbird": built with warnings as errors and
# tested, in its own scratch path (switching traits recompiles the package).
hummingbird: deps
	$(SWIFT) build $(SWIFT_FLAGS) --traits Hummingbird --scratch-path .build-hummingbird
	$(SWIFT) test $(SWIFT_FLAGS) --traits Hummingbird --scratch-path .build-hummingbird \
	    --filter FrostHummingbirdTests

# FrostMacros (`@Injectable`), behind the package trait "Macros": the compiler plugin and the
# library built with warnings as errors, then the expansion and behaviour tests, in a scratch
# path of its own (swift-syntax is built there once).
macros: deps
	$(SWIFT) build $(SWIFT_FLAGS) --traits Macros --scratch-path .build-macros --target FrostMacros
	$(SWIFT) test $(SWIFT_FLAGS) --traits Macros --scratch-path .build-macros \
	    --filter FrostMacrosTests

# A package that depends on Frost alone resolves neither Hummingbird nor swift-nio; one that
# enables the trait does.
dependency-probe:
	Scripts/dependency-probe.sh

# Examples/ is a package of its own (Frost by path): a Hummingbird server and a command-line
# tool, built with warnings as errors and tested.
examples: deps
	cd Examples && $(SWIFT) build $(SWIFT_FLAGS) && $(SWIFT) test $(SWIFT_FLAGS)

clean:
	rm -rf .build .build-tsan .build-asan .build-memcheck .build-hummingbird .build-macros \
	    Benchmarks/.build \
	    Examples/.build
