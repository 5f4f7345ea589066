#!/usr/bin/env bash
# Prepares the GPU check (issue 16) on this machine, which has the compiler
# but no GPU: one folder, carried to the GPU machine and run there by
# scripts/device-check.sh (which has CUDA but no LLVM/MLIR, FlatBuffers or
# GoogleTest, so nothing is built there).
#
# Usage: scripts/device-check-prepare.sh [BUILD_DIR] [OUT_DIR]
#   BUILD_DIR  a configured full build (default: build); its tcc, tcc-run,
#              libtcc_runtime, libtcc_device_cuda and the Cuda test binaries
#              are built here first
#   OUT_DIR    the folder to write (default: BUILD_DIR/device-check); it is
#              replaced
#
# The folder holds:
#   bin/       tcc-run, CudaGpuTests, CudaDeviceTests (x86-64, stripped)
#   lib/       libtcc_runtime.so.0 and libtcc_device_cuda.so
#   test/      the fake driver and the compiled models CudaDeviceTests use
#   models/NAME/model.bin      compiled with --target cuda --gpu sm_80,sm_90
#   models/NAME/inputN.npy     seeded random inputs
#   models/NAME/expected/outputN.npy  the reference interpreter's outputs
#                              (`tcc run-ir` on the same inputs)
#   conv-timing/{gemm,direct}-b{1,32}.bin  ResNet-18's convolutions under
#              each --cuda-conv mode (weights are inputs)
#   MANIFEST   the commit, the models and what the binaries need (glibc)
#   bench/     the benchmarks' models without their weights, which the GPU
#              machine regenerates (scripts/device-check-bench.sh)
# The models are those whose PTX CudaPtxasAcceptsKernels checks, and
# test/Cuda/Inputs/gemms.mlir (cuBLASLt alone); their constants are small,
# so the artifacts carry them.
#
# As a check of the harness itself, each model is also compiled for this
# CPU and its outputs compared with the references under the tolerances the
# GPU run uses (scripts/device_check_npy.py).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
out=${2:-$build/device-check}
npy="python3 $root/scripts/device_check_npy.py"

models=(
  test/Cuda/Inputs/elementwise.mlir test/Cuda/Inputs/reductions.mlir
  test/Cuda/Inputs/nn.mlir test/Cuda/Inputs/mlp.mlir test/Cuda/Inputs/gemms.mlir
  test/Cuda/Inputs/convs.mlir
  test/Tools/Inputs/attention-heads.mlir test/Tools/Inputs/chain4.mlir
  test/Tools/Inputs/linear.mlir test/Tools/Inputs/mul-relu.mlir
  test/Tools/Inputs/qkv-attention.mlir test/Tools/Inputs/sigmoid-add.mlir
  test/Tools/Inputs/sin-cos.mlir test/Tools/Inputs/slice-of-input.mlir
)

echo "== building in $build"
nice -n 10 cmake --build "$build" --target tcc tcc-run tcc_runtime \
  tcc_device_cuda CudaGpuTests CudaDeviceTests tcc_fake_cuda
test -f "$build/lib/libtcc_device_cuda.so" || {
  echo "error: $build has no libtcc_device_cuda.so (CUDA headers not found at configure time)" >&2
  exit 1
}

staging=$(mktemp -d "${out%/}.tmp.XXXXXX")
trap 'rm -rf "$staging"' EXIT
mkdir -p "$staging/bin" "$staging/lib" "$staging/models"
for b in tcc-run CudaGpuTests CudaDeviceTests; do
  strip -o "$staging/bin/$b" "$build/bin/$b"
done
strip -o "$staging/lib/libtcc_runtime.so.0" "$build/lib/libtcc_runtime.so.0"
strip -o "$staging/lib/libtcc_device_cuda.so" "$build/lib/libtcc_device_cuda.so"
# What CudaDeviceTests open by path (test/unittests/Cuda/TestPaths.h).
mkdir -p "$staging/test"
strip -o "$staging/test/libtcc_fake_cuda.so" \
  "$build/test/unittests/Cuda/libtcc_fake_cuda.so"
cp -r "$build/test/unittests/Cuda/artifacts" "$staging/test/artifacts"

