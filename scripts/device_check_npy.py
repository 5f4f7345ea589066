#!/usr/bin/env python3
"""The .npy side of scripts/device-check*.sh, with the standard library only
(neither machine is sure to have numpy).

  device_check_npy.py inputs MODEL_JSON OUT_DIR SEED
      writes one seeded random .npy per input of the model (`tcc inspect
      --json`'s "inputs"): floats in [-1, 1), integers in [0, 4), bools.
  device_check_npy.py compare EXPECTED.npy ACTUAL.npy
      prints the largest error and exits 1 when an element differs by more
      than atol + rtol * |expected| (by dtype: f32 1e-5 + 1e-4, f16 and bf16
      1e-2 + 1e-2, integers and bools exactly), or the dtype or shape differ.
"""
import json
import math
import os
import random
import struct
import sys

# npy descr <-> tcc dtype, struct format, element size.
DTYPES = {
    "f32": ("<f4", "f", 4), "f64": ("<f8", "d", 8), "f16": ("<f2", "e", 2),
    "bf16": ("<V2", None, 2),  # tcc writes bf16 as 2-byte void elements
    "i64": ("<i8", "q", 8), "i32": ("<i4", "i", 4), "i8": ("|i1", "b", 1),
    "u8": ("|u1", "B", 1), "bool": ("|b1", "?", 1),
}
TOLERANCE = {"f32": (1e-5, 1e-4), "f64": (1e-5, 1e-4), "f16": (1e-2, 1e-2),
             "bf16": (1e-2, 1e-2)}


def write_npy(path, dtype, shape, values):
    descr, fmt, _ = DTYPES[dtype]
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join("%d, " % d for d in shape) if len(shape) != 1
        else "%d," % shape[0])
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))


def read_npy(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != b"\x93NUMPY":
        raise ValueError("%s: not a .npy file" % path)
    major = data[6]
    size_bytes = 2 if major == 1 else 4
    (hlen,) = struct.unpack("<H" if major == 1 else "<I",
                            data[8:8 + size_bytes])
    start = 8 + size_bytes
    header = eval(data[start:start + hlen].decode("latin1"))  # numpy's own format
    body = data[start + hlen:]
    descr = header["descr"]
    shape = tuple(header["shape"])
    count = 1
    for d in shape:
        count *= d
    for name, (d, fmt, size) in DTYPES.items():
        if d == descr or (descr in ("<V2", "|V2") and name == "bf16"):
            if fmt is None:  # bf16: the high half of an f32
                halves = struct.unpack("<%dH" % count, body[:2 * count])
                values = [struct.unpack("<f", struct.pack("<I", h << 16))[0]
                          for h in halves]
            else:
                values = list(struct.unpack("<%d%s" % (count, fmt),
                                            body[:size * count]))
            return name, shape, values
    raise ValueError("%s: dtype %s not handled" % (path, descr))


def make_inputs(model_json, out_dir, seed):
    with open(model_json) as f:
        model = json.load(f)
    rng = random.Random(int(seed))
    for i, spec in enumerate(model["inputs"]):
        count = 1
        for d in spec["shape"]:
            count *= d
        dtype = spec["dtype"]
        if dtype in ("f32", "f64", "f16"):
            values = [rng.uniform(-1, 1) for _ in range(count)]
        elif dtype == "bool":
            values = [rng.random() < 0.5 for _ in range(count)]
        elif dtype == "bf16":
            raise SystemExit("bf16 inputs are not generated")
        else:
            values = [rng.randrange(0, 4) for _ in range(count)]
        write_npy(os.path.join(out_dir, "input%d.npy" % i), dtype,
                  spec["shape"], values)
    return 0


def compare(expected_path, actual_path):
    dtype, shape, expected = read_npy(expected_path)
    adtype, ashape, actual = read_npy(actual_path)
    if (dtype, shape) != (adtype, ashape):
        print("dtype/shape %s%s, expected %s%s" % (adtype, list(ashape), dtype,
                                                   list(shape)))
        return 1
    atol, rtol = TOLERANCE.get(dtype, (0, 0))
    worst, where, bad = 0.0, 0, 0
    for i, (e, a) in enumerate(zip(expected, actual)):
        e, a = float(e), float(a)
        if math.isnan(e) and math.isnan(a):
            continue
        err = abs(a - e) if not (math.isnan(a) or math.isnan(e)) else math.inf
        if err > atol + rtol * abs(e):
            bad += 1
        if err > worst:
            worst, where = err, i
    print("%s%s max |error| %.3g at %d%s" % (
        dtype, list(shape), worst, where,
        ", %d elements beyond %g + %g|x|" % (bad, atol, rtol) if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "inputs":
        sys.exit(make_inputs(*sys.argv[2:]))
    if len(sys.argv) == 4 and sys.argv[1] == "compare":
        sys.exit(compare(*sys.argv[2:]))
    sys.exit(__doc__)
