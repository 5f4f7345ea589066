#!/usr/bin/env python3
"""Writes ONNX's backend conformance cases to OUTDIR for tcc's runner.

ONNX's own `backend-test-tools generate-data` writes only model cases; the
node cases exist only as Python (onnx.backend.test.case.node). This writes
both kinds in the layout of ONNX's backend/test/data:

  OUTDIR/node/<case>/model.onnx
  OUTDIR/node/<case>/test_data_set_<i>/{input,output}_<j>.pb   (TensorProto)
  OUTDIR/<kind>/<case>/...   the simple, pytorch-converted, pytorch-operator
                             and light model cases shipped in the package
                             (light ones get inputs from generate_dummy_data)
  OUTDIR/manifest.json       [{"name", "kind", "dir", "rtol", "atol", "note",
                               "converted_from_opset"}]

A case whose data are not tensors (sequences, maps, optionals) is written
without data and marked in "note"; the runner counts it out of scope.
A model below opset 11 (the lowest tcc imports) is converted to opset 11
with onnx.version_converter, as tcc's import error advises users, and the
original opset kept in "converted_from_opset"; one that does not convert
stays as it is (out of scope).

usage: write-cases.py OUTDIR   (needs the pinned onnx package: onnx==1.23.2)
"""
import json
import os
import shutil
import sys
import warnings

warnings.filterwarnings("ignore")  # the case generators' numpy overflow noise

import numpy as np
import onnx
from onnx import numpy_helper, version_converter
from onnx.backend.test.case import node as node_cases

PINNED = "1.23.2"
MIN_OPSET = 11  # mlir::tcc::onnx::kMinOpset
PACKAGED_KINDS = ["simple", "pytorch-converted", "pytorch-operator", "light"]


def write_tensor(path, value, name):
    proto = value if isinstance(value, onnx.TensorProto) else numpy_helper.from_array(np.asarray(value), name)
    with open(path, "wb") as f:
        f.write(proto.SerializeToString())


def all_tensors(model):
    values = list(model.graph.input) + list(model.graph.output)
    return all(v.type.HasField("tensor_type") for v in values)


def per_channel_prelu_slopes(model):
    """PRelu below opset 7 takes a slope of shape [C] as one slope per
    channel (dim 1 of X; PRelu-6: "If Slope is of size 1, the value is shared
    across different channels"). Opset 7 broadcasts numpy-style, where [C]
    meets X's last dim instead, and version_converter has no PRelu adapter:
    this gives such initializers the shape [C, 1, ...] that opset 7 reads as
    per channel."""
    inputs = {v.name: v for v in model.graph.input}
    slopes = {t.name: t for t in model.graph.initializer}
    for node in model.graph.node:
        if node.op_type != "PRelu" or node.input[1] not in slopes:
            continue
        slope = slopes[node.input[1]]
        x = inputs.get(node.input[0])
        rank = len(x.type.tensor_type.shape.dim) if x else 0
        if len(slope.dims) != 1 or slope.dims[0] == 1 or rank <= 2:
            continue
        slope.dims.extend([1] * (rank - 2))
        # IR 3 lists initializers among the inputs, with their shape.
        if slope.name in inputs:
            shape = inputs[slope.name].type.tensor_type.shape
            for _ in range(rank - 2):
                shape.dim.add().dim_value = 1


def upgrade(model_path, entry):
    """Converts the model at `model_path` to MIN_OPSET when it is older."""
    model = onnx.load(model_path)
    opsets = [o.version for o in model.opset_import if o.domain in ("", "ai.onnx")]
    if not opsets or opsets[0] >= MIN_OPSET:
        return
    if any(n.domain not in ("", "ai.onnx") for n in model.graph.node):
        return
    if opsets[0] < 7:
        per_channel_prelu_slopes(model)
    try:
        converted = version_converter.convert_version(model, MIN_OPSET)
        onnx.checker.check_model(converted)
    except Exception:  # the converter has no adapter, or its result is invalid
        return
    onnx.save(converted, model_path)
    entry["converted_from_opset"] = opsets[0]


def write_node_cases(out, manifest):
    for case in node_cases.collect_testcases():
        case_dir = os.path.join(out, "node", case.name)
        os.makedirs(case_dir)
        with open(os.path.join(case_dir, "model.onnx"), "wb") as f:
            f.write(case.model.SerializeToString())
        entry = {"name": case.name, "kind": "node", "dir": os.path.relpath(case_dir, out),
                 "rtol": case.rtol, "atol": case.atol, "note": ""}
        upgrade(os.path.join(case_dir, "model.onnx"), entry)
        if not all_tensors(case.model):
            entry["note"] = "non-tensor inputs or outputs"
            manifest.append(entry)
            continue
        graph = case.model.graph
        for i, (inputs, outputs) in enumerate(case.data_sets):
            data_dir = os.path.join(case_dir, f"test_data_set_{i}")
            os.makedirs(data_dir)
            for j, value in enumerate(inputs):
                write_tensor(os.path.join(data_dir, f"input_{j}.pb"), value, graph.input[j].name)
            for j, value in enumerate(outputs):
                write_tensor(os.path.join(data_dir, f"output_{j}.pb"), value, graph.output[j].name)
        manifest.append(entry)


def write_packaged_cases(out, manifest):
    data = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data")
    for kind in PACKAGED_KINDS:
        src = os.path.join(data, kind)
        if kind != "light":
            for name in sorted(os.listdir(src)):
                dst = os.path.join(out, kind, name)
                shutil.copytree(os.path.join(src, name), dst)
                entry = {"name": name, "kind": kind, "dir": os.path.relpath(dst, out),
                         "rtol": 1e-3, "atol": 1e-7, "note": ""}
                upgrade(os.path.join(dst, "model.onnx"), entry)
                manifest.append(entry)
            continue
        # light_<model>.onnx with light_<model>_output_0.pb; the inputs are
        # ONNX's generate_dummy_data (seeded), as its own runner makes them.
        from onnx.backend.test.runner import Runner
        for name in sorted(os.listdir(src)):
            if not name.endswith(".onnx"):
                continue
            case = name[:-5]
            dst = os.path.join(out, kind, case)
            data_dir = os.path.join(dst, "test_data_set_0")
            os.makedirs(data_dir)
            shutil.copy(os.path.join(src, name), os.path.join(dst, "model.onnx"))
            model = onnx.load(os.path.join(src, name))
            initializers = {i.name for i in model.graph.initializer}
            inputs = [x for x in model.graph.input if x.name not in initializers]
            for j, x in enumerate(inputs):
                value = Runner.generate_dummy_data(x, seed=0, name=case, random=False)
                write_tensor(os.path.join(data_dir, f"input_{j}.pb"), value, x.name)
            shutil.copy(os.path.join(src, case + "_output_0.pb"), os.path.join(data_dir, "output_0.pb"))
            entry = {"name": case, "kind": kind, "dir": os.path.relpath(dst, out),
                     "rtol": 1e-3, "atol": 1e-7, "note": ""}
            upgrade(os.path.join(dst, "model.onnx"), entry)
            manifest.append(entry)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    if onnx.__version__ != PINNED:
        sys.exit(f"write-cases.py: onnx {onnx.__version__} is installed; the suite is pinned to {PINNED}")
    out = sys.argv[1]
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    manifest = []
    write_node_cases(out, manifest)
    write_packaged_cases(out, manifest)
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=0)
    print(f"write-cases.py: {len(manifest)} cases in {out}")


if __name__ == "__main__":
    main()
