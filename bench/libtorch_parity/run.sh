#!/usr/bin/env bash
# Builds this folder's programs unchanged against Debian's libtorch
# (apt-get install libtorch-dev) and against tcc's <torch/torch.h> from an
# install tree: parity.cpp's outputs must be identical; then the eager
# benchmarks (bench/frontend_bench.cpp, train_bench.cpp) run for both, one
# after the other in this script. Not a ctest test: libtorch is a heavy peer.
# Usage: bench/libtorch_parity/run.sh [tcc-build-dir] [work-dir] [--no-bench]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# Absolute paths: CMake resolves a relative -DTorch_DIR against the build
# tree, misses tcc's package and silently falls back to the system libtorch.
build=$(cd "${1:-$root/build}" && pwd)
work=${2:-$build/libtorch-parity}
mkdir -p "$work" && work=$(cd "$work" && pwd)
torch_dir=$(dirname "$(find /usr/lib /usr/share -name TorchConfig.cmake \
                       -path '*Torch*' 2>/dev/null | grep -v tcc | head -1)")
if [ ! -f "$torch_dir/TorchConfig.cmake" ]; then
  echo "libtorch not found: apt-get install libtorch-dev" >&2
  exit 2
fi
rm -rf "$work" && mkdir -p "$work"
for component in eager Unspecified; do
  cmake --install "$build" --prefix "$work/prefix" --component "$component" >/dev/null
done
cmake -S "$here" -B "$work/tcc" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DTorch_DIR="$work/prefix/lib/cmake/Torch" >/dev/null
cmake -S "$here" -B "$work/libtorch" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DTorch_DIR="$torch_dir" >/dev/null
cmake --build "$work/tcc" >/dev/null
cmake --build "$work/libtorch" >/dev/null
# The tcc build must not have found a real libtorch.
if ldd "$work/tcc/parity" | grep -q 'libtorch\|libc10'; then
  echo "the tcc build of $here links a real libtorch: check Torch_DIR" >&2
  exit 1
fi
(cd "$work" && tcc/parity > tcc.txt && libtorch/parity > libtorch.txt)
if diff -u "$work/libtorch.txt" "$work/tcc.txt"; then
  echo "parity: $(wc -l < "$work/tcc.txt") lines, identical (libtorch $torch_dir)"
else
  echo "parity: outputs differ (- libtorch, + tcc)"
  exit 1
fi
[ "${3:-}" = "--no-bench" ] && exit 0

# Alternate the peers so that load from other processes hits both.
for round in 1 2; do
  for lib in libtorch tcc; do
    echo "== $lib: frontend_bench (round $round)"
    "$work/$lib/frontend_bench"
  done
done
# N threads means N for OpenBLAS too (libtorch's linear layers run there,
# on its own pool otherwise), and idle OpenMP threads wait passively.
for threads in 1 2; do
  for lib in libtorch tcc tcc libtorch libtorch tcc; do
    echo "== $lib: $(OMP_WAIT_POLICY=PASSIVE OPENBLAS_NUM_THREADS=$threads \
                     "$work/$lib/train_bench" "$threads")"
  done
done
