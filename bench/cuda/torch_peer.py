"""The PyTorch side of the GPU benchmark (device_bench.py torch): the
models of bench/torch_models.py eager and under torch.compile at the
precisions tcc is compiled for, torch.matmul on the shapes of tcc's GEMM
steps, and a device-to-device copy; each result saved as it comes."""
import os
import statistics
import time

from common import (GEMM_MODELS, PRECISIONS, describe_error, iterations_for, load,
                    load_manifest, ordered, save)


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
