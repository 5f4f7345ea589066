"""Seeded tensors that every machine regenerates bit for bit, with numpy
only: the GPU benchmark's weights and inputs (bench/torch_models.py), which
its artifacts therefore need not carry (bench/cuda/artifact_constants.py).

splitmix64 of (a hash of the tensor's name, the element's index), in numpy's
wrapping uint64 arithmetic, gives integers k; each value is k * 2^-e, which
float32 holds exactly, so no rounding mode, library or torch version can
change a bit. With the default 8 bits, |k| <= 255: exact in bf16 too, so a
bf16 model converts the weights without error.
"""
import hashlib
import math

import numpy as np

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def splitmix64(name, seed, count):
    """uint64 values 1..count of splitmix64 seeded from `seed` and `name`."""
    digest = hashlib.sha256(f"{seed}:{name}".encode()).digest()
    base = np.uint64(int.from_bytes(digest[:8], "little"))
    with np.errstate(over="ignore"):
        z = np.arange(1, count + 1, dtype=np.uint64) * _GOLDEN + base
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def seeded_uniform(name, shape, bound, seed=0, bits=8):
    """float32 values of `shape` spread evenly over about [-bound, bound]:
    k * 2^-e for integers |k| <= K, K = bound * 2^e of `bits` bits."""
    count = int(np.prod(shape, dtype=np.int64))
    e = bits - math.frexp(bound)[1]  # frexp: exact, bound = f * 2^x, 0.5 <= f < 1
    steps = min(int(round(bound * 2.0 ** e)), 2 ** bits - 1)
    k = (splitmix64(name, seed, count) % np.uint64(2 * steps + 1)).astype(np.int64) - steps
    return (k.astype(np.float32) * np.float32(2.0 ** -e)).reshape(shape)
