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
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

# Models in the order they are measured: the targets first, so
# that a stage stopped by its timeout has measured those.
ORDER = ["encoder_layer", "resnet18_b1", "resnet18_b32", "mlp_b64", "mlp_b1", "digits_cnn"]
PRECISIONS = ["fp32", "tf32", "bf16"]
GEMM_MODELS = ["mlp_b64", "encoder_layer"]  # the GEMM target
TARGET_MODELS = ["resnet18_b1", "resnet18_b32", "encoder_layer"]  # its latency target
SECONDS_PER_MEASUREMENT = 0.25


def load_manifest(folder):
    with open(os.path.join(folder, "bench", "bench.json")) as f:
        return json.load(f)


def ordered(manifest, only=None):
    names = [m for m in ORDER if m in manifest["models"]] + \
        [m for m in manifest["models"] if m not in ORDER]
    return [m for m in names if not only or m in only]


def save(path, results):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(results, f, indent=1)
    os.replace(tmp, path)


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def iterations_for(seconds_per_run, dry_run, lo=5, hi=300):
    if dry_run:
        return 2
    return max(lo, min(hi, int(SECONDS_PER_MEASUREMENT / max(seconds_per_run, 1e-6))))


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


# --- torch -----------------------------------------------------------------

class Torch:
    """torch on the GPU, or on the CPU for --dry-run without one."""

    def __init__(self, dry_run):
        import torch
        self.torch = torch
        self.cuda = torch.cuda.is_available()
        if not self.cuda and not dry_run:
            raise SystemExit("error: torch sees no GPU (torch.cuda.is_available() is False)")
        self.device = "cuda" if self.cuda else "cpu"
        self.dry_run = dry_run

    def precision(self, name):
        """Sets torch's TF32 switches for `name`; returns its autocast context."""
        torch = self.torch
        tf32 = name == "tf32"
        torch.backends.cuda.matmul.allow_tf32 = tf32
        torch.backends.cudnn.allow_tf32 = tf32
        if name == "bf16":
            return torch.autocast(self.device, dtype=torch.bfloat16)
        return torch.autocast(self.device, enabled=False)

    def sync(self):
        if self.cuda:
            self.torch.cuda.synchronize()

    def end_to_end(self, fn, x, output):
        """Median ms of host input -> model -> host output, both in ordinary
        (pageable) memory, as tcc's runtime takes them; `output` is the
        model's output's (shape, dtype)."""
        torch = self.torch
        host_in = torch.from_numpy(x)
        host_out = torch.empty(output[0], dtype=output[1])

        def once():
            y = fn(host_in.to(self.device))
            host_out.copy_(y)
            self.sync()

        start = time.perf_counter()
        for _ in range(3):
            once()
        n = iterations_for((time.perf_counter() - start) / 3, self.dry_run)
        times = []
        for _ in range(n):
            t0 = time.perf_counter()
            once()
            times.append((time.perf_counter() - t0) * 1e3)
        return statistics.median(times), n

    def device_time(self, fn, *operands, iterations=None):
        """Median ms of fn(*operands) on the device (CUDA events)."""
        torch = self.torch
        for _ in range(3):
            fn(*operands)
        self.sync()
        if not self.cuda:  # dry run: the host's clock
            t0 = time.perf_counter()
            fn(*operands)
            return (time.perf_counter() - t0) * 1e3
        start = time.perf_counter()
        fn(*operands)
        self.sync()
        n = iterations or iterations_for(time.perf_counter() - start, False)
        events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
                  for _ in range(n)]
        for begin, end in events:
            begin.record()
            fn(*operands)
            end.record()
        self.sync()
        return statistics.median(b.elapsed_time(e) for b, e in events)


def build_models(args, t, manifest):
    import torch_models
    models = {}
    for name in ordered(manifest, args.models):
        model, x = torch_models.build(name)  # x: the input.npy tcc runs on
        models[name] = (model.to(t.device), x)
        os.makedirs(os.path.join(args.work, name), exist_ok=True)
    return models


def warm_up(args, t, fn, name, x, precision, part, record, compiled):
    """The first calls (for torch.compile: compiling, recording the CUDA
    graph); saves the output for table.py's numerics. Returns the input on
    the device and the output's (shape, dtype)."""
    import numpy as np
    torch = t.torch
    with torch.inference_mode(), t.precision(precision):
        xd = torch.from_numpy(x).to(t.device)
        start = time.time()
        for _ in range(3):
            y = fn(xd)
        t.sync()
        if compiled:
            record["compile_s"] = round(time.time() - start, 1)
        np.save(os.path.join(args.work, name, f"torch-{part}-{precision}.npy"),
                y.float().cpu().numpy())
    # Only the output's shape and dtype are kept: CUDA graphs reuse its memory.
    return xd, (tuple(y.shape), y.dtype)


def time_model(t, fn, x, xd, y, precision, record):
    torch = t.torch
    with torch.inference_mode(), t.precision(precision):
        record["p50_ms"], record["iterations"] = t.end_to_end(fn, x, y)
        record["device_ms"] = t.device_time(fn, xd)


