#!/usr/bin/env bash
# The README's test command: installs what is missing, configures, builds and
# runs every test (GoogleTest suites and the lit suite) through ctest, then
# the AArch64 stage (scripts/test-aarch64.sh: the runtime cross-built and
# tested under QEMU) in build-dir's sibling build-dir-aarch64, then the
# sanitizer stage (scripts/test-sanitizers.sh: the runtime's and the eager
# library's tests under ASan+UBSan and TSan) in build-dir-asan and
# build-dir-tsan. ctest's
# Fuzz.* entries replay the fuzz corpora and saved crashes (test/fuzz/);
# scripts/fuzz.sh fuzzes, outside this command. The ONNX conformance suite
# (OnnxConformance.*) writes its cases with the pinned onnx package of
# build-dir/python-env (scripts/python-env.sh).
# Usage: scripts/test.sh [build-dir]     (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}

"$root/scripts/install-deps.sh"
"$root/scripts/configure.sh" "$build"
cmake --build "$build"
"$root/scripts/python-env.sh" "$build"

# ctest shows lit as one test; print lit's own count and ctest's at the end.
status=0
(cd "$build" && ctest --output-on-failure -j"$(nproc)") || status=$?
log="$build/Testing/Temporary/LastTest.log"
if [ -f "$log" ]; then
  echo "lit: $(grep -m1 -E '^Total Discovered Tests:' "$log" || echo 'no count')" \
       "$(grep -m1 -E '^\s*Passed:' "$log" | tr -s ' ' || true)"
fi

"$root/scripts/test-aarch64.sh" "${build%/}-aarch64" "$build" || status=$?
"$root/scripts/test-sanitizers.sh" "$build" || status=$?
exit $status
