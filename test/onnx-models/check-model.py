#!/usr/bin/python3
"""Checks one exported model (export-models.py) through tcc.

  tcc import MODEL.onnx --input-shape ...  -> MODEL.ir
  tcc run-ir MODEL.ir                      (the reference interpreter)
  tcc compile MODEL.onnx --input-shape ... -> MODEL.bin   (-O2, the default)
  tcc run MODEL.bin                        (the runtime)

and compares each output of the interpreter and of the runtime with
PyTorch's. The metric, per output tensor (a: tcc, b: PyTorch):

  max |a - b|  <=  RTOL * max |b|,   RTOL = 1e-4

i.e. the largest error relative to the output's scale; shapes and dtypes
must match exactly, and every value must be finite. Prints the measured
ratio max|a-b| / max|b| of each output and the time of each step.

usage: check-model.py TCC MODEL_DIR WORK_DIR
"""

import json
import os
import subprocess
import sys
import time

import numpy as np

RTOL = 1e-4


def run(step, argv):
    start = time.monotonic()
    proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True)
    seconds = time.monotonic() - start
    if proc.returncode != 0:
        print(f"FAIL {step}: exit {proc.returncode}: {' '.join(argv)}\n"
              f"{proc.stdout}")
        sys.exit(1)
    print(f"{step}: {seconds:.1f} s")


def compare(where, expected_dir, actual_dir, outputs):
    ok = True
    for name in outputs:
        b = np.load(os.path.join(expected_dir, name + ".npy"))
        a = np.load(os.path.join(actual_dir, name + ".npy"))
        if a.shape != b.shape or a.dtype != b.dtype:
            print(f"FAIL {where} {name}: {a.dtype}{list(a.shape)}, PyTorch "
                  f"gives {b.dtype}{list(b.shape)}")
            ok = False
            continue
        if not np.all(np.isfinite(a)):
            print(f"FAIL {where} {name}: non-finite values")
            ok = False
            continue
        scale = float(np.max(np.abs(b)))
        error = float(np.max(np.abs(a.astype(np.float64) - b)))
        ratio = error / scale if scale > 0 else error
        verdict = "ok" if error <= RTOL * scale else "FAIL"
        print(f"{verdict} {where} {name}: max|a-b| = {error:.3g}, "
              f"max|b| = {scale:.3g}, ratio {ratio:.2e} (limit {RTOL:g})")
        ok &= verdict == "ok"
    return ok


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    tcc, model_dir, work = argv[1:]
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(model_dir, "model.json")) as f:
        meta = json.load(f)
    onnx_path = os.path.join(model_dir, "model.onnx")
    # The inputs' shapes specialize the export's symbolic dims.
    shapes, inputs = [], []
    for name in meta["inputs"]:
        path = os.path.join(model_dir, name + ".npy")
        shape = "x".join(str(d) for d in np.load(path, mmap_mode="r").shape)
        shapes.append(f"--input-shape={name}={shape}")
        inputs.append(f"--input={name}={path}")

    def outputs_to(folder):
        os.makedirs(folder, exist_ok=True)
        return [f"--output={n}={os.path.join(folder, n + '.npy')}"
                for n in meta["outputs"]]

    ir, binary = os.path.join(work, "model.ir"), os.path.join(work, "model.bin")
    ir_out, run_out = os.path.join(work, "run-ir"), os.path.join(work, "run")
    run("import", [tcc, "import", onnx_path, "-o", ir] + shapes)
    run("run-ir", [tcc, "run-ir", ir] + inputs + outputs_to(ir_out))
    run("compile -O2", [tcc, "compile", onnx_path, "-o", binary, "--no-progress"]
        + shapes)
    run("run", [tcc, "run", binary] + inputs + outputs_to(run_out))
    ok = compare("run-ir", model_dir, ir_out, meta["outputs"])
    ok &= compare("run", model_dir, run_out, meta["outputs"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
