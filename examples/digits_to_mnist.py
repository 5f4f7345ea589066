#!/usr/bin/env python3
"""Writes the 8x8 digits set (data/digits.csv.gz) as MNIST-format IDX files.

    digits_to_mnist.py OUT_DIR [--size 8|28] [--test-fraction 0.2] [--seed 0]

OUT_DIR receives train-images-idx3-ubyte, train-labels-idx1-ubyte,
t10k-images-idx3-ubyte and t10k-labels-idx1-ubyte, as MNIST ships them, so
any MNIST reader (tcc's data::datasets::MNIST, libtorch's, the programs of
pytorch/examples) trains on them offline. Pixels 0..16 become 0..255. With
--size 28 each image is resized bilinearly to 20x20 and centred in 28x28,
the way MNIST digits are framed. The train/test split is a permutation drawn
from a small LCG seeded with --seed, so it is the same on every machine and
Python version.
"""
import argparse
import csv
import gzip
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def permutation(n, seed):
    """Fisher-Yates driven by a 64-bit LCG (Knuth's MMIX constants)."""
    state = seed & (2**64 - 1)
    order = list(range(n))
    for i in range(n - 1, 0, -1):
        state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
        j = (state >> 33) % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def resize(pixels, size):
    """8x8 (0..255) -> size x size; for 28, a bilinear 20x20 centred."""
    if size == 8:
        return pixels
    inner, pad = 20, 4
    out = [0] * (size * size)
    for y in range(inner):
        fy = (y + 0.5) * 8 / inner - 0.5
        y0 = min(max(int(fy // 1), 0), 7)
        y1 = min(y0 + 1, 7)
        wy = min(max(fy - y0, 0.0), 1.0)
        for x in range(inner):
            fx = (x + 0.5) * 8 / inner - 0.5
            x0 = min(max(int(fx // 1), 0), 7)
            x1 = min(x0 + 1, 7)
            wx = min(max(fx - x0, 0.0), 1.0)
            top = pixels[y0 * 8 + x0] * (1 - wx) + pixels[y0 * 8 + x1] * wx
            bottom = pixels[y1 * 8 + x0] * (1 - wx) + pixels[y1 * 8 + x1] * wx
            out[(y + pad) * size + x + pad] = int(round(top * (1 - wy) + bottom * wy))
    return out


def write_idx(path, magic, dims, data):
    with open(path, "wb") as f:
        f.write(struct.pack(">I", magic))
        for d in dims:
            f.write(struct.pack(">I", d))
        f.write(bytes(data))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out_dir")
    parser.add_argument("--size", type=int, choices=(8, 28), default=8)
    parser.add_argument("--test-fraction", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--csv", default=os.path.join(HERE, "data", "digits.csv.gz"))
    args = parser.parse_args()

    with gzip.open(args.csv, "rt") as f:
        rows = [list(map(int, row)) for row in csv.reader(f) if row]
    for row in rows:
        if len(row) != 65 or not all(0 <= v <= 16 for v in row[:64]) or not 0 <= row[64] <= 9:
            raise SystemExit(f"{args.csv}: malformed row {row[:5]}...")
    order = permutation(len(rows), args.seed)
    n_test = int(round(len(rows) * args.test_fraction))
    splits = {"t10k": order[:n_test], "train": order[n_test:]}

    os.makedirs(args.out_dir, exist_ok=True)
    for name, indices in splits.items():
        images, labels = [], []
        for i in indices:
            pixels = [min(255, v * 16) if v < 16 else 255 for v in rows[i][:64]]
            images.extend(resize(pixels, args.size))
            labels.append(rows[i][64])
        write_idx(os.path.join(args.out_dir, f"{name}-images-idx3-ubyte"), 0x803,
                  (len(indices), args.size, args.size), images)
        write_idx(os.path.join(args.out_dir, f"{name}-labels-idx1-ubyte"), 0x801,
                  (len(indices),), labels)
    print(f"{args.out_dir}: {len(splits['train'])} train, {len(splits['t10k'])} test "
          f"images of {args.size}x{args.size}")


if __name__ == "__main__":
    main()
