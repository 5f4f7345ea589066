#!/usr/bin/env bash
# The GPU check of the cuda device (issue 16), run on a machine with an
# NVIDIA GPU and its driver, from the folder scripts/device-check-prepare.sh
# wrote on the build machine. Nothing is built here: the folder carries the
# binaries (x86-64 Linux, glibc >= 2.34, libstdc++ of GCC >= 12) and the
# compiled models with their inputs and reference outputs.
#
# Usage: scripts/device-check.sh [FOLDER]   (default: build/device-check)
#
# In order, each command under a timeout (the whole check is meant to take
# under 5 minutes on an H200, the benchmarks most of it):
#  1. CudaGpuTests: a model with a hand-written PTX kernel (JIT from sm_80)
#     and a cuBLASLt linear (bias, residual, ReLU), run step by step, as a
#     captured graph and replayed, against float64; device step timing; an
#     architecture the GPU lacks refused. A skipped case counts as a
#     failure here: this machine must have a GPU.
#  2. CudaDeviceTests: the plugin's logic on its fake driver (a sanity check
#     that the binaries run here).
#  3. Every model: `tcc-run run --device cuda` (sm_90 cubin on an H200),
#     each output against the reference interpreter's .npy
#     (scripts/device_check_npy.py: f32 within 1e-5 + 1e-4|x|). A failing
#     model is run again with TCC_CUDA_SYNC_STEPS=1, which names the step.
#  4. `tcc-run bench --device cuda --profile` on the MLP: latency and the
#     device-timed (cuEvent) share of each step.
#  5. ResNet-18's convolutions at batch 1 and 32, --cuda-conv=gemm (im2col
#     and cuBLASLt) against direct (generated kernels): each convolution's
#     device time under both (scripts/device_check_convs.py table), which
#     decides the default (docs/cuda.md).
#  6-11. The benchmarks (scripts/device-check-bench.sh): the models rebuilt
#     from their seeded weights; tcc, PyTorch eager, cuBLAS alone and a
#     device copy, torch.compile; the table, also written to $OUT/bench.
#     They need python3 with torch and numpy, and take about 4 minutes.
# Then a summary; the exit status is 0 only when everything passed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(cd "${1:-$root/build/device-check}" 2>/dev/null && pwd) || {
  echo "error: no folder ${1:-build/device-check}: run scripts/device-check-prepare.sh on the build machine and carry it here" >&2
  exit 2
}
npy="python3 $root/scripts/device_check_npy.py"
export LD_LIBRARY_PATH="$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TCC_DEVICE_PATH="$dir/lib"
log=$(mktemp -d)
pass=0 fail=0 failures=()

result() { # NAME STATUS [DETAIL]
  if [ "$2" = 0 ]; then
    pass=$((pass + 1)); printf '  PASS  %s %s\n' "$1" "${3:-}"
  else
    fail=$((fail + 1)); failures+=("$1"); printf '  FAIL  %s %s\n' "$1" "${3:-}"
  fi
}

echo "== device-check: $(head -1 "$dir/MANIFEST")"
nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total \
  --format=csv,noheader 2>/dev/null | sed 's/^/   GPU: /' ||
  echo "   nvidia-smi: not found"
echo "   glibc $(getconf GNU_LIBC_VERSION 2>/dev/null | cut -d' ' -f2); the binaries $(sed -n 's/^needs //p' "$dir/MANIFEST")"

echo "== 1. CudaGpuTests (real GPU)"
timeout 120 "$dir/bin/CudaGpuTests" > "$log/gpu.txt" 2>&1
status=$?
skipped=$(grep -c '^\[  SKIPPED \] CudaGpu\..*ms)$' "$log/gpu.txt")
if grep -q '^no GPU to run on' "$log/gpu.txt"; then
  # Everything below needs the device: one clear line instead.
  echo "  FAIL  $(grep -m1 '^no GPU to run on' "$log/gpu.txt")"
  echo "== summary: no GPU; nothing else was run"
  rm -rf "$log"
  exit 1
