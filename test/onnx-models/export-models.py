#!/usr/bin/python3
"""Exports the real-model test set to ONNX, with PyTorch's outputs.

Run with Debian's /usr/bin/python3 (python3-torch 1.13, python3-torchvision
0.14). For each model it writes OUTDIR/<model>/:
  model.onnx      opset 17 (or the model's own, in MODELS), the batch (and
                  the encoder's sequence) dims symbolic, as models are
                  usually exported for deployment, traced on inputs of
                  other sizes than the test's
  <input>.npy     one file per graph input, named as the graph's input
  <output>.npy    PyTorch's outputs in eval mode, named as the graph's output
  model.json      the input and output names in graph order

Weights are PyTorch's own random initialization under a fixed seed (nothing
is downloaded). BatchNorm running statistics and affine parameters are
randomized too: at initialization they are the identity, and the exporter
folds them into the convolutions, whose biases would then all be zero.

usage: export-models.py OUTDIR [MODEL ...]   (default: every model)
       export-models.py --list                 (the models' names)
"""

import json
import math
import os
import sys
from typing import Callable, Dict, List, NamedTuple

import numpy as np
import torch
import torchvision
from torch import nn

SEED = 0


# --- A BERT-style encoder ----------------------------------------------------
# BERT's layer structure (embeddings + LayerNorm, multi-head self-attention
# with an additive padding mask, erf-GELU feed-forward, post-LayerNorm
# residuals, tanh pooler over the first token) at a small size. Written out
# because PyTorch 1.13 cannot export nn.TransformerEncoder in eval mode (its
# fast path, aten::_transformer_encoder_layer_fwd, has no ONNX symbolic).

class BertEmbeddings(nn.Module):
    def __init__(self, vocab, max_positions, hidden):
        super().__init__()
        self.word = nn.Embedding(vocab, hidden)
        self.position = nn.Embedding(max_positions, hidden)
        self.token_type = nn.Embedding(2, hidden)
        self.norm = nn.LayerNorm(hidden, eps=1e-12)

    def forward(self, input_ids):
        seq = input_ids.shape[1]
        positions = torch.arange(seq, dtype=torch.long).unsqueeze(0)
        token_types = torch.zeros_like(input_ids)
        x = self.word(input_ids) + self.position(positions) + \
            self.token_type(token_types)
        return self.norm(x)


