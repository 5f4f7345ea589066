#!/usr/bin/env bash
# Every test (GoogleTest suites, lit, the MLIR-heavy compiler and JIT ones
# included) in a whole build under the sanitizers, each in its own folder:
# BUILD-sanitize-address (ASan+UBSan) and BUILD-sanitize-thread (TSan).
# Slow (the compiler itself is instrumented; LLVM/MLIR are not) and so not
# part of the test command, whose sanitizer stage (scripts/test-sanitizers.sh)
# covers the runtime and the eager library. Left out: runs under QEMU, the
# install tests (their consumers build against the installed, instrumented
# libraries without the sanitizer's flags and cannot link), and the
# lit tests that cap memory with `ulimit -v` (ASan and TSan reserve
# terabytes of address space), which lit's `sanitizer` feature marks unsupported
# (test/lit.cfg.py).
# Usage: scripts/sanitize.sh [address|thread]...   (default: both)
#        env BUILD: the prefix of the build folders (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${BUILD:-$root/build}
kinds=("$@")
[ ${#kinds[@]} -gt 0 ] || kinds=(address thread)

# Tests that ask for more memory than exists expect a failed allocation.
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons and unpoisons its
# slabs in inline header code, which is instrumented in tcc's objects but not
# in Debian's libMLIR; a slab poisoned by one copy and handed out by the
# other reads as use-after-poison inside MLIR (ONNX conformance cases
# test_convtranspose_dilations, test_maxpool_3d_dilations_use_ref_impl_large).
# tcc itself poisons nothing.
export ASAN_OPTIONS=allocator_may_return_null=1:allow_user_poisoning=0
# ignore_noninstrumented_modules=1: TSan sees Debian's libMLIR and libLLVM
# only through the interceptors they call (malloc, pthread), not their
# atomics, so their own lock-free publication reads as a race between
# their threads (MLIR's StorageUniquer shards, made by one llvm-worker and
# locked by another in the cuda compile's parallel kernel builds). The
# flag drops what interceptors called from uninstrumented libraries
# report; every access of tcc's own code is still checked.
export UBSAN_OPTIONS=print_stacktrace=1
export TSAN_OPTIONS=second_deadlock_stack=1:ignore_noninstrumented_modules=1:allocator_may_return_null=1
status=0
for kind in "${kinds[@]}"; do
  case $kind in
    address) flags=address,undefined ;;
    thread) flags=thread ;;
    *) echo "sanitize.sh: unknown kind '$kind' (address, thread)" >&2; exit 2 ;;
  esac
  build="${prefix%/}-sanitize-$kind"
  if [ ! -f "$build/build.ninja" ]; then
    # -O1, as the sanitizers' documentation advises (and test-sanitizers.sh
    # does): reports stay exact and instrumented code builds in about half
    # the time of -O3.
    cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
      -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG" -DTCC_SANITIZE="$flags"
  fi
  cmake --build "$build"
  # The ONNX conformance tests write their cases with the pinned onnx.
  "$root/scripts/python-env.sh" "$build"
  (cd "$build" && ctest --output-on-failure -j"$(nproc)" \
     -E 'qemu|Install|LibraryDependencies|LoadNoLLVM') ||
    status=1
done
exit $status
