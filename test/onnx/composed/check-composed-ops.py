#!/usr/bin/env python3
"""Checks the ONNX ops that the importer composes from several tcc ops
against numpy, over whole value ranges rather than the conformance cases'
few points: integer ops (Div, Mod, BitShift, Bitwise*) exactly, over every
pair of int8/uint8 values and edge values of int32/int64; float ops (the
inverse trigonometric and hyperbolic functions, Mod) within a few ulp,
including 0, -0, infinities and NaN; CumProd in every mode and integer
ReduceMean, exact on integers; blocked QuantizeLinear and DequantizeLinear,
short last blocks included, exactly against ONNX's reference. Each model runs in the interpreter
(tcc run-ir) and compiled (tcc compile + tcc run).

usage: check-composed-ops.py TCC WORKDIR
"""
import os
import subprocess
import sys

import numpy as np
import onnx
import onnx.numpy_helper
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

tcc, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
failures = []

ONNX_TYPE = {np.int8: TensorProto.INT8, np.uint8: TensorProto.UINT8,
             np.int32: TensorProto.INT32, np.int64: TensorProto.INT64,
             np.float32: TensorProto.FLOAT, np.float64: TensorProto.DOUBLE}


def run_model(name, nodes, inputs, outputs, opset=28):
    """Builds a one-graph model; returns {mode: [outputs]} for both modes."""
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info(k, ONNX_TYPE[v.dtype.type], v.shape)
         for k, v in inputs.items()],
        [helper.make_tensor_value_info(k, ONNX_TYPE[t], None)
         for k, t in outputs])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    base = os.path.join(work, name)
    onnx.save(model, base + ".onnx")
    run_model.last = model
    subprocess.run([tcc, "import", base + ".onnx", "-o", base + ".ir"], check=True)
    subprocess.run([tcc, "compile", base + ".ir", "-o", base + ".bin"], check=True)
    args = []
    for k, v in inputs.items():
        np.save(f"{base}.{k}.npy", v)
        args += ["--input", f"{base}.{k}.npy"]
    outs = [f"{base}.out{i}.npy" for i in range(len(outputs))]
    results = {}
    for mode, cmd in (("interpreter", ["run-ir", base + ".ir"]),
                      ("compiled", ["run", base + ".bin"])):
        subprocess.run([tcc] + cmd + args +
                       [a for o in outs for a in ("--output", o)], check=True)
        results[mode] = [np.load(o) for o in outs]
    return results


def expect_exact(what, got, want):
    floats = got.dtype.kind == "f"
    if got.dtype != want.dtype or got.shape != want.shape or \
            not np.array_equal(got, want, equal_nan=floats):
        if got.shape != want.shape:
            failures.append(f"{what}: shape {got.shape}, expected {want.shape}")
            return
        bad = ~((got == want) | (floats & np.isnan(got) & np.isnan(want)))
        failures.append(f"{what}: {np.count_nonzero(bad)} wrong, first at "
                        f"{np.argwhere(bad)[0].tolist()}: {got[bad][0]!r}, expected {want[bad][0]!r}")


def expect_close(what, got, want, ulps):
    eps = np.finfo(got.dtype).eps
    same_class = (np.isnan(got) == np.isnan(want)) & (np.isinf(want) <= (got == want))
    finite = np.isfinite(want)
    scale = np.maximum(np.abs(want[finite].astype(np.float64)), np.finfo(got.dtype).tiny)
    err = np.abs(got[finite].astype(np.float64) - want[finite]) / scale / eps
    if not same_class.all() or (err.size and err.max() > ulps):
        failures.append(f"{what}: {np.count_nonzero(~same_class)} NaN/inf mismatches, "
                        f"max error {err.max() if err.size else 0:.1f} ulp (limit {ulps})")


def all_pairs(dtype):
    info = np.iinfo(dtype)
    v = np.arange(info.min, info.max + 1, dtype=np.int64).astype(dtype)
    a, b = np.meshgrid(v, v, indexing="ij")
    return a.ravel(), b.ravel()


def edge_pairs(dtype):
    info = np.iinfo(dtype)
    v = np.array([info.min, info.min + 1, -7, -3, -2, -1, 0, 1, 2, 3, 7, 100,
                  info.max - 1, info.max], dtype=np.int64)
    v = v[(v >= info.min) & (v <= info.max)].astype(dtype)
    a, b = np.meshgrid(v, v, indexing="ij")
    return a.ravel(), b.ravel()


def wrap_shift(a, s, left, dtype):
    """ONNX BitShift on one element, by Python integers."""
    bits = np.iinfo(dtype).bits
    a, s = int(a), int(s)
    if s < 0 or s >= bits:
        return -1 if (not left and a < 0) else 0
    r = a << s if left else a >> s
    r &= (1 << bits) - 1
    if np.iinfo(dtype).min < 0 and r >= 1 << (bits - 1):
        r -= 1 << bits
    return r


