#!/usr/bin/env python3
"""int8 against fp32 (issue 17's table), in one run:

- speed: tcc int8 (`tcc quantize`, min/max calibration on random inputs)
  against tcc fp32, both `tcc compile -O2`, at 1 and 2 threads, for
  ResNet-18 (224x224), the MLP 784-4096-4096-10 at batch 64, the
  transformer encoder layer and the digits CNN; ResNet-18's and the
  others' relative L2 output error against fp32 (random weights, no
  labels);
- accuracy: the trained digits CNN (digits_deploy train, 15 epochs)
  quantized with its training images as calibration data: test accuracy
  and latency of fp32 and int8;
- peer: ONNX Runtime's quantize_static (QDQ, per-channel s8 weights, u8
  activations, min/max) on the same trained digits CNN exported by Debian's
  PyTorch, calibrated on the same training images, run by ORT at batch 1.

Timing as bench/onnx/onnx_vs_ort.py: one process, artifacts loaded
through libtcc_runtime (tcc_runtime.py), alternating runs, medians; ORT's
spinning threads off.

usage: build/python-env/bin/python3 bench/int8/int8_vs_fp32_and_ort.py
           --build build [--work DIR] [--threads 1,2] [--runs 50]
           [--models resnet18,mlp_b64,encoder_layer,digits_cnn]
Needs onnxruntime (scripts/python-requirements.txt) and Debian's
/usr/bin/python3 with python3-torch (for the exports).
"""
import argparse
import os
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnxruntime as ort
from onnxruntime import quantization as ortq

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(HERE, "..", "onnx"))
import tcc_runtime  # noqa: E402

# Calibration batches per model (random inputs, as the exports' own).
CALIBRATION_BATCHES = {"resnet18": 4, "mlp_b64": 2, "encoder_layer": 4, "digits_cnn": 32}


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def median_ms(times):
    return float(np.median(np.asarray(times))) * 1e3


def time_alternating(fns, runs, warmup):
    """Runs each fn in turn (rotating who goes first); per-fn medians in ms."""
    for _ in range(warmup):
        for f in fns:
            f()
    times = [[] for _ in fns]
    for i in range(runs):
        order = list(range(len(fns)))
        order = order[i % len(fns):] + order[:i % len(fns)]
        for k in order:
            t = time.perf_counter()
            fns[k]()
            times[k].append(time.perf_counter() - t)
    return [median_ms(t) for t in times]


def read_idx(path):
    with open(path, "rb") as f:
        data = f.read()
    rank = data[3]
    dims = struct.unpack(">" + "I" * rank, data[4:4 + 4 * rank])
    return np.frombuffer(data[4 + 4 * rank:], dtype=np.uint8).reshape(dims)


def relative_error(got, expected):
    return float(np.linalg.norm(got.astype(np.float64) - expected) / np.linalg.norm(expected))


def speed(args, runtime, tcc, work):
    names = args.models.split(",")
    onnx_dir = os.path.join(work, "onnx")
    # Its progress goes to stderr, so the tables on stdout stay whole.
    run(["/usr/bin/python3", os.path.join(HERE, "..", "onnx", "export_models.py"), onnx_dir] + names,
        stdout=sys.stderr)
    rng = np.random.default_rng(1)
    rows = []
    for name in names:
        d = os.path.join(onnx_dir, name)
        x = np.load(os.path.join(d, "input_0.npy"))
        ir, ir8 = os.path.join(d, "model.ir"), os.path.join(d, "model.int8.ir")
        run([tcc, "import", os.path.join(d, "model.onnx"), "-o", ir])
        cal, ev = os.path.join(d, "cal"), os.path.join(d, "eval")
        os.makedirs(cal, exist_ok=True)
        os.makedirs(ev, exist_ok=True)
        count = CALIBRATION_BATCHES.get(name, 4)
        np.save(os.path.join(cal, "input.npy"),
                rng.random((count * x.shape[0],) + x.shape[1:], dtype=np.float32))
        np.save(os.path.join(ev, "input.npy"), x)
        run([tcc, "quantize", ir, "--calibrate", cal, "--eval-data", ev, "-o", ir8,
             "--report", os.path.join(d, "report.json")], stdout=subprocess.DEVNULL)
        bins = []
        for source, suffix in ((ir, ""), (ir8, ".int8")):
            out = os.path.join(d, f"model{suffix}.bin")
            run([tcc, "compile", source, "-o", out, "--no-progress"])
            bins.append(out)
        for threads in args.threads:
            fp32 = tcc_runtime.Model(runtime, bins[0], threads)
            int8 = tcc_runtime.Model(runtime, bins[1], threads)
            for m in (fp32, int8):
                m.bind([x])
                m.run()
            err = relative_error(int8.output(0), fp32.output(0))
            t32, t8 = time_alternating([fp32.run, int8.run], args.runs, args.warmup)
            rows.append((name, threads, t32, t8, t32 / t8, err))
            print(f"| {name} | {threads} | {t32:.3f} | {t8:.3f} | {t32 / t8:.2f} | {err:.2e} |",
                  flush=True)
            fp32.close()
            int8.close()
    return rows


