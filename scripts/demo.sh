#!/usr/bin/env bash
# The README's main job: on a fresh machine, install what is missing, build,
# train the digits CNN eagerly, trace it to model.ir, compile it with
# `tcc compile`, quantize it to int8 with its training images as calibration
# data (`tcc quantize`, at most 0.28 points = 1 of the 359 test images of
# accuracy lost), run both artifacts on the test set with the runtime
# library, and print eager, compiled and int8 accuracy and speed side by
# side.
# Usage: scripts/demo.sh [build-dir] [work-dir]   (defaults: build, build/demo)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
work=${2:-$build/demo}
epochs=${TCC_DEMO_EPOCHS:-15}

"$root/scripts/install-deps.sh"
"$root/scripts/configure.sh" "$build"
echo "== building tcc and the digits_deploy example"
cmake --build "$build" --target tcc digits_deploy

mkdir -p "$work"
echo "== 1. train the digits CNN eagerly ($epochs epochs), trace it at batch 1"
"$build/bin/digits_deploy" train --data "$build/examples/digits" \
    --work "$work" --epochs "$epochs"
echo "== 2. compile: tcc compile model.ir -o model.bin"
"$build/bin/tcc" compile "$work/model.ir" -o "$work/model.bin" -O2 --stats
"$build/bin/tcc" inspect "$work/model.bin"
echo "== 3. quantize: tcc quantize model.ir --calibrate <training images> -o model.int8.ir"
"$build/bin/tcc" quantize "$work/model.ir" \
    --calibrate "$build/examples/digits/train-images-idx3-ubyte" --normalize 0.5,0.5 \
    --eval-data "$work/x_test.npy" --eval-labels "$work/y_test.npy" \
    --max-accuracy-drop 0.28 --report "$work/quantize-report.json" \
    -o "$work/model.int8.ir"
"$build/bin/tcc" compile "$work/model.int8.ir" -o "$work/model.int8.bin" -O2
echo "== 4. run eager, compiled and int8 on the test set"
"$build/bin/digits_deploy" compare --work "$work" --repeats 5