def check_integers(dtype, a, b, bitwise=True):
    name = np.dtype(dtype).name
    nonzero = b != 0
    ops = {}
    if bitwise:
        ops = {
            "and": (helper.make_node("BitwiseAnd", ["a", "b"], ["and"]), a & b),
            "or": (helper.make_node("BitwiseOr", ["a", "b"], ["or"]), a | b),
            "xor": (helper.make_node("BitwiseXor", ["a", "b"], ["xor"]), a ^ b),
            "not": (helper.make_node("BitwiseNot", ["a"], ["not"]), ~a),
        }
    # Division by zero is undefined; those pairs are left out.
    an, bn = a[nonzero], b[nonzero]
    with np.errstate(all="ignore"):
        # C's truncating division and fmod; numpy's // and % floor.
        q = np.where((an % bn != 0) & ((an < 0) != (bn < 0)), an // bn + 1, an // bn).astype(dtype)
        fmod = np.fmod(an, bn).astype(dtype)
        mod = (an % bn).astype(dtype)
    shift = np.clip(b.astype(np.int64), -2, np.iinfo(dtype).bits + 1).astype(dtype)
    lsh = np.array([wrap_shift(x, s, True, dtype) for x, s in zip(a, shift)]).astype(dtype)
    rsh = np.array([wrap_shift(x, s, False, dtype) for x, s in zip(a, shift)]).astype(dtype)
    nodes = [node for node, _ in ops.values()] + [
        helper.make_node("Div", ["an", "bn"], ["div"]),
        helper.make_node("Mod", ["an", "bn"], ["fmod"], fmod=1),
        helper.make_node("Mod", ["an", "bn"], ["mod"]),
        helper.make_node("BitShift", ["a", "s"], ["lsh"], direction="LEFT"),
        helper.make_node("BitShift", ["a", "s"], ["rsh"], direction="RIGHT"),
    ]
    want = {k: v for k, (_, v) in ops.items()}
    want.update(div=q, fmod=fmod, mod=mod, lsh=lsh, rsh=rsh)
    inputs = {"a": a, "b": b, "an": an, "bn": bn, "s": shift}
    results = run_model(f"int_{name}", nodes, inputs, [(k, dtype) for k in want])
    for mode, outs in results.items():
        for (k, w), got in zip(want.items(), outs):
            expect_exact(f"{k} {name} ({mode})", got, w)


FLOAT_OPS = {"Atan": np.arctan, "Asin": np.arcsin, "Acos": np.arccos,
             "Asinh": np.arcsinh, "Acosh": np.arccosh, "Atanh": np.arctanh,
             "Sinh": np.sinh, "Cosh": np.cosh, "Tan": np.tan}


def check_floats(dtype):
    name = np.dtype(dtype).name
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 1e-30, -1e-30, 0.66, 2.414]
    rng = np.random.default_rng(0)
    x = np.concatenate([special, np.linspace(-3, 3, 6001), rng.standard_normal(4000) * 10,
                        np.logspace(-20, 30, 2000), -np.logspace(-20, 30, 2000),
                        1 - np.logspace(-12, -1, 200), np.linspace(-1, 1, 2001),
                        # up to where sinh and cosh overflow
                        np.linspace(15, 90, 301), -np.linspace(15, 90, 301),
                        np.linspace(700, 711, 45)]).astype(dtype)
    y = np.concatenate([[3.0, -3.0, np.inf, -np.inf, np.nan, 0.0, -0.0, 2.0, -2.0, 1e-30, -7.5],
                        rng.standard_normal(x.size - 11) * 5]).astype(dtype)
    with np.errstate(all="ignore"):
        want = {op: ref(x.astype(np.float64)).astype(dtype) for op, ref in FLOAT_OPS.items()}
        want["fmod"] = np.fmod(x, y)
        want["mod"] = np.mod(x, y)
    nodes = [helper.make_node(op, ["x"], [op]) for op in FLOAT_OPS] + [
        helper.make_node("Mod", ["x", "y"], ["fmod"], fmod=1),
        helper.make_node("Mod", ["x", "y"], ["mod"])]
    results = run_model(f"float_{name}", nodes, {"x": x, "y": y},
                        [(k, dtype) for k in want])
    for mode, outs in results.items():
        for (k, w), got in zip(want.items(), outs):
            if k == "fmod":
                expect_exact(f"{k} {name} ({mode})", got, w)
            elif k == "mod":
                # Moving fmod's result by the divisor rounds once.
                expect_close(f"{k} {name} ({mode})", got, w, 1)
            else:
                expect_close(f"{k} {name} ({mode})", got, w, 4)