class BertLayer(nn.Module):
    def __init__(self, hidden, heads, intermediate):
        super().__init__()
        self.heads = heads
        self.scale = 1.0 / math.sqrt(hidden // heads)
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.attention_out = nn.Linear(hidden, hidden)
        self.attention_norm = nn.LayerNorm(hidden, eps=1e-12)
        self.intermediate = nn.Linear(hidden, intermediate)
        self.gelu = nn.GELU()  # the erf form, as BERT's
        self.output = nn.Linear(intermediate, hidden)
        self.output_norm = nn.LayerNorm(hidden, eps=1e-12)

    def split_heads(self, x):
        batch, seq, hidden = x.shape
        x = x.view(batch, seq, self.heads, hidden // self.heads)
        return x.transpose(1, 2)

    def forward(self, x, mask_bias):
        batch, seq, hidden = x.shape
        q = self.split_heads(self.query(x))
        k = self.split_heads(self.key(x))
        v = self.split_heads(self.value(x))
        scores = (q @ k.transpose(-1, -2)) * self.scale
        probs = torch.softmax(scores + mask_bias, dim=-1)
        context = (probs @ v).transpose(1, 2).reshape(batch, seq, hidden)
        x = self.attention_norm(x + self.attention_out(context))
        y = self.output(self.gelu(self.intermediate(x)))
        return self.output_norm(x + y)


class BertEncoder(nn.Module):
    def __init__(self, vocab=1000, max_positions=64, hidden=128, heads=4,
                 intermediate=512, layers=2):
        super().__init__()
        self.embeddings = BertEmbeddings(vocab, max_positions, hidden)
        self.layers = nn.ModuleList(
            BertLayer(hidden, heads, intermediate) for _ in range(layers))
        self.pooler = nn.Linear(hidden, hidden)

    def forward(self, input_ids, attention_mask):
        # 1 keeps a token, 0 masks it: masked keys get -10000 before softmax.
        mask_bias = (1.0 - attention_mask[:, None, None, :].float()) * -10000.0
        x = self.embeddings(input_ids)
        for layer in self.layers:
            x = layer(x, mask_bias)
        pooled = torch.tanh(self.pooler(x[:, 0]))
        return x, pooled


# The export traces the models on inputs of other sizes than the test's
# (`trace`), so that a size the trace saw, if the exporter baked it into the
# graph, cannot pass for the symbolic dim it should be.

def bert_inputs(rng, trace=False):
    batch, seq = (1, 8) if trace else (2, 16)
    input_ids = rng.integers(0, 1000, size=(batch, seq), dtype=np.int64)
    attention_mask = np.ones((batch, seq), dtype=np.int64)
    attention_mask[-1, seq * 2 // 3:] = 0  # the last sequence is padded
    return {"input_ids": input_ids, "attention_mask": attention_mask}


def image_input(rng, trace=False):
    batch = 2 if trace else 1
    return {"input": rng.standard_normal((batch, 3, 224, 224),
                                         dtype=np.float32)}


class Model(NamedTuple):
    make: Callable[[], nn.Module]
    inputs: Callable[..., Dict[str, np.ndarray]]  # (rng, trace=False)
    outputs: List[str]
    dynamic_axes: Dict[str, Dict[int, str]]  # inputs' and outputs' symbolic dims
    opset: int = 17


def torchvision_model(constructor):
    return Model(lambda: constructor(weights=None), image_input, ["logits"],
                 {"input": {0: "batch"}, "logits": {0: "batch"}})


BERT_DYNAMIC_AXES = {"input_ids": {0: "batch", 1: "sequence"},
                     "attention_mask": {0: "batch", 1: "sequence"},
                     "last_hidden_state": {0: "batch", 1: "sequence"},
                     "pooler_output": {0: "batch"}}

MODELS = {
    "resnet18": torchvision_model(torchvision.models.resnet18),
    "mobilenet_v2": torchvision_model(torchvision.models.mobilenet_v2),
    "squeezenet1_1": torchvision_model(torchvision.models.squeezenet1_1),
    "efficientnet_b0": torchvision_model(torchvision.models.efficientnet_b0),
    # HardSwish and HardSigmoid, which the models above do not use.
    "mobilenet_v3_small": torchvision_model(
        torchvision.models.mobilenet_v3_small),
    "bert_encoder": Model(BertEncoder, bert_inputs,
                          ["last_hidden_state", "pooler_output"],
                          BERT_DYNAMIC_AXES),
    # Below opset 17 the exporter decomposes LayerNorm (ReduceMean, Sub,
    # Pow, Sqrt, Div) and ReduceMean takes its axes as an attribute.
    "bert_encoder_opset13": Model(BertEncoder, bert_inputs,
                                  ["last_hidden_state", "pooler_output"],
                                  BERT_DYNAMIC_AXES, opset=13),
}


def randomize_batch_norms(model, generator):
    for m in model.modules():
        if isinstance(m, nn.modules.batchnorm._BatchNorm):
            n = m.num_features
            m.running_mean.copy_(torch.randn(n, generator=generator) * 0.1)
            m.running_var.copy_(torch.rand(n, generator=generator) + 0.5)
            m.weight.data.copy_(torch.rand(n, generator=generator) + 0.5)
            m.bias.data.copy_(torch.randn(n, generator=generator) * 0.1)


def export(name, outdir):
    make, make_inputs, output_names, dynamic_axes, opset = MODELS[name]
    torch.manual_seed(SEED)
    model = make().eval()
    with torch.no_grad():
        randomize_batch_norms(model, torch.Generator().manual_seed(SEED))
    inputs = make_inputs(np.random.default_rng(SEED))
    input_names = list(inputs)
    args = tuple(torch.from_numpy(a) for a in inputs.values())
    trace_args = tuple(torch.from_numpy(a) for a in make_inputs(
        np.random.default_rng(SEED), trace=True).values())

    folder = os.path.join(outdir, name)
    os.makedirs(folder, exist_ok=True)
    with torch.no_grad():
        outputs = model(*args)
        if isinstance(outputs, torch.Tensor):
            outputs = (outputs,)
        torch.onnx.export(model, trace_args,
                          os.path.join(folder, "model.onnx"),
                          opset_version=opset, input_names=input_names,
                          output_names=output_names, dynamic_axes=dynamic_axes,
                          do_constant_folding=True)
    for n, a in inputs.items():
        np.save(os.path.join(folder, n + ".npy"), a)
    for n, t in zip(output_names, outputs):
        np.save(os.path.join(folder, n + ".npy"), t.numpy())
    with open(os.path.join(folder, "model.json"), "w") as f:
        json.dump({"inputs": input_names, "outputs": output_names}, f,
                  indent=1)
    print(f"export-models: {name}: " + ", ".join(
        f"{n} {list(a.shape)}" for n, a in inputs.items()))


def main(argv):
    if argv[1:] == ["--list"]:
        print(";".join(MODELS))  # a CMake list
        return 0
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    outdir, names = argv[1], argv[2:] or list(MODELS)
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        print(f"export-models: unknown model(s) {unknown}; "
              f"known: {list(MODELS)}", file=sys.stderr)
        return 2
    # One thread: the outputs do not depend on the machine's core count, and
    # the export shares the machine with the rest of the test suite.
    torch.set_num_threads(1)
    for name in names:
        export(name, outdir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
