#!/usr/bin/env python3
"""The GPU check's table (bench/cuda/table.py) marks the issue's targets
from the stages' results: made-up results whose verdicts are known, on
both sides of each threshold, and missing stages read n/a with a reason.

usage: check_bench_table.py
"""
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "bench"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "bench", "cuda"))

import table  # noqa: E402

failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


def line(text, start):
    found = [l for l in text.splitlines() if l.startswith(start)]
    return found[0] if found else ""


def gemm(m, n, k, tflops):
    return {"kind": "sgemm", "m": m, "n": n, "k": k, "batch": 1, "trans_a": False,
            "trans_b": True, "what": "", "ms": 1.0, "tflops": tflops}


def main():
    manifest = {"models": {name: {} for name in
                           ("encoder_layer", "resnet18_b1", "resnet18_b32", "mlp_b64")}}
    tcc = {"models": {
        # fp32: faster than eager (2.0 vs 1.0), slower than compile (0.9).
        "resnet18_b1": {"fp32": {"p50_ms": 1.0}, "tf32": {"error": "cuda: boom"}},
        # Equal to compile: "no slower" is met; not faster than eager.
        "resnet18_b32": {"fp32": {"p50_ms": 2.0}},
        "encoder_layer": {"fp32": {"p50_ms": 1.0, "gemms": [gemm(128, 768, 256, 9.0)]},
                          "bf16": {"p50_ms": 1.0, "gemms": []}},
        "mlp_b64": {"fp32": {"p50_ms": 1.0, "gemms": [gemm(64, 4096, 784, 45.0),
                                                       gemm(64, 4096, 4096, 50.0)]},
                    "tf32": {"p50_ms": 1.0, "gemms": [gemm(64, 4096, 4096, 80.0)]}},
    }, "chain": {"what": "kernel", "ms": 1.0, "bytes": 1, "gbps": 3500.0}}
    eager = {"torch": "2.x", "device": "cuda", "gpu": "NVIDIA H200", "models": {
        "resnet18_b1": {"fp32": {"p50_ms": 2.0, "device_ms": 1.5}},
        "resnet18_b32": {"fp32": {"p50_ms": 2.0}},
    }}
    compiled = {"torch": "2.x", "models": {
        "resnet18_b1": {"fp32": {"p50_ms": 0.9}},
        "resnet18_b32": {"fp32": {"p50_ms": 2.0}},
    }}
    micro = {"copy": {"gbps": 4000.0}, "gemms": [
        {"precision": "fp32", "m": 128, "n": 768, "k": 256, "batch": 1, "trans_a": False,
         "trans_b": True, "tflops": 10.0},
        {"precision": "fp32", "m": 64, "n": 4096, "k": 784, "batch": 1, "trans_a": False,
         "trans_b": True, "tflops": 50.0},
        {"precision": "fp32", "m": 64, "n": 4096, "k": 4096, "batch": 1, "trans_a": False,
         "trans_b": True, "tflops": 50.0},
        {"precision": "tf32", "m": 64, "n": 4096, "k": 4096, "batch": 1, "trans_a": False,
         "trans_b": True, "tflops": 100.0},
    ]}
    with tempfile.TemporaryDirectory() as folder:
        text = table.render(manifest, folder, folder, {
            "tcc": tcc, "torch-eager": eager, "torch-compile": compiled, "torch-micro": micro})
        print(text)
        print()
        # 3500 / 4000 = 0.875 >= 0.8.
        check("**met** (0.88)" in line(text, "- elementwise chain"), "chain at 0.875 of copy: met")
        # 9/10 = 0.9, 45/50 = 0.9, 50/50 = 1: all >= 0.9.
        check("**met** (lowest 0.90 of 3)" in line(text, "- fp32 GEMMs"),
              "fp32 GEMMs at 0.90, 0.90, 1.00 of cuBLAS: met")
        check("**missed** (lowest 0.80 of 1)" in line(text, "- tf32 GEMMs"),
              "a tf32 GEMM at 0.80 of cuBLAS: missed")
        check(line(text, "- bf16 GEMMs").endswith("n/a"), "no bf16 GEMM steps: n/a")
        r1 = line(text, "- resnet18_b1 fp32")
        check("faster than eager **met** (2.00x)" in r1 and
              "torch.compile **missed** (0.90x)" in r1,
              "resnet18_b1: faster than eager, slower than compile")
        r32 = line(text, "- resnet18_b32 fp32")
        check("faster than eager **missed** (1.00x)" in r32 and
              "torch.compile **met** (1.00x)" in r32,
              "resnet18_b32: as fast as eager is not faster; as fast as compile is no slower")
        check("n/a (cuda: boom)" in line(text, "| resnet18_b1 | tf32 |"),
              "a failed tcc run reads n/a with its error")
        check("no torch-compile.json" in table.render(
            manifest, folder, folder, {"tcc": tcc, "torch-eager": eager}),
            "a stage that did not run reads n/a, saying so")
    print(f"{len(failures)} failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