def check_cumprod():
    """CumProd by doubling against numpy's running product: exact on
    integers (wrapping), 8 ulp on floats, every exclusive/reverse mode."""
    rng = np.random.default_rng(1)
    for dtype in (np.int32, np.float64):
        x = (rng.integers(-3, 4, (3, 37)) if dtype == np.int32
             else rng.uniform(0.5, 1.5, (3, 37))).astype(dtype)
        axis = np.array([1], dtype=np.int64)  # a constant, not a graph input
        nodes, want = [], {}
        for exclusive in (0, 1):
            for reverse in (0, 1):
                k = f"e{exclusive}r{reverse}"
                nodes.append(helper.make_node("CumProd", ["x", "axis"], [k],
                                              exclusive=exclusive, reverse=reverse))
                v = x[:, ::-1] if reverse else x
                if exclusive:
                    v = np.concatenate([np.ones_like(v[:, :1]), v[:, :-1]], axis=1)
                with np.errstate(all="ignore"):
                    v = np.cumprod(v, axis=1, dtype=dtype)
                want[k] = v[:, ::-1] if reverse else v
        graph_nodes = [helper.make_node("Constant", [], ["axis"],
                                        value=onnx.numpy_helper.from_array(axis))] + nodes
        results = run_model(f"cumprod_{np.dtype(dtype).name}", graph_nodes, {"x": x},
                            [(k, dtype) for k in want])
        for mode, outs in results.items():
            for (k, w), got in zip(want.items(), outs):
                what = f"CumProd {k} {np.dtype(dtype).name} ({mode})"
                if dtype == np.int32:
                    expect_exact(what, got, np.ascontiguousarray(w))
                else:
                    expect_close(what, got, w, 8)


def check_integer_mean():
    """ReduceMean on integers: the sum truncated-divided by the count."""
    x = np.random.default_rng(2).integers(-1000, 1000, (5, 7)).astype(np.int32)
    nodes = [helper.make_node("ReduceMean", ["x"], ["rows"], axes=[1], keepdims=0),
             helper.make_node("ReduceMean", ["x"], ["all"], keepdims=1)]
    want = {"rows": np.fix(x.sum(1) / 7).astype(np.int32),
            "all": np.fix(x.sum(keepdims=True) / 35).astype(np.int32)}
    results = run_model("mean_int32", nodes, {"x": x}, [(k, np.int32) for k in want],
                        opset=13)
    for mode, outs in results.items():
        for (k, w), got in zip(want.items(), outs):
            expect_exact(f"ReduceMean {k} int32 ({mode})", got, w)


def check_blocked_quantization():
    """QuantizeLinear and DequantizeLinear with block_size (scales expanded
    to the input's shape) exactly against ONNX's reference evaluator: along
    either axis, with short last blocks, ties (power-of-two scales), values
    that saturate, int8 and uint8."""
    rng = np.random.default_rng(3)
    shape = (5, 7)
    for axis, block in ((1, 3), (0, 2), (-1, 7), (1, 1)):
        blocks = list(shape)
        blocks[axis] = -(-shape[axis] // block)
        for dtype in (np.int8, np.uint8):
            info = np.iinfo(dtype)
            name = f"blocked_a{axis % 2}_b{block}_{np.dtype(dtype).name}"
            scale = np.where(rng.random(blocks) < 0.5,
                             2.0 ** rng.integers(-3, 3, blocks),
                             rng.uniform(0.01, 3, blocks)).astype(np.float32)
            zp = rng.integers(info.min, info.max + 1, blocks).astype(dtype)
            full = np.repeat(scale, block, axis=axis)[:shape[0], :shape[1]]
            x = np.where(rng.random(shape) < 0.4,
                         full * (rng.integers(-300, 300, shape) + 0.5),
                         rng.standard_normal(shape) * 200).astype(np.float32)
            q = rng.integers(info.min, info.max + 1, shape).astype(dtype)
            nodes = [helper.make_node("QuantizeLinear", ["x", "s", "zp"], ["y"],
                                      axis=axis, block_size=block),
                     helper.make_node("DequantizeLinear", ["q", "s", "zp"], ["d"],
                                      axis=axis, block_size=block)]
            inputs = {"x": x, "s": scale, "zp": zp, "q": q}
            results = run_model(name, nodes, inputs, [("y", dtype), ("d", np.float32)],
                                opset=21)
            want = ReferenceEvaluator(run_model.last).run(None, inputs)
            for mode, outs in results.items():
                for k, w, got in zip(("QuantizeLinear", "DequantizeLinear"), want, outs):
                    expect_exact(f"{k} {name} ({mode})", got, w)


check_cumprod()
check_integer_mean()
check_blocked_quantization()
for dtype in (np.int8, np.uint8):
    check_integers(dtype, *all_pairs(dtype))
check_integers(np.int32, *edge_pairs(np.int32))
# Bitwise ops take some seven tcc ops per bit; 64 bits compile slowly, and
# the composition is the same as for 32.
check_integers(np.int64, *edge_pairs(np.int64), bitwise=False)
for dtype in (np.float32, np.float64):
    check_floats(dtype)

for f in failures:
    print("FAIL", f)
print("composed ops:", "FAIL" if failures else "OK")
sys.exit(1 if failures else 0)
