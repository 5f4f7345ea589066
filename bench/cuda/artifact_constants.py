"""Carries a compiled artifact without its large constants, and rebuilds it
bit for bit where the seeded weights can be regenerated (the GPU check,
issue 16: its folder holds at most 40 MiB, the benchmark's fp32 MLP alone
has 80 MB of weights).

The artifact format has no external constants: they are one segment of the
file (runtime/schema/artifact.fbs: after the header, padded to 64 bytes,
before the code). `strip` cuts that segment out and describes it as
*pieces*, each a byte range of a regenerable source tensor in some layout
and precision (`tcc compile` keeps weights as stored, transposes or slices
them, or rounds them to bf16/fp16), plus literal *patches* for whatever no
source explains (small folded constants, padding). `restore` regenerates
the sources, lays the pieces out, applies the patches, splices the segment
back and checks the whole file's SHA-256 against the original's, so a
restored artifact is the compiled one or an error.

Needs numpy; the sources come from bench/torch_models.py's seeded_state.
"""
import hashlib
import json
import lzma
import os

import numpy as np

_TRANSPOSES = {2: [(1, 0)], 4: [(0, 2, 3, 1), (2, 3, 1, 0), (1, 0, 2, 3)]}


def _round_bf16(values):
    """float32 -> bf16 bits, round to nearest even (as tcc-autocast)."""
    bits = values.astype(np.float32).view(np.uint32)
    rounded = bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))
    out = (rounded >> np.uint32(16)).astype(np.uint16)
    nan = np.isnan(values)
    out[nan] = ((bits[nan] >> np.uint32(16)) | np.uint32(0x40)).astype(np.uint16)
    return out


def _encode(values, dtype):
    if dtype == "f32":
        return values.astype("<f4").tobytes()
    if dtype == "bf16":
        return _round_bf16(values).astype("<u2").tobytes()
    if dtype == "f16":
        return values.astype("<f2").tobytes()
    raise ValueError(f"no encoding for {dtype}")


def _variant(values, transform):
    """`transform` is "DTYPE" or "DTYPE.p0231" (axes permuted, then dense)."""
    dtype, _, perm = transform.partition(".p")
    if perm:
        values = np.ascontiguousarray(np.transpose(values, [int(c) for c in perm]))
    return _encode(values, dtype)


def _transforms(shape, dtype):
    yield dtype
    for perm in _TRANSPOSES.get(len(shape), []):
        yield dtype + ".p" + "".join(map(str, perm))


def constants_segment(data, constant_bytes):
    """(offset, size) of the constants segment of artifact bytes `data`."""
    if data[:8] != b"TCCMODEL":
        raise ValueError("not a tcc artifact (no TCCMODEL magic)")
    header = int.from_bytes(data[12:16], "little")
    offset = (32 + header + 63) // 64 * 64
    if offset + constant_bytes > len(data):
        raise ValueError("the constants segment runs past the end of the file")
    return offset, constant_bytes


