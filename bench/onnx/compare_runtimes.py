#!/usr/bin/env python3
"""Two builds of libtcc_runtime on the same artifacts, alternating in one process.

A change to the runtime alone (thread pool, kernels, executor) leaves the
artifacts as they are, so both builds can load the same .bin in one process
(each library through its own ctypes handle, with its own thread pool). For
each artifact and thread count this binds the same seeded inputs to a session
of each build, checks that their outputs are bitwise equal, then times RUNS
runs of each after WARMUP runs, alternating which goes first, and prints both
medians, the ratio new/base (below 1: the new build is faster), each side's
spread (p90 - p50) / p50 and in how many of the paired runs the new build was
the faster. A machine whose speed drifts slows both alike.

With --gap-ms, each run follows a sleep of that many milliseconds (untimed):
the pool's workers are then asleep when a run starts, as between requests
that arrive now and then; without it the runs follow each other, as in
`tcc bench`.

usage: compare_runtimes.py BASE.so NEW.so MODEL.bin... [--threads 1,2]
                           [--runs 100] [--warmup 10] [--gap-ms MS]
Copy each build's library to a file of its own first (two paths to one file
load one library).
"""
import argparse
import ctypes
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tcc_runtime  # noqa: E402


def seeded_inputs(runtime, path):
    """One float32 input per model input, the same for both builds."""
    lib = runtime.lib
    model = tcc_runtime.Model(runtime, path, 1)
    rng = np.random.default_rng(0)
    arrays = []
    for i in range(lib.tcc_model_input_count(model.model)):
        info = tcc_runtime._TensorInfo()
        runtime.check(lib.tcc_model_input_info(model.model, i, ctypes.byref(info)), "input info")
        dtype = tcc_runtime._DTYPES[info.dtype]
        shape = tuple(info.shape[k] for k in range(info.rank))
        arrays.append(rng.standard_normal(shape).astype(dtype))
    model.close()
    return arrays


def percentile(times, q):
    return float(np.percentile(np.asarray(times), q))


def compare(args, runtimes, path, threads):
    inputs = seeded_inputs(runtimes[0], path)
    models = [tcc_runtime.Model(rt, path, threads) for rt in runtimes]
    for m in models:
        m.bind(inputs)
        m.run()
    outputs = [[m.output(i) for i in range(len(m.outputs))] for m in models]
    identical = all(np.array_equal(a.view(np.uint8), b.view(np.uint8))
                    for a, b in zip(*outputs))

    def timed(model):
        if args.gap_ms:
            time.sleep(args.gap_ms / 1e3)
        t = time.perf_counter()
        model.run()
        return time.perf_counter() - t

    for _ in range(args.warmup):
        for m in models:
            timed(m)
    times = [[], []]
    for r in range(args.runs):
        order = (0, 1) if r % 2 == 0 else (1, 0)
        for which in order:
            times[which].append(timed(models[which]))
    for m in models:
        m.close()
    p50 = [percentile(t, 50) for t in times]
    p90 = [percentile(t, 90) for t in times]
    wins = sum(n < b for b, n in zip(*times))
    return {"base_ms": p50[0] * 1e3, "new_ms": p50[1] * 1e3, "ratio": p50[1] / p50[0],
            "base_spread": (p90[0] - p50[0]) / p50[0], "new_spread": (p90[1] - p50[1]) / p50[1],
            "wins": wins, "identical": identical}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="the base build's libtcc_runtime.so (a copy)")
    parser.add_argument("new", help="the new build's libtcc_runtime.so (a copy)")
    parser.add_argument("artifacts", nargs="+", help="compiled models (.bin)")
    parser.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--gap-ms", type=float, default=0.0,
                        help="sleep before each run (workers asleep at its start)")
    args = parser.parse_args()
    if args.runs < 10:
        parser.error("--runs must be at least 10 (the spread is p90 - p50)")
    if os.path.realpath(args.base) == os.path.realpath(args.new):
        parser.error("base and new are one file: copy one of them")
    try:
        args.threads = [int(t) for t in args.threads.split(",")]
    except ValueError:
        parser.error(f"--threads {args.threads}: not comma-separated counts")
    runtimes = [tcc_runtime.Runtime(os.path.abspath(p)) for p in (args.base, args.new)]
    print(f"{args.runs} alternating runs after {args.warmup} warm-up runs each"
          + (f", {args.gap_ms} ms sleep before each" if args.gap_ms else ""))
    print("| model | threads | base p50 ms | new p50 ms | new / base | base spread | new spread "
          "| new faster | outputs |")
    print("|---|---|---|---|---|---|---|---|---|")
    for path in args.artifacts:
        for threads in args.threads:
            r = compare(args, runtimes, path, threads)
            print(f"| {os.path.basename(path)} | {threads} | {r['base_ms']:.3f} | {r['new_ms']:.3f} | "
                  f"{r['ratio']:.3f} | {r['base_spread']:.2f} | {r['new_spread']:.2f} | "
                  f"{r['wins']}/{args.runs} | {'identical' if r['identical'] else 'DIFFER'} |",
                  flush=True)


if __name__ == "__main__":
    main()
