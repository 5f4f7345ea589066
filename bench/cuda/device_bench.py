#!/usr/bin/env python3
"""The GPU benchmark of the device check (issue 16), run on the GPU machine
by scripts/device-check.sh from the folder scripts/device-check-prepare.sh
wrote (its bench/, from bench/cuda/prepare.py). One stage per command, each
writing its results as JSON to RESULTS (after every measurement, so a stage
stopped by its timeout keeps what it measured), and `table` printing what
the stages left:

  device_bench.py restore FOLDER WORK
      rebuilds the artifacts bit for bit from the seeded weights, and
      writes each model's seeded input, into WORK
  device_bench.py tcc FOLDER WORK RESULTS
      per model and precision, `tcc-run run` (its output, for the
      numerics) and `tcc-run bench --device cuda --json` (latency, and with
      --profile for the GEMM models and the elementwise chain, per-step
      device times) -> RESULTS/tcc.json
  device_bench.py torch FOLDER WORK RESULTS --part eager|micro|compile
      the same models in PyTorch: eager, or torch.compile (mode
      reduce-overhead, static shapes; compile time within --budget), at
      equal precision; or `micro`: torch.matmul on the GEMM shapes tcc's
      profile lists, and a device-to-device copy -> RESULTS/torch-PART.json
  device_bench.py table FOLDER WORK RESULTS
      the markdown table (also RESULTS/table.md) with the issue's targets
      marked met or missed

Precisions: fp32 (tcc strict; torch with TF32 off for matmuls and cuDNN),
tf32 (tcc --allow-tf32; torch with TF32 on), bf16 (tcc --precision bf16;
torch.autocast to bfloat16, TF32 off).

Latency is a whole run from the host's input to the host's output, as
tcc's runtime takes them (ordinary, pageable memory): for torch, a copy
of the input to the GPU, the model, a copy back and a synchronize, timed
by the host's clock like `tcc-run bench`; the median over enough runs for
about a quarter of a second (at least 5). torch's device time (CUDA
events around the model alone) is given beside it. --dry-run: on the CPU when there is no GPU, two
runs each, for checking the harness on a machine without one.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from common import (GEMM_MODELS, describe_error, iterations_for, load,  # noqa: E402
                    load_manifest, ordered, save)
from torch_peer import TIMING_RESERVE  # noqa: E402  (torch itself is imported later)


# --- restore ---------------------------------------------------------------

def cmd_restore(args):
    import numpy as np
    import artifact_constants
    import torch_models
    manifest = load_manifest(args.folder)
    failed = 0
    for name in ordered(manifest):
        entry = manifest["models"][name]
        directory = os.path.join(args.work, name)
        os.makedirs(directory, exist_ok=True)
        try:
            sources = torch_models.seeded_state(torch_models.MODELS[name][0]())
            np.save(os.path.join(directory, "input.npy"),
                    torch_models.seeded_input(name, tuple(entry["input_shape"])))
        except Exception as e:  # noqa: BLE001 (e.g. no torchvision for resnet18)
            print(f"  error: {name}: {describe_error(e)}", flush=True)
            failed += 1
            continue
        restored = []
        for precision in entry["precisions"]:
            try:
                artifact_constants.restore(
                    os.path.join(args.folder, "bench", name, precision + ".tccz"), sources,
                    os.path.join(directory, precision + ".bin"))
                restored.append(precision)
            except (OSError, ValueError) as e:
                print(f"  error: {name} {precision}: {e}", flush=True)
                failed += 1
        print(f"   {name}: restored {', '.join(restored) or 'none'}", flush=True)
    os.makedirs(os.path.join(args.work, "chain"), exist_ok=True)
    try:
        artifact_constants.restore(os.path.join(args.folder, "bench", "chain", "fp32.tccz"), {},
                                   os.path.join(args.work, "chain", "fp32.bin"))
    except (OSError, ValueError) as e:
        print(f"  error: chain: {e}")
        failed += 1
    return 1 if failed else 0


# --- tcc -------------------------------------------------------------------

GEMM_SUMMARY = re.compile(r"^(\w+) (\d+)x(\d+)x(\d+) \(m x n x k\), batch (\d+)(.*)$")


def tcc_run(args, argv, timeout=60):
    done = subprocess.run([os.path.join(args.folder, "bin", "tcc-run"), *argv],
                          capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        lines = (done.stderr.strip() or done.stdout.strip() or "exit %d" % done.returncode)
        raise RuntimeError(lines.splitlines()[-1])
    return done.stdout


def tcc_bench(args, artifact, inputs, iterations, warmup, profile):
    argv = ["bench", artifact, "--device", "cuda", "--json", "--iterations", str(iterations),
            "--warmup", str(warmup)] + [a for i in inputs for a in ("--input", i)]
    return json.loads(tcc_run(args, argv + (["--profile"] if profile else [])))


def gemm_steps(profile):
    """The profile's GEMM steps (a library call whose summary gives m x n x k)."""
    out = []
    for step in profile:
        match = GEMM_SUMMARY.match(step["what"])
        if not match or step["ms_per_run"] <= 0:
            continue
        kind, m, n, k, batch, rest = match.groups()
        out.append({"kind": kind, "m": int(m), "n": int(n), "k": int(k), "batch": int(batch),
                    "trans_a": "A^T" in rest, "trans_b": "B^T" in rest, "what": step["what"],
                    "ms": step["ms_per_run"],
                    "tflops": step["flops"] / (step["ms_per_run"] * 1e9)})
    return out


