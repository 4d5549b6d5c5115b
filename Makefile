# Frost: `make test` (what CI runs) and `make bench` (the comparison). Both install what they
# need on Debian/Ubuntu first: libcmph-dev (cmph 2.0.2) and pkg-config, through apt-get.

SWIFT ?= swift
SWIFT_FLAGS := -Xswiftc -warnings-as-errors
FORMAT_PATHS := Package.swift Sources Tests Benchmarks/Package.swift Benchmarks/Sources
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build lint format test bench bench-quick clean

all: test

# Installs the C library Frost links, when it is missing.
deps:
	@if ! dpkg-query -W -f='$${Status}' libcmph-dev 2>/dev/null | grep -q 'ok installed' \
	   || ! command -v pkg-config >/dev/null; then \
	    echo "Installing libcmph-dev and pkg-config with apt-get"; \
	    $(SUDO) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libcmph-dev pkg-config; \
	fi

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

lint:
	$(SWIFT) format lint --strict --recursive $(FORMAT_PATHS)

format:
	$(SWIFT) format --in-place --recursive $(FORMAT_PATHS)

test: build lint
	$(SWIFT) test $(SWIFT_FLAGS)

# The benchmark: frozen vs dictionary container vs Swinject vs hand-written, release mode.
bench: deps
	cd Benchmarks && $(SWIFT) run -c release $(SWIFT_FLAGS) frost-bench $(BENCH_ARGS)

# A short run that proves the benchmark works (CI); never read its timings.
bench-quick: deps
	cd Benchmarks && $(SWIFT) run -c release $(SWIFT_FLAGS) frost-bench --quick

clean:
	rm -rf .build Benchmarks/.build
