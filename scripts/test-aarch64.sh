#!/usr/bin/env bash
# The AArch64 stage: cross-builds the runtime alone (TCC_RUNTIME_ONLY, no
# LLVM/MLIR) with cmake/toolchains/aarch64-linux-gnu.cmake and runs its
# tests under qemu-aarch64 through ctest (NEON kernels, CPU features on a
# Cortex-A53 and on QEMU's max CPU, artifact loading and running).
# With a host build (HOST-BUILD, as scripts/test.sh passes), the conformance
# suite then runs against it: every op, the traced models and the random
# graphs compiled here with --target aarch64 and run by the cross-built
# tcc-run under qemu-aarch64, compared with the reference interpreter
# (test/unittests/Conformance/CrossRunner.h).
# Usage: scripts/test-aarch64.sh [build-dir [host-build]]
#        (default: build-aarch64, no conformance run)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-aarch64}
host=${2:-}
start=$SECONDS

if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DTCC_RUNTIME_ONLY=ON \
    -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/aarch64-linux-gnu.cmake"
fi
cmake --build "$build"

status=0
(cd "$build" && ctest --output-on-failure -j"$(nproc)") || status=$?

if [ -n "$host" ]; then
  conformance="$host/bin/TccConformanceTests"
  sysroot=/usr/aarch64-linux-gnu
  export TCC_CONFORMANCE_TARGET=aarch64
  export TCC_CONFORMANCE_RUNNER="qemu-aarch64 -L $sysroot $build/bin/tcc-run"
  # One shard per core; each prints its own summary.
  shards=$(nproc)
  pids=()
  for ((i = 0; i < shards; i++)); do
    GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i \
      "$conformance" --gtest_brief=1 > "$build/conformance-$i.log" 2>&1 &
    pids+=($!)
  done
  for ((i = 0; i < shards; i++)); do
    if wait "${pids[$i]}"; then
      echo "aarch64 conformance shard $i: $(grep -E '^\[  PASSED  \]' "$build/conformance-$i.log")"
    else
      status=1
      echo "aarch64 conformance shard $i FAILED:"
      cat "$build/conformance-$i.log"
    fi
  done
fi

echo "aarch64 stage: $((SECONDS - start)) s"
exit $status