def describe_error(e):
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0] if text else ''}"


def measure_eager(args, t):
    manifest = load_manifest(args.folder)
    path = os.path.join(args.results, "torch-eager.json")
    results = {"torch": t.torch.__version__, "device": t.device, "models": {}}
    if t.cuda:
        results["gpu"] = t.torch.cuda.get_device_name()
    models = build_models(args, t, manifest)
    failed = 0
    for precision in PRECISIONS:
        for name in ordered(manifest, args.models):
            model, x = models[name]
            record = results["models"].setdefault(name, {}).setdefault(precision, {})
            try:
                xd, y = warm_up(args, t, model, name, x, precision, "eager", record, False)
                time_model(t, model, x, xd, y, precision, record)
                print(f"   {name} {precision}: p50 {record['p50_ms']:.4f} ms, device "
                      f"{record['device_ms']:.4f} ms", flush=True)
            except Exception as e:  # noqa: BLE001 (any failure of torch is this model's)
                record["error"] = describe_error(e)
                print(f"  error: {name} {precision}: {record['error']}", flush=True)
                failed += 1
            save(path, results)
    return 1 if failed else 0


# torch.compile takes seconds to a minute per model and precision, almost
# all of it on the CPU: one process per precision compiles its models at
# the same time as the others (phase 1), then the processes take turns on
# the GPU to time them (phase 2), so that no compile runs beside a
# measurement. The parent saves what they report. The part ends within
# --budget seconds: compiles start until TIMING_RESERVE + 10 s before it,
# one still running TIMING_RESERVE s before it is interrupted (SIGUSR1),
# and phase 2 has the rest.
TIMING_RESERVE = 25


class BudgetSpent(Exception):
    pass


def _stop_compiling(signum, frame):
    raise BudgetSpent("stopped: the time for compiling was spent")


