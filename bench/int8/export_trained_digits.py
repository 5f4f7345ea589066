#!/usr/bin/python3
"""Exports the digits CNN that `digits_deploy train` trained (its
model.safetensors) to ONNX, opset 17, batch 1, for ONNX Runtime's
quantize_static. Run with Debian's python3 (python3-torch 1.13), which has
no safetensors package: the file is read here (8-byte header length, JSON
header, raw little-endian tensors).

usage: /usr/bin/python3 bench/int8/export_trained_digits.py WORK OUT.onnx
"""
import json
import os
import struct
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "onnx"))
from export_models import DigitsCnn  # noqa: E402

_DTYPES = {"F32": np.float32}


def read_safetensors(path):
    with open(path, "rb") as f:
        (length,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(length))
        data = f.read()
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        begin, end = info["data_offsets"]
        array = np.frombuffer(data[begin:end], dtype=_DTYPES[info["dtype"]])
        tensors[name] = torch.from_numpy(array.reshape(info["shape"]).copy())
    return tensors


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    work, out = sys.argv[1], sys.argv[2]
    model = DigitsCnn().eval()
    model.load_state_dict(read_safetensors(os.path.join(work, "model.safetensors")))
    torch.onnx.export(model, (torch.zeros(1, 1, 8, 8),), out, opset_version=17,
                      input_names=["input"], output_names=["output"])


if __name__ == "__main__":
    main()
