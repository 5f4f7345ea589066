#!/usr/bin/env bash
# The AArch64 stage: cross-builds the runtime alone (TCC_RUNTIME_ONLY, no
# LLVM/MLIR) with cmake/toolchains/aarch64-linux-gnu.cmake and runs its
# tests under qemu-aarch64 through ctest (NEON kernels, CPU features on a
# Cortex-A53 and on QEMU's max CPU, artifact loading and running).
# Usage: scripts/test-aarch64.sh [build-dir]   (default: build-aarch64)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-aarch64}
start=$SECONDS

if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DTCC_RUNTIME_ONLY=ON \
    -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/aarch64-linux-gnu.cmake"
fi
cmake --build "$build"

status=0
(cd "$build" && ctest --output-on-failure -j"$(nproc)") || status=$?
echo "aarch64 stage: $((SECONDS - start)) s"
exit $status
