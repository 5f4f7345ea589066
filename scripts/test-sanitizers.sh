#!/usr/bin/env bash
# The sanitizer stage of the test command: the runtime's suites built with
# GCC under ASan+UBSan (BUILD-asan) and TSan (BUILD-tsan), configured
# without LLVM/MLIR (TCC_EAGER_ONLY; LLVM/MLIR are not instrumented) and
# building only the programs run here:
# - ASan+UBSan: the runtime's suites (thread pool, CPU features, kernels,
#   artifact loader, executor, C API, .npy), the eager library's
#   (TccFrontendTests) and its nn, optim, data and serialization suites
#   (TccNnTests), and the replays of the artifact, .npy, C API, safetensors
#   and IDX fuzz corpora and saved crashes (test/fuzz/);
# - TSan: the thread pool, concurrent sessions on one model (the C API's
#   thread-safety promise, docs/reliability.md), async runs and the data
#   loader's workers.
# Any sanitizer report fails the program that made it. scripts/sanitize.sh
# runs every test, compiler included, outside the test command.
# Usage: scripts/test-sanitizers.sh [BUILD]   (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${1:-$root/build}
start=$SECONDS
corpus=$root/test/fuzz/corpus
crashes=$root/test/fuzz/crashes
# Tests that ask for more memory than exists expect a failed allocation
# (RESOURCE_EXHAUSTED), not ASan stopping the program.
export ASAN_OPTIONS=allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1 TSAN_OPTIONS=second_deadlock_stack=1

asan_runs=(
  "TccThreadPoolTests" "TccCpuFeaturesTests" "TccKernelTests"
  "RuntimeArtifactTests"
  "tcc-fuzz-artifact-replay $corpus/artifact --optional $crashes/artifact"
  "tcc-fuzz-npy-replay $corpus/npy --optional $crashes/npy"
  "tcc-fuzz-capi-replay $corpus/capi --optional $crashes/capi"
  "TccFrontendTests" "TccNnTests"
  "tcc-fuzz-safetensors-replay $corpus/safetensors --optional $crashes/safetensors"
  "tcc-fuzz-idx-replay $corpus/idx --optional $crashes/idx"
)
tsan_runs=(
  "TccThreadPoolTests"
  "RuntimeArtifactTests --gtest_filter=Executor.Concurrent*:AsyncRun.*:ThreadSafety.*"
  "TccNnTests --gtest_filter=DataLoaderTest.*"
)

status=0
stage() { # SANITIZERS BUILD-DIR RUN...
  local flags=$1 build=$2
  shift 2
  if [ ! -f "$build/build.ninja" ]; then
    mkdir -p "$build"
    # -O1, as the sanitizers' documentation advises: reports stay exact and
    # the instrumented eager library builds in half the time of -O3.
    cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
      -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG" \
      -DTCC_EAGER_ONLY=ON -DTCC_SANITIZE="$flags" > "$build/configure.log" ||
      { cat "$build/configure.log"; return 1; }
  fi
  local run targets=()
  for run in "$@"; do targets+=("${run%% *}"); done
  cmake --build "$build" --target "${targets[@]}"
  for run in "$@"; do
    # shellcheck disable=SC2086 # each run is a program and its words
    if "$build"/bin/$run > "$build/last.log" 2>&1; then
      echo "$flags: ${run%% *}: $(grep -E '^\[  PASSED  \]|^replay:.*inputs' "$build/last.log")"
    else
      status=1
      echo "$flags: $run FAILED:"
      cat "$build/last.log"
    fi
  done
}
stage address,undefined "${prefix%/}-asan" "${asan_runs[@]}"
stage thread "${prefix%/}-tsan" "${tsan_runs[@]}"
echo "sanitizer stage: $((SECONDS - start)) s"
exit $status