def cmd_tcc(args):
    manifest = load_manifest(args.folder)
    path = os.path.join(args.results, "tcc.json")
    results = {"models": {}}
    failed = 0
    for name in ordered(manifest, args.models):
        directory = os.path.join(args.work, name)
        inputs = [os.path.join(directory, "input.npy")]
        for precision in manifest["models"][name]["precisions"]:
            artifact = os.path.join(directory, precision + ".bin")
            record = results["models"].setdefault(name, {}).setdefault(precision, {})
            try:
                if not os.path.exists(artifact):
                    raise RuntimeError("not restored")
                start = time.time()
                tcc_run(args, ["run", artifact, "--device", "cuda", "--input", inputs[0],
                               "--output", os.path.join(directory, precision + ".tcc.npy")])
                if args.dry_run or time.time() - start > 2:  # a slow model: a few runs
                    iterations, warmup = 2 if args.dry_run else 3, 1
                else:
                    probe = tcc_bench(args, artifact, inputs, 3, 1, False)
                    iterations = iterations_for(probe["latency_ms"]["p50"] / 1e3, False)
                    warmup = max(3, iterations // 10)
                report = tcc_bench(args, artifact, inputs, iterations, warmup,
                                   name in GEMM_MODELS)
                record.update({"p50_ms": report["latency_ms"]["p50"],
                               "min_ms": report["latency_ms"]["min"],
                               "iterations": iterations})
                if "profile" in report:
                    record["gemms"] = gemm_steps(report["profile"])
                    record["steps_ms"] = sum(s["ms_per_run"] for s in report["profile"])
                print(f"   {name} {precision}: p50 {record['p50_ms']:.4f} ms", flush=True)
            except (RuntimeError, subprocess.TimeoutExpired, ValueError) as e:
                record["error"] = str(e)
                print(f"  error: {name} {precision}: {e}", flush=True)
                failed += 1
            save(path, results)
    # The chain: its one kernel's device time against its bytes.
    chain = results["chain"] = {}
    try:
        report = tcc_bench(args, os.path.join(args.work, "chain", "fp32.bin"), [],
                           2 if args.dry_run else 20, 1 if args.dry_run else 3, True)
        (step,) = [s for s in report["profile"] if s["op"] != "copy"]
        chain.update({"what": step["what"], "ms": step["ms_per_run"], "bytes": step["bytes"],
                      "gbps": step["bytes"] / (step["ms_per_run"] * 1e6)})
        print(f"   chain: {chain['gbps']:.1f} GB/s", flush=True)
    except (RuntimeError, subprocess.TimeoutExpired, ValueError) as e:
        chain["error"] = str(e)
        print(f"  error: chain: {e}", flush=True)
        failed += 1
    save(path, results)
    return 1 if failed else 0


def cmd_torch(args):
    import torch_peer
    t = torch_peer.Torch(args.dry_run)
    if args.part == "micro":
        return torch_peer.measure_micro(args, t)
    if args.part == "eager":
        return torch_peer.measure_eager(args, t)
    return torch_peer.measure_compiled(args, t)


def cmd_table(args):
    import table
    text = table.render(load_manifest(args.folder), args.folder, args.work,
                        {part: load(os.path.join(args.results, part + ".json"))
                         for part in ("tcc", "torch-eager", "torch-compile", "torch-micro")})
    print(text)
    with open(os.path.join(args.results, "table.md"), "w") as f:
        f.write(text + "\n")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("restore", "tcc", "torch", "table"):
        p = sub.add_parser(name)
        p.add_argument("folder", help="the device-check folder (with bench/ and bin/)")
        p.add_argument("work", help="scratch folder: artifacts, inputs, outputs")
        if name != "restore":
            p.add_argument("results", help="folder for the results' JSON and table.md")
        if name in ("tcc", "torch"):
            p.add_argument("--dry-run", action="store_true",
                           help="two runs each; torch on the CPU when there is no GPU")
            p.add_argument("--models", nargs="+", metavar="NAME",
                           help="only these models (default: all of bench.json's)")
        if name == "torch":
            p.add_argument("--part", choices=["eager", "micro", "compile"], required=True)
            p.add_argument("--budget", type=float, default=100,
                           help="--part compile: the seconds it may take (default 100; "
                                "at least %d); the models it cannot compile in time are "
                                "skipped, saying so" % (TIMING_RESERVE + 20))
    args = parser.parse_args()
    if getattr(args, "budget", TIMING_RESERVE + 20) < TIMING_RESERVE + 20:
        parser.error(f"--budget must be at least {TIMING_RESERVE + 20} s")
    for d in (args.work, getattr(args, "results", args.work)):
        os.makedirs(d, exist_ok=True)
    return {"restore": cmd_restore, "tcc": cmd_tcc, "torch": cmd_torch,
            "table": cmd_table}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
