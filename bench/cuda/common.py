"""What the GPU benchmark's stages share (bench/cuda/device_bench.py,
torch_peer.py, table.py): the models' order, the precisions, the targets'
models, the folder's manifest, results saved as JSON after every
measurement."""
import json
import os

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


def describe_error(e):
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0] if text else ''}"