tcc=$build/bin/tcc
failed=0
for source in "${models[@]}"; do
  name=$(basename "$source" .mlir)
  dir=$staging/models/$name
  mkdir -p "$dir/expected" "$dir/cpu"
  "$tcc" compile "$root/$source" -o "$dir/model.bin" --target cuda \
    --gpu sm_80,sm_90
  "$tcc" inspect --json "$dir/model.bin" > "$dir/model.json"
  $npy inputs "$dir/model.json" "$dir" 16
  inputs=() outputs=() cpu_outputs=()
  count=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['inputs']))" "$dir/model.json")
  for ((i = 0; i < count; ++i)); do inputs+=(--input "$dir/input$i.npy"); done
  # Outputs in order (the IR's names may not be the artifact's).
  count=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['outputs']))" "$dir/model.json")
  for ((i = 0; i < count; ++i)); do
    outputs+=(--output "$dir/expected/output$i.npy")
    cpu_outputs+=(--output "$dir/cpu/output$i.npy")
  done
  "$tcc" run-ir "$root/$source" "${inputs[@]}" "${outputs[@]}" > /dev/null
  # The harness on this machine: the CPU target against the same references.
  "$tcc" compile "$root/$source" -o "$dir/cpu/model.bin"
  "$build/bin/tcc-run" run "$dir/cpu/model.bin" "${inputs[@]}" "${cpu_outputs[@]}" > /dev/null
  for e in "$dir"/expected/*.npy; do
    if ! result=$($npy compare "$e" "$dir/cpu/$(basename "$e")"); then
      echo "error: $name: the CPU target's $(basename "$e" .npy) differs from the interpreter: $result" >&2
      failed=1
    fi
  done
  rm -rf "$dir/cpu"
  echo "   $name: $(du -sh "$dir" | cut -f1)"
done
[ "$failed" = 0 ] || exit 1

# ResNet-18's convolutions (scripts/device_check_convs.py) at batch 1 and
# 32 under each --cuda-conv mode, in the layout that mode runs a network
# in, their weights inputs (the bench's seeded values): device-check.sh
# times them against each other.
mkdir -p "$staging/conv-timing"
for batch in 1 32; do
  for mode in gemm:nhwc direct:nchw; do
    python3 "$root/scripts/device_check_convs.py" ir "$batch" "${mode#*:}" \
      > "$staging/conv-timing/${mode%:*}-b$batch.mlir"
    "$tcc" compile "$staging/conv-timing/${mode%:*}-b$batch.mlir" \
      -o "$staging/conv-timing/${mode%:*}-b$batch.bin" --target cuda \
      --gpu sm_80,sm_90 --cuda-conv="${mode%:*}" --no-progress
    rm "$staging/conv-timing/${mode%:*}-b$batch.mlir"
  done
done
echo "   conv-timing: $(du -sh "$staging/conv-timing" | cut -f1)"
# The benchmarks' models, in bench/ (scripts/device-check-bench.sh).
source "$root/scripts/device-check-bench.sh"
bench_prepare "$build" "$staging"

glibc=$(objdump -T "$staging"/bin/* "$staging"/lib/* | grep -o 'GLIBC_2\.[0-9.]*' | sort -uV | tail -1)
glibcxx=$(objdump -T "$staging"/bin/* "$staging"/lib/* | grep -o 'GLIBCXX_3\.4\.[0-9]*' | sort -uV | tail -1)
{
  echo "commit $(git -C "$root" rev-parse HEAD)$(git -C "$root" diff --quiet || echo ' (with uncommitted changes)')"
  echo "prepared $(date -u +%Y-%m-%dT%H:%MZ) on $(uname -m)"
  echo "needs ${glibc} and ${glibcxx} (libstdc++ of GCC 12 or newer)"
  echo "models ${models[*]}"
} > "$staging/MANIFEST"
rm -rf "$out"
mv "$staging" "$out"
trap - EXIT
size=$(du -sm "$out" | cut -f1)
echo "== $out: ${size} MiB"
if [ "$size" -gt 40 ]; then
  echo "error: the folder is over 40 MiB" >&2
  exit 1
fi
echo "On the GPU machine, from the repository root:"
echo "  scripts/device-check.sh ${out#$root/}"