def strip(path, inspect_json, sources, out_path, min_piece=4096):
    """Writes OUT_PATH (the artifact less its constants segment and the
    patches, xz) and OUT_PATH.json (how to rebuild it). Returns a summary:
    the segment's bytes, those the pieces cover, the patches' bytes."""
    data = open(path, "rb").read()
    info = json.load(open(inspect_json)) if isinstance(inspect_json, str) else inspect_json
    start, size = constants_segment(data, info["constant_bytes"])
    segment = data[start:start + size]
    streams = {}

    def stream(name, transform):
        key = (name, transform)
        if key not in streams:
            streams[key] = _variant(sources[name], transform)
        return streams[key]

    pieces, covered = [], np.zeros(size, bool)
    buffers = [b for b in info["buffers"] if b["storage"] == "constant" and b["byte_size"] >= min_piece]
    for b in sorted(buffers, key=lambda b: -b["byte_size"]):
        off, length = b["offset"], b["byte_size"]
        if covered[off:off + length].all():
            continue
        want = segment[off:off + length]
        count = length // {"f32": 4, "bf16": 2, "f16": 2}.get(b["dtype"], length)
        # Sources of the same element count first, then larger ones (slices).
        candidates = sorted((n for n, v in sources.items() if v.size >= count),
                            key=lambda n: (sources[n].size != count, n))
        found = None
        for name in candidates:
            if b["dtype"] not in ("f32", "bf16", "f16"):
                break
            for transform in _transforms(sources[name].shape, b["dtype"]):
                s = stream(name, transform)
                at = s.find(want[:64])
                while at >= 0 and s[at:at + length] != want:
                    at = s.find(want[:64], at + 1)
                if at >= 0:
                    found = {"offset": off, "size": length, "source": name,
                             "transform": transform, "start": at}
                    break
            if found:
                break
        if found:
            pieces.append(found)
            covered[off:off + length] = True

    predicted = _layout(pieces, size, stream)
    patches, patch_bytes = _diff(predicted, segment)
    rest = data[:start] + data[start + size:]
    recipe = {
        "artifact_bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(),
        "segment_offset": start, "segment_size": size, "pieces": pieces,
        "patches": patches, "rest_bytes": len(rest),
    }
    tmp = out_path + ".tmp"
    with lzma.open(tmp, "wb", preset=6) as f:
        f.write(rest + patch_bytes)
    os.replace(tmp, out_path)
    with open(out_path + ".json", "w") as f:
        json.dump(recipe, f, indent=1)
    return {"segment": size, "pieces": int(sum(p["size"] for p in pieces)),
            "patches": len(patch_bytes)}


def _layout(pieces, size, stream):
    out = bytearray(size)
    for p in pieces:
        s = stream(p["source"], p["transform"])
        out[p["offset"]:p["offset"] + p["size"]] = s[p["start"]:p["start"] + p["size"]]
    return bytes(out)


def _diff(predicted, actual, gap=64):
    """Byte ranges where `predicted` differs from `actual` (runs closer
    than `gap` merged), and those bytes of `actual`."""
    differs = np.frombuffer(predicted, np.uint8) != np.frombuffer(actual, np.uint8)
    where = np.flatnonzero(differs)
    patches, chunks = [], []
    if where.size:
        breaks = np.flatnonzero(np.diff(where) > gap)
        starts = np.concatenate(([where[0]], where[breaks + 1]))
        ends = np.concatenate((where[breaks], [where[-1]])) + 1
        for s, e in zip(starts.tolist(), ends.tolist()):
            patches.append([s, e - s])
            chunks.append(actual[s:e])
    return patches, b"".join(chunks)


def restore(packed_path, sources, out_path):
    """Rebuilds the artifact STRIP wrote to PACKED_PATH into OUT_PATH
    (written whole, then renamed); raises ValueError when it is not the
    original bit for bit."""
    recipe = json.load(open(packed_path + ".json"))
    with lzma.open(packed_path, "rb") as f:
        blob = f.read()
    rest, patch_bytes = blob[:recipe["rest_bytes"]], blob[recipe["rest_bytes"]:]
    cache = {}

    def stream(name, transform):
        if (name, transform) not in cache:
            if name not in sources:
                raise ValueError(f"{packed_path}: no source tensor '{name}' to regenerate")
            cache[(name, transform)] = _variant(sources[name], transform)
        return cache[(name, transform)]

    segment = bytearray(_layout(recipe["pieces"], recipe["segment_size"], stream))
    at = 0
    for offset, length in recipe["patches"]:
        segment[offset:offset + length] = patch_bytes[at:at + length]
        at += length
    start = recipe["segment_offset"]
    data = rest[:start] + bytes(segment) + rest[start:]
    digest = hashlib.sha256(data).hexdigest()
    if len(data) != recipe["artifact_bytes"] or digest != recipe["sha256"]:
        raise ValueError(f"{packed_path}: the rebuilt artifact differs from the compiled one "
                         f"(sha256 {digest[:16]}..., expected {recipe['sha256'][:16]}...): "
                         "the seeded weights were not regenerated bit for bit")
    tmp = out_path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, out_path)
    return len(data)
