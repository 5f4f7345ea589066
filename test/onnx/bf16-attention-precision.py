#!/usr/bin/env python3
"""How far ONNX's bf16 Attention cases are from the exact result.

For each bf16 Attention case of ONNX's suite (and the f16 causal case for
comparison), evaluates on the case's own inputs:
  - the expected output (onnx.reference, numpy with ml_dtypes: the softmax
    denominator summed one element at a time with a bf16 rounding each),
  - the same computation with that sum accumulated in f32 and rounded once
    (what tcc, PyTorch and ONNX Runtime do),
  - float64 on the same inputs,
and prints each one's largest relative error against float64 and the count of
elements outside the case's tolerance. docs/onnx.md quotes the numbers.

usage: build/python-env/bin/python3 test/onnx/bf16-attention-precision.py
"""
import warnings

warnings.filterwarnings("ignore")  # the case generators' numpy overflow noise

import numpy as np
from onnx.backend.test.case import node as node_cases
from onnx.helper import get_attribute_value
import onnx.reference.ops.op_attention as reference

CASES = ["test_attention_4d_causal_bf16", "test_attention_4d_padded_kv_bf16",
         "test_attention_4d_causal_padded_kv_bf16",
         "test_attention_4d_attn_mask_causal_bf16", "test_attention_3d_causal_bf16",
         "test_attention_4d_causal_fp16"]
reference_softmax = reference._softmax


def softmax_f32_sum(x, axis=-1):
    """reference._softmax with the denominator accumulated in f32."""
    t = x.dtype.type
    x_max = np.max(x, axis=axis, keepdims=True)
    e = np.exp(x - np.where(np.isneginf(x_max), t(0), x_max))
    s = e.astype(np.float32).sum(axis=axis, keepdims=True).astype(x.dtype)
    return e / np.where(s == t(0), t(1), s)


def attention(softmax, inputs, attrs, names):
    reference._softmax = softmax
    try:
        return reference._compute_attention(*inputs[:3], **dict(zip(names[3:], inputs[3:])),
                                            **attrs)[0].astype(np.float64)
    finally:
        reference._softmax = reference_softmax


def main():
    cases = {c.name: c for c in node_cases.collect_testcases("Attention")}
    for name in CASES:
        case = cases[name]
        inputs, outputs = case.data_sets[0]
        node = case.model.graph.node[0]
        attrs = {a.name: get_attribute_value(a) for a in node.attribute}
        names = [i for i in node.input if i]
        wide = [v if v.dtype == np.int64 else v.astype(np.float64) for v in inputs]
        exact = attention(reference_softmax, wide, attrs, names)
        line = name
        for label, y in (("reference", outputs[0].astype(np.float64)),
                         ("f32 sum", attention(softmax_f32_sum, inputs, attrs, names))):
            error = np.abs(y - exact)
            outside = int((error > case.atol + case.rtol * np.abs(exact)).sum())
            worst = float(np.max(error / np.maximum(np.abs(exact), 1e-300)))
            line += f" | {label} vs float64: {worst:.1e} ({outside} of {y.size})"
        print(line)


if __name__ == "__main__":
    main()
