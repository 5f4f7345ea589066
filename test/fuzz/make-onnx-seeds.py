#!/usr/bin/env python3
"""Writes the seed corpus of the onnx fuzz target (corpus/onnx/*.onnx).

Small models that reach each family of op importers (NN, shape, reduction,
elementwise), the folding of shape subgraphs, typed-field and raw-data
initializers, and the refusal paths (unsupported ops, symbolic dims). They
are committed; rerun this (with the pip `onnx` package) only to change them:
    python3 test/fuzz/make-onnx-seeds.py
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "onnx")


def f32(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def ints(name, values):
    return numpy_helper.from_array(np.array(values, dtype=np.int64), name)


def floats(name, values):
    return numpy_helper.from_array(np.array(values, dtype=np.float32), name)


def save(name, nodes, inputs, outputs, initializers=(), opset=17):
    graph = helper.make_graph(nodes, name, inputs, outputs, list(initializers))
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    with open(os.path.join(OUT, name + ".onnx"), "wb") as f:
        f.write(model.SerializeToString())


def main():
    os.makedirs(OUT, exist_ok=True)
    N = helper.make_node
    save("add-relu", [N("Add", ["x", "b"], ["s"]), N("Relu", ["s"], ["y"])],
         [f32("x", [2, 3])], [f32("y", None)], [floats("b", [1, -2, 3])])
    save("conv-pool",
         [N("Conv", ["x", "w", "c"], ["a"], pads=[1, 1, 1, 1], strides=[1, 1]),
          N("MaxPool", ["a"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
          N("AveragePool", ["p"], ["q"], kernel_shape=[2, 2],
            pads=[0, 0, 1, 1], count_include_pad=1),
          N("GlobalAveragePool", ["q"], ["y"])],
         [f32("x", [1, 1, 4, 4])], [f32("y", None)],
         [floats("w", np.ones([2, 1, 3, 3])), floats("c", [0.5, -0.5])])
    save("shape-subgraph",
         [N("Shape", ["x"], ["s"]), N("Gather", ["s", "i0"], ["d0"], axis=0),
          N("Unsqueeze", ["d0", "ax"], ["d0v"]),
          N("Concat", ["d0v", "m1"], ["shape"], axis=0),
          N("Reshape", ["x", "shape"], ["y"])],
         [f32("x", [2, 3, 4])], [f32("y", None)],
         [ints("i0", 0), ints("ax", [0]), ints("m1", [-1])])
    save("slice-gather",
         [N("Slice", ["x", "st", "en", "axs", "stp"], ["a"]),
          N("Gather", ["a", "idx"], ["b"], axis=1),
          N("GatherElements", ["b", "ge"], ["y"], axis=0)],
         [f32("x", [4, 6])], [f32("y", None)],
         [ints("st", [3, 0]), ints("en", [-10, 6]), ints("axs", [0, 1]),
          ints("stp", [-1, 2]), ints("idx", [[0, -1]]),
          ints("ge", [[[0, 1]], [[2, 3]]])])
    save("fill-range-tile",
         [N("ConstantOfShape", ["shape"], ["z"],
            value=helper.make_tensor("v", TensorProto.FLOAT, [1], [2.5])),
          N("Range", ["r0", "r1", "r2"], ["r"]),
          N("Tile", ["z", "reps"], ["t"]),
          N("Expand", ["r", "eshape"], ["e"]),
          N("Add", ["t", "e"], ["y"])],
         [], [f32("y", None)],
         [ints("shape", [2, 1]), ints("reps", [1, 3]), floats("r0", 0),
          floats("r1", 3), floats("r2", 1), ints("eshape", [2, 3])])
    save("split-softmax",
         [N("Split", ["x", "sizes"], ["a", "b"], axis=1),
          N("Softmax", ["a"], ["sa"], axis=-1),
          N("LogSoftmax", ["b"], ["sb"], axis=0),
          N("Concat", ["sa", "sb"], ["y"], axis=1)],
         [f32("x", [2, 5])], [f32("y", None)], [ints("sizes", [2, 3])])
    save("gemm-norm",
         [N("Gemm", ["x", "w", "c"], ["g"], transB=1),
          N("LayerNormalization", ["g", "ln"], ["n"], axis=-1, epsilon=1e-5),
          N("MatMul", ["n", "m"], ["y"])],
         [f32("x", [2, 3])], [f32("y", None)],
         [floats("w", np.arange(12).reshape(4, 3) / 10),
          floats("c", [0, 1, 2, 3]), floats("ln", [1, 1, 1, 1]),
          floats("m", np.ones([4, 2]))])
    save("reduce-cast-where",
         [N("ReduceSum", ["x", "axes"], ["s"], keepdims=1),
          N("Cast", ["s"], ["si"], to=TensorProto.INT32),
          N("Cast", ["si"], ["sf"], to=TensorProto.FLOAT),
          N("Greater", ["x", "sf"], ["gt"]),
          N("Clip", ["x", "lo", "hi"], ["c"]),
          N("Where", ["gt", "c", "sf"], ["w"]),
          N("Pad", ["w", "pads"], ["y"], mode="constant"),
          N("ArgMax", ["y"], ["am"], axis=1, keepdims=0)],
         [f32("x", [2, 3])],
         [f32("y", None), helper.make_tensor_value_info("am", TensorProto.INT64, None)],
         [ints("axes", [1]), floats("lo", 0.0), floats("hi", 2.0),
          ints("pads", [0, 1, 0, 1])])
    # Initializers in typed fields rather than raw data.
    save("typed-fields",
         [N("Mul", ["x", "w"], ["a"]), N("Add", ["a", "k"], ["y"])],
         [f32("x", [3])], [f32("y", None)],
         [helper.make_tensor("w", TensorProto.FLOAT, [3], [1.0, 2.0, 3.0]),
          helper.make_tensor("k", TensorProto.FLOAT, [], [0.5])])
    # Bit casts both ways and an f16 softmax (its function body).
    save("bitcast-half-softmax",
         [N("BitCast", ["x"], ["i"], to=TensorProto.INT32),
          N("BitCast", ["i"], ["f"], to=TensorProto.FLOAT),
          N("Cast", ["f"], ["h"], to=TensorProto.FLOAT16),
          N("Softmax", ["h"], ["y"], axis=-1)],
         [f32("x", [2, 3])],
         [helper.make_tensor_value_info("y", TensorProto.FLOAT16, None)],
         opset=26)
    save("symbolic-dim", [N("Sigmoid", ["x"], ["y"])],
         [f32("x", ["N", 4])], [f32("y", None)])
    save("unsupported",
         [N("NonZero", ["x"], ["a"], name="nz"),
          N("TopK", ["x", "k"], ["v", "i"], name="topk"),
          N("Loop", ["", ""], ["l"], name="loop")],
         [f32("x", [4])], [f32("v", None)], [ints("k", [2])], opset=13)


if __name__ == "__main__":
    main()