def compile_worker(args, index, precision, ready, turn, done, queue):
    import signal
    os.environ.setdefault("TORCHINDUCTOR_COMPILE_THREADS",
                          str(max(1, (os.cpu_count() or 3) // len(PRECISIONS))))
    signal.signal(signal.SIGUSR1, _stop_compiling)
    compile_until = args.start + args.budget - TIMING_RESERVE - 10
    compiled = []
    try:
        t = Torch(args.dry_run)
        torch = t.torch
        manifest = load_manifest(args.folder)
        models = build_models(args, t, manifest)
        for name in ordered(manifest, args.models):
            model, x = models[name]
            record = {}
            try:
                if time.time() > compile_until:
                    raise BudgetSpent("skipped: the time for compiling was spent")
                if hasattr(torch, "compile"):
                    fn = torch.compile(model, mode="reduce-overhead", dynamic=False)
                else:  # dry run on torch 1.x: eager, to check the harness
                    fn = model
                    record["note"] = f"torch {torch.__version__} has no torch.compile"
                xd, y = warm_up(args, t, fn, name, x, precision, "compile", record, True)
                compiled.append((name, fn, x, xd, y, record))
                queue.put(("compiled", name, precision, record.get("compile_s")))
                continue
            except BudgetSpent as e:
                record["error"] = str(e)
            except Exception as e:  # noqa: BLE001
                record["error"] = describe_error(e)
            queue.put(("record", name, precision, record))
    except BudgetSpent:
        pass
    finally:
        signal.signal(signal.SIGUSR1, signal.SIG_IGN)
        ready.set()
    turn.wait()
    for name, fn, x, xd, y, record in compiled:
        try:
            time_model(t, fn, x, xd, y, precision, record)
        except Exception as e:  # noqa: BLE001
            record["error"] = describe_error(e)
        if "note" in record:  # not torch.compile: timed for the harness only
            record = {"error": record["note"], "dry_run_eager_ms": record.get("p50_ms")}
        queue.put(("record", name, precision, record))
    done.set()  # the next may start while this process shuts inductor down


def measure_compiled(args, t):
    import multiprocessing
    import queue as queues
    import signal
    torch = t.torch
    path = os.path.join(args.results, "torch-compile.json")
    results = {"torch": torch.__version__, "device": t.device, "models": {},
               "mode": "reduce-overhead", "budget_s": args.budget}
    if t.cuda:
        results["gpu"] = torch.cuda.get_device_name()
    if not hasattr(torch, "compile"):
        results["unavailable"] = f"torch {torch.__version__} has no torch.compile"
        print(f"   n/a: {results['unavailable']}" +
              (" (the dry run times eager in its place, to check the harness)"
               if args.dry_run else ""), flush=True)
        if not args.dry_run:
            save(path, results)
            return 1
    save(path, results)
    args.start = time.time()
    context = multiprocessing.get_context("spawn")
    messages = context.Queue()
    workers = []
    for index, precision in enumerate(PRECISIONS):
        ready, turn, done = context.Event(), context.Event(), context.Event()
        # Not daemonic: inductor starts processes of its own.
        process = context.Process(target=compile_worker,
                                  args=(args, index, precision, ready, turn, done, messages))
        process.start()
        workers.append((precision, process, ready, turn, done))
    failed = 0

    def drain(wait):
        nonlocal failed
        try:
            kind, name, precision, payload = messages.get(timeout=wait)
        except queues.Empty:
            return
        if kind == "compiled":
            print(f"   {name} {precision}: compiled in {payload} s", flush=True)
            return
        results["models"].setdefault(name, {})[precision] = payload
        if "p50_ms" in payload:
            print(f"   {name} {precision}: p50 {payload['p50_ms']:.4f} ms, device "
                  f"{payload['device_ms']:.4f} ms", flush=True)
        else:
            failed += "dry_run_eager_ms" not in payload
            print(f"  {'n/a' if 'dry_run_eager_ms' in payload else 'error'}: {name} "
                  f"{precision}: {payload.get('error')}", flush=True)
        save(path, results)

    # Phase 1: all compile; a worker that died counts as ready.
    interrupt_at = args.start + args.budget - TIMING_RESERVE
    interrupted = False
    while not all(r.is_set() or not p.is_alive() for _, p, r, _, _ in workers):
        drain(0.2)
        if time.time() > interrupt_at and not interrupted:
            for precision, process, ready, _, _ in workers:
                if not ready.is_set() and process.is_alive():
                    print(f"   the {precision} compiles are out of time: interrupted", flush=True)
                    os.kill(process.pid, signal.SIGUSR1)
            interrupted = True
        if time.time() > interrupt_at + 8:
            for precision, process, ready, _, _ in workers:
                if not ready.is_set():
                    print(f"  error: the {precision} worker did not stop compiling; ended",
                          flush=True)
                    process.terminate()
            break
    # Phase 2: one at a time on the GPU.
    for precision, process, ready, turn, done in workers:
        turn.set()
        while process.is_alive() and not done.is_set():
            drain(0.2)
    for precision, process, ready, turn, done in workers:
        process.join(10)
        if process.is_alive():
            process.terminate()
        elif process.exitcode:
            print(f"  error: the {precision} worker exited with {process.exitcode}", flush=True)
            failed += 1
    while not messages.empty():
        drain(0.1)
    return 1 if failed else 0


def measure_micro(args, t):
    """torch.matmul on the shapes of tcc's GEMM steps, and a device copy."""
    torch = t.torch
    path = os.path.join(args.results, "torch-micro.json")
    results = {"torch": torch.__version__, "device": t.device, "gemms": [], "copy": {}}
    tcc = load(os.path.join(args.results, "tcc.json")).get("models", {})
    seen = set()
    failed = 0
    for name in GEMM_MODELS:
        for precision in PRECISIONS:
            for g in tcc.get(name, {}).get(precision, {}).get("gemms", []):
                key = (precision, g["m"], g["n"], g["k"], g["batch"], g["trans_a"], g["trans_b"])
                if key in seen:
                    continue
                seen.add(key)
                record = {"precision": precision, "m": g["m"], "n": g["n"], "k": g["k"],
                          "batch": g["batch"], "trans_a": g["trans_a"], "trans_b": g["trans_b"]}
                try:
                    t.precision(precision)
                    dtype = torch.bfloat16 if precision == "bf16" else torch.float32
                    batch = (g["batch"],) if g["batch"] > 1 else ()

                    def operand(rows, cols, transposed):
                        shape = batch + ((cols, rows) if transposed else (rows, cols))
                        o = torch.rand(shape, device=t.device, dtype=dtype)
                        return o.transpose(-1, -2) if transposed else o

                    a = operand(g["m"], g["k"], g["trans_a"])
                    b = operand(g["k"], g["n"], g["trans_b"])
                    ms = t.device_time(torch.matmul, a, b, iterations=None if t.cuda else 1)
                    record.update({"ms": ms, "tflops": 2 * g["m"] * g["n"] * g["k"] * g["batch"]
                                   / (ms * 1e9)})
                except Exception as e:  # noqa: BLE001
                    record["error"] = f"{type(e).__name__}: {e}"
                    failed += 1
                results["gemms"].append(record)
                save(path, results)
    try:
        t.precision("fp32")
        elements = 4096 * 8192 if not args.dry_run else 1 << 20
        src = torch.rand(elements, device=t.device)
        dst = torch.empty_like(src)
        ms = t.device_time(dst.copy_, src)
        results["copy"] = {"bytes": 2 * src.numel() * 4, "ms": ms,
                           "gbps": 2 * src.numel() * 4 / (ms * 1e6)}
        print(f"   device copy: {results['copy']['gbps']:.1f} GB/s", flush=True)
    except Exception as e:  # noqa: BLE001
        results["copy"] = {"error": f"{type(e).__name__}: {e}"}
        failed += 1
    save(path, results)
    print(f"   {len(results['gemms'])} GEMM shapes timed", flush=True)
    return 1 if failed else 0


def cmd_torch(args):
    t = Torch(args.dry_run)
    if args.part == "micro":
        return measure_micro(args, t)
    if args.part == "eager":
        return measure_eager(args, t)
    return measure_compiled(args, t)


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
