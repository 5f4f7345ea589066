#!/usr/bin/env bash
# Every test (GoogleTest suites, lit, the MLIR-heavy compiler and JIT ones
# included) in a whole build under the sanitizers, each in its own folder:
# BUILD-sanitize-address (ASan+UBSan) and BUILD-sanitize-thread (TSan).
# Slow (the compiler itself is instrumented; LLVM/MLIR are not) and so not
# part of the test command, whose sanitizer stage (scripts/test-sanitizers.sh)
# covers the runtime and the eager library. Left out: runs under QEMU and the
# lit tests that cap memory with `ulimit -v` (ASan and TSan reserve terabytes
# of address space).
# Usage: scripts/sanitize.sh [address|thread]...   (default: both)
#        env BUILD: the prefix of the build folders (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${BUILD:-$root/build}
kinds=("$@")
[ ${#kinds[@]} -gt 0 ] || kinds=(address thread)

# Tests that ask for more memory than exists expect a failed allocation.
export ASAN_OPTIONS=allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1 TSAN_OPTIONS=second_deadlock_stack=1
# lit's name filter for the tests that set ulimit -v.
export LIT_FILTER_OUT='tcc-bench-huge-input|tcc-compile-huge-constant|tcc-out-of-memory'
status=0
for kind in "${kinds[@]}"; do
  case $kind in
    address) flags=address,undefined ;;
    thread) flags=thread ;;
    *) echo "sanitize.sh: unknown kind '$kind' (address, thread)" >&2; exit 2 ;;
  esac
  build="${prefix%/}-sanitize-$kind"
  if [ ! -f "$build/build.ninja" ]; then
    cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
      -DTCC_SANITIZE="$flags"
  fi
  cmake --build "$build"
  (cd "$build" && ctest --output-on-failure -j"$(nproc)" \
     -E 'qemu|InstallPackage|InstallAndExample|LibraryDependencies|LoadNoLLVM') ||
    status=1
done
exit $status
