#!/usr/bin/env python3
"""Checks that tcc-onnx-conformance tells passing cases from failing ones.

usage: runner-selftest.py RUNNER WORKDIR

Writes small hand-made cases (expected outputs off by a known amount, NaNs,
a wrong shape, exact integers, an out-of-scope op) in the layout of
write-cases.py, runs the runner on them and checks each status, then
checks --expected (a listed failing case fails the run) and --timeout.
"""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17


def write_case(root, manifest, name, op, inputs, expected, rtol=1e-3, atol=1e-7, out_type=None):
    """A one-node case: `inputs` (arrays) -> `op` -> one output `expected`."""
    names = [f"x{i}" for i in range(len(inputs))]
    elem = lambda a: helper.np_dtype_to_tensor_dtype(a.dtype)
    graph = helper.make_graph(
        [helper.make_node(op, names, ["y"])], name,
        [helper.make_tensor_value_info(n, elem(a), a.shape) for n, a in zip(names, inputs)],
        [helper.make_tensor_value_info("y", out_type or elem(expected), None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    case = os.path.join(root, "node", name)
    data = os.path.join(case, "test_data_set_0")
    os.makedirs(data)
    onnx.save(model, os.path.join(case, "model.onnx"))
    for i, a in enumerate(inputs):
        onnx.save_tensor(numpy_helper.from_array(a, names[i]), os.path.join(data, f"input_{i}.pb"))
    onnx.save_tensor(numpy_helper.from_array(expected, "y"), os.path.join(data, "output_0.pb"))
    manifest.append({"name": name, "kind": "node", "dir": os.path.relpath(case, root),
                     "rtol": rtol, "atol": atol, "note": ""})


def run(runner, root, *args):
    results = os.path.join(root, "results.jsonl")
    proc = subprocess.run([runner, root, "--results", results, *args], capture_output=True, text=True)
    with open(results) as f:
        return proc, {r["name"]: r for r in map(json.loads, f)}


def main():
    runner, root = sys.argv[1], sys.argv[2]
    shutil.rmtree(root, ignore_errors=True)
    manifest = []
    x = np.array([[-1.5, 0.0, 2.0], [3.0, -4.0, 0.5]], dtype=np.float32)
    relu = np.maximum(x, 0)
    # name: (op, inputs, expected, rtol, atol) and the status the runner must give
    cases = {
        "relu_exact": (("Relu", [x], relu), "passed"),
        "relu_within_tolerance": (("Relu", [x], relu + np.float32(1e-4), 1e-3, 1e-3), "passed"),
        "relu_off": (("Relu", [x], relu + np.float32(1e-2), 1e-3, 1e-3), "mismatch"),
        "relu_wrong_shape": (("Relu", [x], relu.reshape(3, 2)), "mismatch"),
        "sqrt_nan_equals_nan": (("Sqrt", [np.array([-1.0, 4.0], np.float32)], np.array([np.nan, 2.0], np.float32)), "passed"),
        "sqrt_nan_not_a_number": (("Sqrt", [np.array([-1.0, 4.0], np.float32)], np.array([0.0, 2.0], np.float32), 1.0, 1.0), "mismatch"),
        "add_int_exact": (("Add", [np.array([1, 2], np.int64), np.array([3, 4], np.int64)], np.array([4, 6], np.int64)), "passed"),
        "add_int_off_by_one": (("Add", [np.array([1, 2], np.int64), np.array([3, 4], np.int64)], np.array([4, 7], np.int64), 1.0, 1.0), "mismatch"),
        "nonzero_out_of_scope": (("NonZero", [x], np.array([[0], [1]], np.int64)), "out-of-scope"),
        "add_uint16_out_of_scope": (("Add", [np.array([1], np.uint16)] * 2, np.array([2], np.uint16)), "out-of-scope"),
        # The shape must be constant: the runner imports it with its value.
        "reshape_shape_input": (("Reshape", [x, np.array([3, 2], np.int64)], x.reshape(3, 2)), "passed"),
    }
    for name, ((op, inputs, expected, *tol), _) in cases.items():
        write_case(root, manifest, name, op, inputs, expected, *tol)
    with open(os.path.join(root, "manifest.json"), "w") as f:
        json.dump(manifest, f)

    failures = []
    proc, results = run(runner, root)
    for name, (_, want) in cases.items():
        got = results.get(name, {}).get("status")
        if got != want:
            failures.append(f"{name}: status {got}, expected {want} ({results.get(name, {}).get('error')})")
    if not results["reshape_shape_input"]["fixed_inputs"]:
        failures.append("reshape_shape_input: the shape should have been imported as a constant")
    if results["relu_off"]["stage"] != "interpreter":
        failures.append("relu_off: the mismatch should be found at the interpreter's outputs")

    expected = os.path.join(root, "expected.txt")
    with open(expected, "w") as f:
        f.write("# listed\nrelu_exact\nrelu_off\n")
    proc, _ = run(runner, root, "--expected", expected)
    if proc.returncode != 1 or "relu_off" not in proc.stdout or "newly passes" not in proc.stdout:
        failures.append(f"--expected with a failing case: exit {proc.returncode}, output:\n{proc.stdout}")
    with open(expected, "w") as f:
        f.write("relu_exact\nno_such_case\n")
    proc, _ = run(runner, root, "--expected", expected, "--filter", "^relu_exact$")
    if proc.returncode != 1 or "no_such_case" not in proc.stdout:
        failures.append(f"--expected naming no case: exit {proc.returncode}, output:\n{proc.stdout}")

    proc, results = run(runner, root, "--filter", "^relu_exact$", "--timeout", "0.001")
    if results["relu_exact"]["status"] != "timeout":
        failures.append(f"--timeout 0.001: status {results['relu_exact']['status']}, expected timeout")

    for f in failures:
        print("FAIL:", f)
    print(f"runner-selftest.py: {len(cases)} cases, {len(failures)} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
