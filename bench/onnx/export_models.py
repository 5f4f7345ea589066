#!/usr/bin/python3
"""Exports the models of the CPU benchmark (issue 14: tcc against ONNX
Runtime) to ONNX with PyTorch, each as OUTDIR/<name>/model.onnx and
input_0.npy, with random weights (seed 0) and fixed shapes, opset 17.
The torchvision models are those of the real-model tests
(test/onnx-models/export-models.py, whose table this reads); the rest are
the benchmark's own.

Run with Debian's python3 (python3-torch 1.13, python3-torchvision 0.14):
  /usr/bin/python3 bench/onnx/export_models.py OUTDIR [NAME...]
"""
import argparse
import importlib.util
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from torch_models import DigitsCnn, encoder_layer, mlp  # noqa: E402  (bench/torch_models.py)


def tested_models():
    """The MODELS table of test/onnx-models/export-models.py."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "test",
                        "onnx-models", "export-models.py")
    spec = importlib.util.spec_from_file_location("onnx_model_tests", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.MODELS


def tested(name):
    """A model of the real-model tests: its constructor and the shape of its one input."""
    model = tested_models()[name]
    (x,) = model.inputs(np.random.default_rng(0)).values()
    return model.make, x.shape


MODELS = {
    # name: (constructor, input shape)
    **{name: tested(name) for name in ("resnet18", "mobilenet_v2", "efficientnet_b0")},
    "encoder_layer": (encoder_layer, (1, 128, 256)),
    "mlp_b1": (mlp, (1, 784)),
    "mlp_b64": (mlp, (64, 784)),
    "digits_cnn": (DigitsCnn, (1, 1, 8, 8)),
}


def export(name, out):
    make, shape = MODELS[name]
    torch.manual_seed(0)
    model = make().eval()
    x = torch.rand(shape)
    directory = os.path.join(out, name)
    os.makedirs(directory, exist_ok=True)
    torch.onnx.export(model, (x,), os.path.join(directory, "model.onnx"), opset_version=17,
                      input_names=["input"], output_names=["output"])
    np.save(os.path.join(directory, "input_0.npy"), x.numpy())


def main():
    parser = argparse.ArgumentParser(
        description="Exports the CPU benchmark's models to ONNX.")
    parser.add_argument("outdir", help="folder that gets one folder per model")
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help=f"models to export (default: all of {', '.join(MODELS)})")
    args = parser.parse_args()
    for name in args.names:
        if name not in MODELS:
            parser.error(f"unknown model '{name}' (known: {', '.join(MODELS)})")
    for name in args.names or list(MODELS):
        export(name, args.outdir)
        print(f"exported {name}", flush=True)


if __name__ == "__main__":
    main()
