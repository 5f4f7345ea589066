#!/usr/bin/env bash
# Fuzzes every target (or those named) for SECONDS each with libFuzzer,
# ASan and UBSan, in its own clang-19 build (build-fuzz; TCC_FUZZERS=ON,
# cmake/TccFuzz.cmake). Seeds: test/fuzz/corpus/<target>, the saved crashes
# and, for ir, every .mlir file under test/. New inputs libFuzzer finds go to
# build-fuzz/corpus/<target>, not the repo; a crash is saved into
# test/fuzz/crashes/<target>/, to be fixed and committed: the test command
# replays that folder (ctest Fuzz.<target>). Not part of the test command.
# Usage: scripts/fuzz.sh SECONDS [target...]     (env FUZZ_BUILD: build dir)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:?usage: scripts/fuzz.sh SECONDS [target...]}
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(artifact npy capi safetensors idx ir onnx)
build=${FUZZ_BUILD:-$root/build-fuzz}

if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
    -DTCC_FUZZERS=ON
fi
cmake --build "$build" --target "${targets[@]/#/tcc-fuzz-}"

# The .mlir tests as IR seeds, in one folder (libFuzzer reads folders whole).
mlir_seeds="$build/seeds/ir"
rm -rf "$mlir_seeds" && mkdir -p "$mlir_seeds"
(cd "$root/test" && find . -name '*.mlir' -not -path './fuzz/*' |
   while read -r f; do cp "$f" "$mlir_seeds/$(echo "${f#./}" | tr / _)"; done)

status=0
for t in "${targets[@]}"; do
  crashes="$root/test/fuzz/crashes/$t"
  mkdir -p "$build/corpus/$t" "$crashes"
  seeds=("$root/test/fuzz/corpus/$t" "$crashes")
  [ "$t" != ir ] || seeds+=("$mlir_seeds")
  echo "== fuzz $t for $seconds s"
  # -timeout: an input that takes this long is a hang, saved like a crash.
  if ! "$build/bin/tcc-fuzz-$t" -max_total_time="$seconds" -timeout=10 \
       -rss_limit_mb=2048 -artifact_prefix="$crashes/" -print_final_stats=1 \
       "$build/corpus/$t" "${seeds[@]}" > "$build/fuzz-$t.log" 2>&1; then
    status=1
    echo "fuzz $t FAILED (log: $build/fuzz-$t.log):"
    grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|artifact_prefix|Test unit written)' \
      "$build/fuzz-$t.log" | head -20
  fi
  grep -E '^stat::(number_of_executed_units|new_units_added)' "$build/fuzz-$t.log" |
    tr '\n' ' '
  echo
  rmdir "$crashes" 2>/dev/null || true # keep only folders with crashes
done
exit $status
