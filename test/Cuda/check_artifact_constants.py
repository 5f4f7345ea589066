#!/usr/bin/env python3
"""The GPU check carries its benchmark artifacts without their constants
(bench/cuda/artifact_constants.py) and regenerates the seeded weights on
the GPU machine (bench/seeded.py). This checks, with tcc's own compiles:

- seeded_uniform against a pure-Python splitmix64 (no numpy), value for
  value, and that its values are exact in bf16;
- strip + restore of cuda artifacts (fp32 and --precision bf16, whose
  weights tcc converts) give back the compiled file byte for byte, the
  weights carried as pieces of the seeded tensors (as stored, transposed,
  in bf16), not as literal bytes;
- a source that differs by one element is refused by the SHA-256 check,
  and the output file is then not written; a file that is not an
  artifact is refused by name.

usage: check_artifact_constants.py TCC WORK_DIR   (needs numpy)
"""
import hashlib
import json
import math
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(HERE, "..", "..", "bench")
sys.path.insert(0, BENCH)
sys.path.insert(0, os.path.join(BENCH, "cuda"))

import numpy as np  # noqa: E402

import artifact_constants  # noqa: E402
from seeded import seeded_uniform  # noqa: E402

failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


def reference_uniform(name, count, bound, seed=0, bits=8):
    """seeded_uniform with Python integers and floats only."""
    mask = (1 << 64) - 1
    base = int.from_bytes(hashlib.sha256(f"{seed}:{name}".encode()).digest()[:8], "little")
    exponent = bits - math.frexp(bound)[1]
    steps = min(round(bound * 2.0 ** exponent), 2 ** bits - 1)
    out = []
    for i in range(1, count + 1):
        z = (i * 0x9E3779B97F4A7C15 + base) & mask
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        z ^= z >> 31
        out.append((z % (2 * steps + 1) - steps) * 2.0 ** -exponent)
    return out


def hex_dense(values):
    return '"0x' + values.astype("<f4").tobytes().hex().upper() + '"'


def model_ir(w1, b1, w2):
    """A linear (weights as stored, cuBLASLt reads them in place), a matmul
    whose weight is given [n, k] and transposed in the graph."""
    return f"""func.func @main(%x: tensor<8x128xf32> {{tcc.name = "x"}}) -> (tensor<8x32xf32> {{tcc.name = "y"}}) {{
  %w1 = tcc.constant dense<{hex_dense(w1)}> : tensor<64x128xf32>
  %b1 = tcc.constant dense<{hex_dense(b1)}> : tensor<64xf32>
  %w2 = tcc.constant dense<{hex_dense(w2)}> : tensor<32x64xf32>
  %h = tcc.linear %x, %w1, %b1 : (tensor<8x128xf32>, tensor<64x128xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %a = tcc.relu %h : tensor<8x64xf32>
  %t = tcc.transpose %w2 {{permutation = array<i64: 1, 0>}} : tensor<32x64xf32> -> tensor<64x32xf32>
  %y = tcc.matmul %a, %t : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}}
"""


def main():
    tcc, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)

    # The generator against its reference, and bf16-exact.
    for name, bound in (("w", 0.0884), ("b", 0.05), ("one", 1.0)):
        ours = seeded_uniform(name, (1000,), bound).tolist()
        check(ours == reference_uniform(name, 1000, bound),
              f"seeded_uniform('{name}', bound {bound}) equals the pure-Python splitmix64")
    values = seeded_uniform("w", (4096,), 0.0884)
    check(not np.any(values.view(np.uint32) & 0xFFFF), "8-bit seeded values are exact in bf16")
    check(len(np.unique(values)) > 300, "seeded values spread over the range")

    sources = {"w1": seeded_uniform("w1", (64, 128), 0.0884),
               "b1": seeded_uniform("b1", (64,), 0.05),
               "w2": seeded_uniform("w2", (32, 64), 0.125)}
    ir = os.path.join(work, "constants-model.mlir")
    with open(ir, "w") as f:
        f.write(model_ir(sources["w1"], sources["b1"], sources["w2"]))

    for precision, flags in (("fp32", []), ("bf16", ["--precision", "bf16"])):
        artifact = os.path.join(work, f"constants-{precision}.bin")
        subprocess.run([tcc, "compile", ir, "-o", artifact, "--target", "cuda", "--gpu", "sm_80",
                        "--no-progress", *flags], check=True)
        info = subprocess.run([tcc, "inspect", "--json", artifact], check=True,
                              capture_output=True, text=True).stdout
        packed = os.path.join(work, f"constants-{precision}.tccz")
        summary = artifact_constants.strip(artifact, json.loads(info), sources, packed,
                                           min_piece=256)
        weight_bytes = sum(v.size for v in sources.values()) * (4 if precision == "fp32" else 2)
        check(summary["pieces"] >= weight_bytes - 64 * 4,
              f"{precision}: the weights travel as pieces of the seeded tensors "
              f"({summary['pieces']} of {summary['segment']} bytes; {summary['patches']} "
              "bytes of patches)")
        recipe = json.load(open(packed + ".json"))
        transforms = sorted({p["transform"] for p in recipe["pieces"]})
        print(f"      pieces as {transforms}")
        restored = os.path.join(work, f"constants-{precision}.restored")
        artifact_constants.restore(packed, sources, restored)
        check(open(restored, "rb").read() == open(artifact, "rb").read(),
              f"{precision}: the restored artifact is the compiled one, byte for byte")

        wrong = dict(sources)
        wrong["w1"] = sources["w1"].copy()
        wrong["w1"][3, 5] += np.float32(2.0 ** -7)
        refused = os.path.join(work, f"constants-{precision}.refused")
        try:
            artifact_constants.restore(packed, wrong, refused)
            check(False, f"{precision}: a weight off by one element is refused")
        except ValueError as e:
            check("differs from the compiled one" in str(e) and not os.path.exists(refused),
                  f"{precision}: a weight off by one element is refused, nothing written ({e})")

    not_artifact = os.path.join(work, "not-an-artifact.bin")
    with open(not_artifact, "wb") as f:
        f.write(struct.pack("<8sI", b"NOTMODEL", 3) + bytes(64))
    try:
        artifact_constants.strip(not_artifact, {"constant_bytes": 0, "buffers": []}, {},
                                 not_artifact + ".tccz")
        check(False, "a file that is not an artifact is refused")
    except ValueError as e:
        check("not a tcc artifact" in str(e), f"a file that is not an artifact is refused ({e})")

    print(f"{len(failures)} failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
