#!/usr/bin/python3
"""Prepares the GPU benchmark of the device check (issue 16) on the build
machine: exports bench/torch_models.py's models to ONNX with their seeded
weights, compiles each with `tcc compile --target cuda` in the three
precisions the table compares (strict fp32, --allow-tf32, --precision
bf16), and writes them without their weights (artifact_constants.strip),
with bench/cuda/chain.mlir, the elementwise chain. The GPU machine rebuilds
the artifacts bit for bit (device_bench.py restore).

usage: prepare.py --tcc BUILD/bin/tcc OUT_DIR [--gpu sm_80,sm_90]
                  [--models NAME ...]

OUT_DIR gets bench.json (what was compiled, how) and, per model and
precision, NAME/PRECISION.tccz and .tccz.json; chain/fp32.tccz likewise.
Run with Debian's /usr/bin/python3 (torch 1.13, torchvision, numpy).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import artifact_constants  # noqa: E402
import torch_models  # noqa: E402

# precision: tcc compile's flags (the torch settings are device_bench's).
PRECISIONS = {"fp32": [], "tf32": ["--allow-tf32"], "bf16": ["--precision", "bf16"]}
# The most literal bytes one artifact may carry: what no seeded tensor
# explains (folded small constants, padding). More means the weights did
# not survive compilation as stored, and the folder would not hold them.
MAX_PATCH_BYTES = 1 << 20


def compile_one(tcc, source, out, flags, gpu):
    cmd = [tcc, "compile", source, "-o", out, "--target", "cuda", "--gpu", gpu,
           "--no-progress", *flags]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stderr.strip()}")
    info = subprocess.run([tcc, "inspect", "--json", out], capture_output=True, text=True,
                          check=True)
    return json.loads(info.stdout)


def pack(tcc, source, directory, precision, gpu, sources):
    with tempfile.TemporaryDirectory() as tmp:
        artifact = os.path.join(tmp, "model.bin")
        start = time.time()
        info = compile_one(tcc, source, artifact, PRECISIONS[precision], gpu)
        seconds = time.time() - start
        packed = os.path.join(directory, precision + ".tccz")
        summary = artifact_constants.strip(artifact, info, sources, packed)
    if summary["patches"] > MAX_PATCH_BYTES:
        raise RuntimeError(
            f"{packed}: {summary['patches']} bytes of the constants are not seeded weights as "
            f"stored (at most {MAX_PATCH_BYTES}): the compiler transformed them in a way "
            "artifact_constants does not know")
    steps = {}
    for k in info["kernels"]:
        steps[k["op"]] = steps.get(k["op"], 0) + 1
    return {"artifact_bytes": info["file_bytes"], "constant_bytes": info["constant_bytes"],
            "packed_bytes": os.path.getsize(packed) + os.path.getsize(packed + ".json"),
            "patch_bytes": summary["patches"], "compile_s": round(seconds, 2),
            "inputs": info["inputs"], "outputs": info["outputs"], "steps": steps}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tcc", required=True, help="the tcc binary")
    parser.add_argument("--gpu", default="sm_80,sm_90", help="tcc compile --gpu")
    parser.add_argument("--models", nargs="*", default=list(torch_models.MODELS),
                        metavar="NAME", help="default: all of " + ", ".join(torch_models.MODELS))
    parser.add_argument("out", help="the folder to fill (created)")
    args = parser.parse_args()
    for name in args.models:
        if name not in torch_models.MODELS:
            parser.error(f"unknown model '{name}' (known: {', '.join(torch_models.MODELS)})")
    import torch  # after argument errors, which need no torch

    os.makedirs(args.out, exist_ok=True)
    manifest = {"gpu": args.gpu, "seed": 0, "precisions": list(PRECISIONS), "models": {}}
    for name in args.models:
        model, x = torch_models.build(name)
        sources = torch_models.seeded_state(model)
        directory = os.path.join(args.out, name)
        os.makedirs(directory, exist_ok=True)
        entry = {"input_shape": list(x.shape), "precisions": {}}
        with tempfile.TemporaryDirectory() as tmp:
            onnx = os.path.join(tmp, "model.onnx")
            torch.onnx.export(model, (torch.from_numpy(x),), onnx, opset_version=17,
                              input_names=["input"], output_names=["output"])
            for precision in PRECISIONS:
                entry["precisions"][precision] = pack(args.tcc, onnx, directory, precision,
                                                      args.gpu, sources)
                p = entry["precisions"][precision]
                print(f"   {name} {precision}: {p['artifact_bytes'] >> 10} KiB compiled "
                      f"({p['compile_s']} s), {p['packed_bytes'] >> 10} KiB carried", flush=True)
        manifest["models"][name] = entry
    chain_dir = os.path.join(args.out, "chain")
    os.makedirs(chain_dir, exist_ok=True)
    manifest["chain"] = pack(args.tcc, os.path.join(HERE, "chain.mlir"), chain_dir, "fp32",
                             args.gpu, {})
    with open(os.path.join(args.out, "bench.json"), "w") as f:
        json.dump(manifest, f, indent=1)


if __name__ == "__main__":
    try:
        main()
    except (RuntimeError, ValueError, OSError) as e:
        sys.exit(f"error: {e}")
