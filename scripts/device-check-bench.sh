# The benchmark part of the GPU check (issue 16), sourced by
# scripts/device-check-prepare.sh (bench_prepare) and scripts/device-check.sh
# (bench_check); the Python is bench/cuda/ (prepare.py here, device_bench.py
# there: see their --help).
#
# The models (bench/torch_models.py: MLP 784-4096-4096-10 at batch 1 and 64,
# the digits CNN, ResNet-18 at batch 1 and 32, the encoder layer) are
# compiled here in three precisions and carried without their weights,
# which the GPU machine regenerates from their seeds; there each runs on
# tcc's cuda device and in PyTorch (eager and torch.compile), then a table
# (markdown) compares them against the issue's targets.

# bench_prepare BUILD STAGING: exports, compiles and packs the models into
# STAGING/bench. Needs a Python with torch, torchvision and numpy
# ($DEVICE_CHECK_TORCH_PYTHON, default Debian's /usr/bin/python3).
bench_prepare() {
  echo "== benchmark models (bench/cuda/prepare.py)"
  nice -n 10 "${DEVICE_CHECK_TORCH_PYTHON:-/usr/bin/python3}" -W ignore \
    "$root/bench/cuda/prepare.py" --tcc "$1/bin/tcc" "$2/bench" || return
  echo "   bench/: $(du -sh "$2/bench" | cut -f1)"
}

# bench_stage NAME SECONDS COMMAND...: one stage under a timeout, its result
# counted by device-check.sh's result(). A stage stopped by its timeout keeps
# what it measured (the stages save after every measurement).
bench_stage() {
  local name=$1 seconds=$2 status
  shift 2
  timeout "$seconds" "$@" 2>&1 | sed 's/^/  /'
  status=${PIPESTATUS[0]}
  case $status in
    0) result "$name" 0 ;;
    124) result "$name" 1 "(stopped after ${seconds} s; what it measured is kept)" ;;
    *) result "$name" 1 "(exit $status)" ;;
  esac
}

# bench_check FOLDER LOG: stages 6 to 11 of device-check.sh. The results
# (one JSON per stage, table.md) go to $OUT/bench when OUT is set (the
# device tool copies $OUT back), else LOG/bench-results, which is printed.
# Python: $DEVICE_CHECK_PYTHON (default python3, which has torch there).
# DEVICE_CHECK_DRY_RUN=1: two runs per measurement, torch on the CPU when
# there is no GPU (a check of the harness on a machine without one).
bench_check() {
  local dir=$1 work=$2/bench results=${OUT:+$OUT/bench}
  results=${results:-$2/bench-results}
  local -a py=("${DEVICE_CHECK_PYTHON:-python3}" -W ignore "$root/bench/cuda/device_bench.py")
  local -a dry=()
  [ "${DEVICE_CHECK_DRY_RUN:-0}" = 1 ] && dry=(--dry-run)
  if [ ! -f "$dir/bench/bench.json" ]; then
    echo "== 6-11. benchmarks: none in $dir (prepared without them)"
    return
  fi
  mkdir -p "$results"
  export PYTHONUNBUFFERED=1
  echo "== 6. benchmarks: the artifacts rebuilt from their seeded weights"
  bench_stage "bench restore" 30 "${py[@]}" restore "$dir" "$work"
  echo "== 7. benchmarks: tcc, --device cuda"
  bench_stage "bench tcc" 70 "${py[@]}" tcc "$dir" "$work" "$results" "${dry[@]}"
  echo "== 8. benchmarks: PyTorch eager"
  bench_stage "bench torch eager" 45 "${py[@]}" torch "$dir" "$work" "$results" \
    --part eager "${dry[@]}"
  echo "== 9. benchmarks: cuBLAS alone on tcc's GEMM shapes, a device copy (torch)"
  bench_stage "bench torch micro" 25 "${py[@]}" torch "$dir" "$work" "$results" \
    --part micro "${dry[@]}"
  echo "== 10. benchmarks: torch.compile (100 s for all compiles and runs)"
  bench_stage "bench torch.compile" 110 "${py[@]}" torch "$dir" "$work" "$results" \
    --part compile --budget 100 "${dry[@]}"
  echo "== 11. the table (also in $results/table.md)"
  "${py[@]}" table "$dir" "$work" "$results" ||
    result "bench table" 1
}
