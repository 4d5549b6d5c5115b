#!/usr/bin/env bash
# Runs a SwiftPM build command; when it dies from a signal, runs it once more.
#
# Why: llbuild, the build engine inside SwiftPM, can abort at the end of a build on its own
# build database ("SQLiteBuildDB.cpp: ... buildComplete(): Assertion `result == SQLITE_OK'
# failed", swiftlang/swift-build#999, open). CI met it once (2026-11-28, `make macros`, in
# `swift build`), on a commit whose every stage passed before and after on the same toolchain.
# That abort is the toolchain's, not the code's: the build it interrupted is correct to repeat.
#
# What is not retried: a build that fails (a compile error, a warning under
# -warnings-as-errors: exit status 1), and anything that is not a build. Test runs never go
# through this script (`swift test` runs with --skip-build after a build that does), so a test
# that crashes still fails CI the first time.
#
# Usage: Scripts/build-retrying-on-abort.sh swift build ARGS...
set -uo pipefail

"$@"
status=$?
if [ "$status" -gt 128 ]; then
    echo "build-retrying-on-abort: '$*' died from signal $((status - 128)); running it once more" >&2
    "$@"
    status=$?
fi
exit "$status"
