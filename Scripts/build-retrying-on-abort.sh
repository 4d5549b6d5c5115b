#!/usr/bin/env bash
# Runs a SwiftPM build command; when llbuild aborts it on its build database, runs it once more.
#
# Why: llbuild, the build engine inside SwiftPM, can abort at the end of a build on its own
# build database ("SQLiteBuildDB.cpp: ... buildComplete(): Assertion `result == SQLITE_OK'
# failed", swiftlang/swift-build#999, open). CI met it once (2026-11-28, `make macros`, in
# `swift build`), on a commit whose every stage passed before and after on the same toolchain.
# That abort is the toolchain's, not the code's: the build it interrupted is correct to repeat.
#
# What is retried: only that abort, a SIGABRT (exit status 134) whose output names llbuild's
# SQLite database. What is not: a build that fails (a compile error, a warning under
# -warnings-as-errors, a compiler crash: swift-build reports them and exits 1), any other
# signal (a crash of SwiftPM itself, an out-of-memory kill), and anything that is not a build.
# Test runs never go through this script (`swift test` runs with --skip-build after a build
# that does), so a test that crashes still fails CI the first time.
#
# Usage: Scripts/build-retrying-on-abort.sh swift build ARGS...
set -uo pipefail

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# The build's standard output goes where it went; its standard error goes there too, as it
# comes, and to $log, to be read after (through a pipe: descriptor 3 carries the output past it).
{ "$@" 2>&1 1>&3 3>&- | tee "$log" 1>&2 3>&-; } 3>&1
status=${PIPESTATUS[0]}
if [ "$status" -eq 134 ] && grep -q "SQLITE" "$log"; then
    echo "build-retrying-on-abort: llbuild aborted '$*' on its build database; running it once more" >&2
    "$@"
    status=$?
fi
exit "$status"
