#!/usr/bin/env python3
"""Writes the small ONNX models the tcc-import*.test lit tests read.

They are committed; rerun this (with the pip `onnx` package) only to change
them:  python3 test/Tools/Inputs/onnx/make-models.py
"""
import os

import numpy as np
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))


def save(name, nodes, inputs, outputs, initializers=()):
    graph = helper.make_graph(nodes, name, inputs, outputs, list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    with open(os.path.join(HERE, name + ".onnx"), "wb") as f:
        f.write(model.SerializeToString())


def main():
    N = helper.make_node
    f32 = TensorProto.FLOAT
    # out = relu(x + bias) * scale, two inputs and a weight.
    save("add-relu",
         [N("Add", ["x", "bias"], ["sum"], name="add"),
          N("Relu", ["sum"], ["act"], name="relu"),
          N("Mul", ["act", "scale"], ["out"], name="mul")],
         [helper.make_tensor_value_info("x", f32, [2, 3]),
          helper.make_tensor_value_info("scale", f32, [3])],
         [helper.make_tensor_value_info("out", f32, [2, 3])],
         [numpy_helper.from_array(np.array([1, -2, 3], np.float32), "bias")])
    # A batch dim left symbolic.
    save("symbolic",
         [N("Sigmoid", ["x"], ["y"], name="sigmoid")],
         [helper.make_tensor_value_info("x", f32, ["batch", 4])],
         [helper.make_tensor_value_info("y", f32, ["batch", 4])])
    # Nodes tcc refuses: out of scope, not supported, another domain.
    save("unsupported",
         [N("NonZero", ["x"], ["nz"], name="find"),
          N("NoSuchOp", ["x"], ["a"], name="mystery"),
          N("Relu", ["x"], ["y"], name="fine")],
         [helper.make_tensor_value_info("x", f32, [4])],
         [helper.make_tensor_value_info("y", f32, [4]),
          helper.make_tensor_value_info("a", f32, [4]),
          helper.make_tensor_value_info("nz", TensorProto.INT64, None)])


if __name__ == "__main__":
    main()