fi
[ "$status" = 0 ] && [ "$skipped" != 0 ] && status=1
[ "$status" = 0 ] || grep -E 'Failure|Expected|Which|Value of|Actual|SKIPPED|Skipped' "$log/gpu.txt" | head -30 | sed 's/^/     /'
result CudaGpuTests "$status" "($(grep -o '[0-9]* tests\? from [0-9]* test suites\? ran' "$log/gpu.txt" | head -1); $skipped skipped)"

echo "== 2. CudaDeviceTests (fake driver)"
TCC_TEST_FAKE_CUDA_LIBRARY="$dir/test/libtcc_fake_cuda.so" \
  TCC_TEST_CUDA_PLUGIN_DIR="$dir/lib" TCC_TEST_CUDA_ARTIFACTS="$dir/test/artifacts" \
  timeout 120 "$dir/bin/CudaDeviceTests" > "$log/fake.txt" 2>&1
status=$?
[ "$status" = 0 ] || grep -E 'FAILED|Failure' "$log/fake.txt" | head -20 | sed 's/^/     /'
result CudaDeviceTests "$status" "($(grep -o 'PASSED.*' "$log/fake.txt" | head -1))"

echo "== 3. models on --device cuda against the interpreter"
for model in "$dir"/models/*/; do
  name=$(basename "$model")
  inputs=() outputs=()
  for f in "$model"input*.npy; do inputs+=(--input "$f"); done
  mkdir -p "$log/$name"
  n=$(ls "$model"expected | wc -l)
  for ((i = 0; i < n; ++i)); do outputs+=(--output "$log/$name/output$i.npy"); done
  if ! timeout 60 "$dir/bin/tcc-run" run "$model/model.bin" --device cuda \
      "${inputs[@]}" "${outputs[@]}" > "$log/$name/run.txt" 2>&1; then
    sed 's/^/     /' "$log/$name/run.txt" | tail -5
    TCC_CUDA_SYNC_STEPS=1 timeout 60 "$dir/bin/tcc-run" run "$model/model.bin" \
      --device cuda "${inputs[@]}" "${outputs[@]}" 2>&1 | tail -2 |
      sed 's/^/     step by step: /'
    result "$name" 1 "(tcc-run failed)"
    continue
  fi
  status=0 detail=""
  for ((i = 0; i < n; ++i)); do
    line=$($npy compare "$model/expected/output$i.npy" "$log/$name/output$i.npy") || status=1
    detail+=" [$i] $line;"
  done
  result "$name" "$status" "${detail%;}"
done

echo "== 4. bench: mlp, --device cuda (wall latency; steps timed by cuEvents)"
if [ -f "$dir/models/mlp/model.bin" ]; then
  timeout 120 "$dir/bin/tcc-run" bench "$dir/models/mlp/model.bin" --device cuda \
    --iterations 200 --warmup 20 --profile > "$log/bench.txt" 2>&1
  status=$?
  sed 's/^/     /' "$log/bench.txt" | head -40
  result "bench mlp" "$status"
fi

echo "== 5. ResNet-18's convolutions: --cuda-conv=gemm against direct (device ms per run)"
for batch in 1 32; do
  status=0
  for mode in gemm direct; do
    model=$dir/conv-timing/$mode-b$batch.bin
    [ -f "$model" ] || { echo "     $model: missing"; status=1; continue; }
    timeout 60 "$dir/bin/tcc-run" bench "$model" --device cuda \
      --iterations 20 --warmup 3 --profile --json \
      > "$log/conv-$mode-$batch.json" 2> "$log/conv-$mode-$batch.txt" || {
      status=1; tail -3 "$log/conv-$mode-$batch.txt" | sed 's/^/     /'; }
  done
  if [ "$status" = 0 ]; then
    echo "   batch $batch:"
    python3 "$root/scripts/device_check_convs.py" table \
      "$log/conv-gemm-$batch.json" "$log/conv-direct-$batch.json" |
      sed 's/^/   /' || status=1
  fi
  result "conv timing, batch $batch" "$status"
done
# 6-11: the benchmarks and their table (scripts/device-check-bench.sh).
source "$root/scripts/device-check-bench.sh"
bench_check "$dir" "$log"

echo "== summary: $pass passed, $fail failed${failures:+ (${failures[*]})}"
rm -rf "$log"
[ "$fail" = 0 ]