def digits(args, runtime, tcc, work):
    build = args.build
    w = os.path.join(work, "digits")
    os.makedirs(w, exist_ok=True)
    data = os.path.join(build, "examples", "digits")
    run([os.path.join(build, "bin", "digits_deploy"), "train", "--data", data, "--work", w,
         "--epochs", "15"], stdout=subprocess.DEVNULL)
    train_images = os.path.join(data, "train-images-idx3-ubyte")
    ir, ir8 = os.path.join(w, "model.ir"), os.path.join(w, "model.int8.ir")
    run([tcc, "quantize", ir, "--calibrate", train_images, "--normalize", "0.5,0.5", "-o", ir8],
        stdout=subprocess.DEVNULL)
    tcc_bins = {}
    for label, source in (("tcc fp32", ir), ("tcc int8", ir8)):
        tcc_bins[label] = os.path.join(w, label.replace(" ", "_") + ".bin")
        run([tcc, "compile", source, "-o", tcc_bins[label], "--no-progress"])

    # ONNX Runtime: the same trained weights, quantize_static on the same images.
    onnx32, onnx8 = os.path.join(w, "digits.onnx"), os.path.join(w, "digits.int8.onnx")
    run(["/usr/bin/python3", os.path.join(HERE, "export_trained_digits.py"), w, onnx32])
    calibration = ((read_idx(train_images).astype(np.float32) / 255 - 0.5) / 0.5)[:, None]

    class Reader(ortq.CalibrationDataReader):
        def __init__(self):
            self.items = iter(calibration[i:i + 1] for i in range(len(calibration)))

        def get_next(self):
            item = next(self.items, None)
            return None if item is None else {"input": item}

    ortq.quantize_static(onnx32, onnx8, Reader(), quant_format=ortq.QuantFormat.QDQ,
                         per_channel=True, activation_type=ortq.QuantType.QUInt8,
                         weight_type=ortq.QuantType.QInt8,
                         calibrate_method=ortq.CalibrationMethod.MinMax)

    x = np.load(os.path.join(w, "x_test.npy")).astype(np.float32)
    y = np.load(os.path.join(w, "y_test.npy")).astype(np.int64)
    rows = []
    for threads in args.threads:
        runners = {}
        models = []
        for label, path in tcc_bins.items():
            m = tcc_runtime.Model(runtime, path, threads)
            models.append(m)

            def infer(image, m=m):
                m.bind([image])
                m.run()
                return m.output(0)
            runners[label] = infer
        for label, path in (("ORT fp32", onnx32), ("ORT int8 (QDQ)", onnx8)):
            so = ort.SessionOptions()
            so.intra_op_num_threads = threads
            so.inter_op_num_threads = 1
            so.add_session_config_entry("session.intra_op.allow_spinning", "0")
            so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
            session = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
            runners[label] = lambda image, s=session: s.run(None, {"input": image})[0]
        labels = list(runners)
        correct = {k: 0 for k in labels}
        for i in range(len(x)):
            for k in labels:
                correct[k] += int(np.argmax(runners[k](x[i:i + 1])) == y[i])
        passes = {k: [] for k in labels}
        for r in range(args.passes):
            order = labels[r % len(labels):] + labels[:r % len(labels)]
            for k in order:
                t = time.perf_counter()
                for i in range(len(x)):
                    runners[k](x[i:i + 1])
                passes[k].append((time.perf_counter() - t) / len(x))
        for k in labels:
            us = float(np.median(passes[k])) * 1e6
            wrong = len(x) - correct[k]
            rows.append((k, threads, correct[k] / len(x), wrong, us))
            print(f"| {k} | {threads} | {correct[k] / len(x):.4f} | {wrong} of {len(x)} | {us:.1f} |",
                  flush=True)
        for m in models:
            m.close()
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--work", help="keep the exports and artifacts here (default: a temporary folder)")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--passes", type=int, default=5, help="timed passes over the digits test set")
    parser.add_argument("--models", default="resnet18,mlp_b64,encoder_layer,digits_cnn")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--skip-digits", action="store_true")
    args = parser.parse_args()
    args.threads = [int(t) for t in args.threads.split(",")]
    tcc = os.path.join(args.build, "bin", "tcc")
    runtime = tcc_runtime.Runtime(os.path.join(args.build, "lib", "libtcc_runtime.so"))
    host = subprocess.run([tcc, "host"], check=True, capture_output=True, text=True).stdout
    model_name = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                       if l.startswith("model name")), "unknown")
    print(f"CPU: {model_name}")
    print(host.strip())
    print(f"onnxruntime {ort.__version__}")
    with tempfile.TemporaryDirectory() as tmp:
        work = args.work or tmp
        os.makedirs(work, exist_ok=True)
        if not args.skip_speed:
            print(f"\nint8 vs fp32 (tcc compile -O2; median of {args.runs} alternating runs)\n")
            print("| model | threads | fp32 ms | int8 ms | fp32 / int8 | int8 rel. L2 error |")
            print("|---|---|---|---|---|---|")
            speed(args, runtime, tcc, work)
        if not args.skip_digits:
            print(f"\ndigits CNN (trained, 359 test images, batch 1; latency: median of "
                  f"{args.passes} passes)\n")
            print("| model | threads | accuracy | misclassified | latency/image us |")
            print("|---|---|---|---|---|")
            digits(args, runtime, tcc, work)


if __name__ == "__main__":
    main()
