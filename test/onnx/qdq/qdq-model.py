#!/usr/bin/env python3
"""ONNX Runtime's quantize_static (QDQ, per-channel s8 weights, u8
activations) of a small CNN: conv 3x3 + bias + ReLU, depthwise 3x3 + bias +
ReLU, flatten, matmul. `make` writes the QDQ model, an input and ONNX
Runtime's output; `check` compares tcc's output with ONNX Runtime's: the
integer forms tcc compiles sum exactly where ONNX Runtime's float QDQ
reference rounds, so each element may differ by one step of the output
scale, no more.

usage: qdq-model.py make DIR | qdq-model.py check DIR TCC_OUTPUT.npy
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def make(work):
    import onnxruntime as ort
    from onnxruntime.quantization import (CalibrationDataReader, QuantFormat,
                                          QuantType, quantize_static)
    rng = np.random.default_rng(0)

    def init(name, shape, scale, dtype=np.float32):
        return numpy_helper.from_array(
            (rng.standard_normal(shape) * scale).astype(dtype), name)

    inits = [init("w1", (8, 3, 3, 3), 0.3), init("b1", (8,), 0.1),
             init("w2", (8, 1, 3, 3), 0.3), init("b2", (8,), 0.1),
             init("w3", (8 * 16 * 16, 10), 0.05),
             numpy_helper.from_array(np.array([1, 8 * 16 * 16], np.int64),
                                     "shape")]
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1] * 4),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], pads=[1] * 4,
                         group=8),
        helper.make_node("Relu", ["c2"], ["r2"]),
        helper.make_node("Reshape", ["r2", "shape"], ["f"]),
        helper.make_node("MatMul", ["f", "w3"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes, "qdq_cnn",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])], inits)
    fp32 = os.path.join(work, "fp32.onnx")
    onnx.save(helper.make_model(graph, opset_imports=[
        helper.make_opsetid("", 17)]), fp32)

    batches = [rng.standard_normal((1, 3, 16, 16)).astype(np.float32)
               for _ in range(8)]

    class Reader(CalibrationDataReader):
        def __init__(self):
            self.it = iter([{"x": b} for b in batches])

        def get_next(self):
            return next(self.it, None)

    qdq = os.path.join(work, "qdq.onnx")
    quantize_static(fp32, qdq, Reader(), quant_format=QuantFormat.QDQ,
                    per_channel=True, activation_type=QuantType.QUInt8,
                    weight_type=QuantType.QInt8)
    x = rng.standard_normal((1, 3, 16, 16)).astype(np.float32)
    np.save(os.path.join(work, "x.npy"), x)
    session = ort.InferenceSession(qdq, providers=["CPUExecutionProvider"])
    np.save(os.path.join(work, "ort.npy"), session.run(None, {"x": x})[0])


def check(work, got_path):
    model = onnx.load(os.path.join(work, "qdq.onnx"))
    # The scale of the DequantizeLinear that produces the output.
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    last = [n for n in model.graph.node if n.output[0] == "y"][0]
    assert last.op_type == "DequantizeLinear", last.op_type
    step = float(inits[last.input[1]])
    want = np.load(os.path.join(work, "ort.npy"))
    got = np.load(got_path)
    steps = np.abs(got.astype(np.float64) - want) / step
    print(f"qdq cnn: largest difference {steps.max():.3f} output steps")
    if steps.max() > 1.0 + 1e-3:
        print("FAIL: more than one step from ONNX Runtime")
        sys.exit(1)
    print("qdq cnn: OK")


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
    else:
        check(sys.argv[2], sys.argv[3])
