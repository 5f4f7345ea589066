#!/usr/bin/env python3
"""tcc against ONNX Runtime on the same .onnx files, inputs and thread count.

For each model directory (model.onnx and input_<i>.npy, as
bench/onnx/export_models.py writes them) and each thread count: compiles
the model with `tcc compile` (-O2), loads the artifact into this process
through libtcc_runtime's C API (tcc_runtime.py) and the model into an ORT
session (intra-op threads = N, sequential execution, all graph
optimizations), checks that the outputs agree, then times RUNS runs of
each, alternating which goes first, after WARMUP runs of each. Prints both
medians, the ratio tcc/ORT (below 1: tcc is faster) and each side's spread
(p90 - p50) / p50.

ORT's intra-op threads spin after each run by default; in one process they
would hold both cores while tcc runs (tcc at 2 threads then runs no faster
than at 1). So spinning is off (session.intra_op.allow_spinning = 0) unless
--ort-spinning is given; ORT's own medians barely move without it
(docs/performance.md).

usage: onnx_vs_ort.py --tcc build/bin/tcc --runtime build/lib/libtcc_runtime.so
                      [--threads 1,2] [--runs 50] [--warmup 10] [--ort-spinning]
                      MODEL_DIR...
Needs onnxruntime (pinned in scripts/python-requirements.txt).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnxruntime as ort

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tcc_runtime  # noqa: E402


def load_inputs(model_dir):
    names = sorted((f for f in os.listdir(model_dir) if f.startswith("input_") and f.endswith(".npy")),
                   key=lambda f: int(f[len("input_"):-4]))
    return [np.load(os.path.join(model_dir, f)) for f in names]


def percentile(times, q):
    return float(np.percentile(np.asarray(times), q))


def bench_model(args, runtime, model_dir, threads, workdir):
    onnx_path = os.path.join(model_dir, "model.onnx")
    artifact = os.path.join(workdir, os.path.basename(model_dir.rstrip("/")) + ".bin")
    if not os.path.exists(artifact):
        subprocess.run([args.tcc, "compile", onnx_path, "-o", artifact, "--no-progress"], check=True)
    inputs = load_inputs(model_dir)

    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    if not args.ort_spinning:
        so.add_session_config_entry("session.intra_op.allow_spinning", "0")
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    session = ort.InferenceSession(onnx_path, so, providers=["CPUExecutionProvider"])
    feeds = {i.name: x for i, x in zip(session.get_inputs(), inputs)}

    model = tcc_runtime.Model(runtime, artifact, threads)
    model.bind(inputs)
    model.run()
    expected = session.run(None, feeds)[0]
    got = model.output(0)
    scale = max(float(np.abs(expected).max()), 1e-30)
    agreement = float(np.abs(got.astype(np.float64) - expected).max()) / scale

    def time_ort():
        t = time.perf_counter()
        session.run(None, feeds)
        return time.perf_counter() - t

    def time_tcc():
        t = time.perf_counter()
        model.run()
        return time.perf_counter() - t

    for _ in range(args.warmup):
        time_ort()
        time_tcc()
    ort_times, tcc_times = [], []
    for i in range(args.runs):
        if i % 2:
            ort_times.append(time_ort())
            tcc_times.append(time_tcc())
        else:
            tcc_times.append(time_tcc())
            ort_times.append(time_ort())
    model.close()
    p50_t, p90_t = percentile(tcc_times, 50), percentile(tcc_times, 90)
    p50_o, p90_o = percentile(ort_times, 50), percentile(ort_times, 90)
    return {"tcc_ms": p50_t * 1e3, "ort_ms": p50_o * 1e3, "ratio": p50_t / p50_o,
            "tcc_spread": (p90_t - p50_t) / p50_t, "ort_spread": (p90_o - p50_o) / p50_o,
            "rel_err": agreement}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tcc", required=True)
    parser.add_argument("--runtime", required=True)
    parser.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    parser.add_argument("--ort-spinning", action="store_true",
                        help="leave ORT's spinning threads on (they starve tcc's pool)")
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("models", nargs="+")
    args = parser.parse_args()
    if args.runs < 50:
        parser.error("--runs must be at least 50 (the spread is p90 - p50)")
    try:
        args.threads = [int(t) for t in args.threads.split(",")]
    except ValueError:
        parser.error(f"--threads {args.threads}: not comma-separated counts")
    runtime = tcc_runtime.Runtime(args.runtime)
    print(f"onnxruntime {ort.__version__}; {args.runs} alternating runs after {args.warmup} warm-up runs each")
    print("| model | threads | tcc p50 ms | ORT p50 ms | tcc / ORT | tcc spread | ORT spread | max rel diff |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as workdir:
        for model_dir in args.models:
            for threads in args.threads:
                r = bench_model(args, runtime, model_dir, threads, workdir)
                print(f"| {os.path.basename(model_dir.rstrip('/'))} | {threads} | {r['tcc_ms']:.3f} | "
                      f"{r['ort_ms']:.3f} | {r['ratio']:.2f} | {r['tcc_spread']:.2f} | "
                      f"{r['ort_spread']:.2f} | {r['rel_err']:.1e} |", flush=True)


if __name__ == "__main__":
    main()
