"""The PyTorch models of tcc's benchmarks, in one place: the CPU benchmark
against ONNX Runtime (bench/onnx/export_models.py) exports them, and the GPU
benchmark (bench/cuda/) exports them here and rebuilds them as its PyTorch
peer on the GPU machine, where its seeded weights are regenerated bit for
bit (seeded_state), so that no artifact has to carry them.

Needs torch (1.13 or newer) and numpy; torchvision for resnet18 only.
"""
import os
import sys

import numpy as np
import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seeded import seeded_uniform  # noqa: E402


class DigitsCnn(nn.Module):
    """examples/digits_cnn/DigitsNet.h, layer for layer."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc1 = nn.Linear(32 * 4 * 4, 64)
        self.fc2 = nn.Linear(64, 10)

    def forward(self, x):
        x = torch.relu(self.conv1(x))
        x = torch.max_pool2d(torch.relu(self.conv2(x)), 2).flatten(1)
        return torch.log_softmax(self.fc2(torch.relu(self.fc1(x))), 1)


def mlp():
    return nn.Sequential(nn.Linear(784, 4096), nn.ReLU(), nn.Linear(4096, 4096), nn.ReLU(),
                         nn.Linear(4096, 10))


def encoder_layer():
    return nn.TransformerEncoderLayer(256, 4, 2048, dropout=0.0, batch_first=True)


def resnet18():
    import torchvision  # only this model needs it
    return torchvision.models.resnet18(weights=None)


# --- Seeded weights, the same on every machine (bench/seeded.py) ------------

def seeded_state(model, seed=0):
    """Seeded values for every float parameter and buffer of `model`, by
    state-dict name: weights uniform with variance 2 / fan_in (He, for the
    ReLU networks) or 1 / fan_in, biases small, norm scales near 1.
    BatchNorm is the identity plus a seeded shift (mean 0, var + eps == 1 in
    float32, scale 1), so that folding it into the convolution, as the ONNX
    exporter does, leaves the seeded weights bit for bit."""
    state = {}
    for module_name, module in model.named_modules():
        prefix = module_name + "." if module_name else ""
        for name, tensor in list(module.named_parameters(recurse=False)) + \
                list(module.named_buffers(recurse=False)):
            if not tensor.is_floating_point():
                continue
            full = prefix + name
            shape = tuple(tensor.shape)
            if isinstance(module, nn.BatchNorm2d):
                values = {
                    "weight": np.ones(shape, np.float32),
                    "bias": seeded_uniform(full, shape, 0.05, seed) if name == "bias" else None,
                    "running_mean": np.zeros(shape, np.float32),
                    "running_var": np.full(shape, np.float32(1.0) - np.float32(module.eps),
                                           np.float32),
                }[name]
            elif isinstance(module, nn.LayerNorm):
                values = (np.float32(1) + seeded_uniform(full, shape, 0.125, seed)
                          if name == "weight" else seeded_uniform(full, shape, 0.05, seed))
            elif len(shape) >= 2:
                fan_in = int(np.prod(shape[1:]))
                gain = 6.0 if isinstance(module, nn.Conv2d) or len(shape) == 4 else 3.0
                values = seeded_uniform(full, shape, float(np.sqrt(gain / fan_in)), seed)
            else:
                values = seeded_uniform(full, shape, 0.05, seed)
            state[full] = values.astype(np.float32)
    return state


def load_state(model, state):
    """Copies `state` (seeded_state's) into the model's tensors."""
    tensors = dict(model.named_parameters())
    tensors.update(dict(model.named_buffers()))
    with torch.no_grad():
        for name, values in state.items():
            tensors[name].copy_(torch.from_numpy(values))
    return model


def seeded_input(name, shape, seed=0):
    """The model input: uniform in [-1, 1] on a 2^-15 grid."""
    return seeded_uniform("input:" + name, shape, 1.0, seed, bits=16)


# name: (constructor, input shape)
MODELS = {
    "mlp_b1": (mlp, (1, 784)),
    "mlp_b64": (mlp, (64, 784)),
    "digits_cnn": (DigitsCnn, (1, 1, 8, 8)),
    "resnet18_b1": (resnet18, (1, 3, 224, 224)),
    "resnet18_b32": (resnet18, (32, 3, 224, 224)),
    "encoder_layer": (encoder_layer, (1, 128, 256)),
}


def build(name, seed=0):
    """The model `name` in eval mode with its seeded weights, and its input."""
    make, shape = MODELS[name]
    model = make().eval()
    load_state(model, seeded_state(model, seed))
    return model, seeded_input(name, shape, seed)
