#!/usr/bin/python3
"""Records what libtorch computes at the edges of each op's domain.

Writes LibtorchEdgeValues.inc (beside this script), which
LibtorchEdgeValuesTest.cpp holds tcc's eager ops to: every unary op on the
edge values of test/unittests/EdgeValues.h (NaN, +-0, subnormals, the
smallest normal, ordinary magnitudes, the largest finite value, +-inf) in
f32 and f64, every binary op on every pair of them in f32, and reductions
and softmax on rows that hold NaN, infinities, -0 and subnormals.
Also writes LibtorchNNEdgeValues.inc: normalization, pooling, losses,
matmul and convolution on ordinary operands with one edge value at a time
(the NN table below; test/unittests/LibtorchNNEdgeCases.h reads it).

Run with Debian's PyTorch 1.13 (python3-torch), the libtorch whose C++ API
tcc follows:

    /usr/bin/python3 test/unittests/Frontend/record_libtorch_edges.py

Results are bit patterns, taken from a tensor holding every input at once
(ATen's vectorized path, as a model's tensors take it), and from
one-element tensors (ATen's scalar path). Where the two paths of a correctly
rounded op disagree beyond NaN payloads (torch 1.13's maximum and minimum
order -0 and +0 differently in each), both are recorded and either is
libtorch's answer. The elementary functions' two paths differ by a few ulp
(gelu's by up to 5e-5 relative near -3); the script stops if they differ by
more than 1e-4.
"""

import math
import os
import sys

import numpy as np
import torch

DTYPES = {"f32": (torch.float32, np.float32, np.uint32),
          "f64": (torch.float64, np.float64, np.uint64)}


def edge_values(np_type):
    """EdgeValues.h's list, in the same order."""
    info = np.finfo(np_type)
    values = [np_type(math.nan)]
    for m in [0.0, info.smallest_subnormal, info.smallest_normal / 2,
              info.smallest_normal, 0.5, 1, 1.5, 2.5, 3, 7, 30, 100,
              info.max, math.inf]:
        values += [np_type(m), -np_type(m)]
    return np.array(values, dtype=np_type)


UNARY = {
    "neg": torch.neg, "abs": torch.abs, "relu": torch.relu,
    "sign": torch.sign, "floor": torch.floor, "ceil": torch.ceil,
    "round": torch.round, "sqrt": torch.sqrt, "rsqrt": torch.rsqrt,
    "reciprocal": torch.reciprocal, "square": torch.square,
    "exp": torch.exp, "log": torch.log, "log1p": torch.log1p,
    "sin": torch.sin, "cos": torch.cos, "tanh": torch.tanh,
    "sigmoid": torch.sigmoid, "erf": torch.erf,
    "silu": torch.nn.functional.silu,
    "gelu": torch.nn.functional.gelu,
    "gelu_tanh": lambda x: torch.nn.functional.gelu(x, approximate="tanh"),
    "leaky_relu": lambda x: torch.nn.functional.leaky_relu(x, 0.01),
    "clamp": lambda x: torch.clamp(x, -1.5, 2.5),
    "logical_not": torch.logical_not,
}

# Correctly rounded (or exact) in IEEE arithmetic, so both of ATen's paths
# and tcc must agree bit for bit.
EXACT = {"neg", "abs", "relu", "sign", "floor", "ceil", "round", "sqrt",
         "reciprocal", "square", "clamp", "logical_not", "leaky_relu",
         "add", "sub", "mul", "div", "maximum", "minimum", "eq", "ne", "lt",
         "le", "gt", "ge", "logical_and", "logical_or", "logical_xor"}

BINARY = {
    "add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div,
    "pow": torch.pow, "maximum": torch.maximum, "minimum": torch.minimum,
    "eq": torch.eq, "ne": torch.ne, "lt": torch.lt, "le": torch.le,
    "gt": torch.gt, "ge": torch.ge, "logical_and": torch.logical_and,
    "logical_or": torch.logical_or, "logical_xor": torch.logical_xor,
}

# Rows of three; each reduction runs along dim 1.
NAN, INF, TINY = math.nan, math.inf, 1e-45
ROWS = [
    [1.0, NAN, 2.0], [NAN, NAN, 1.0], [INF, 1.0, 2.0], [-INF, 1.0, 2.0],
    [INF, -INF, 0.0], [-INF, -INF, -INF], [INF, INF, 1.0],
    [-0.0, -0.0, -0.0], [-0.0, 0.0, -0.0], [TINY, TINY, -TINY],
    [3.4e38, 3.4e38, 1.0], [-3.4e38, 1.0, 3.4e38], [2.0, 2.0, 1.0],
]

REDUCTIONS = {
    "sum": lambda x: x.sum(1), "mean": lambda x: x.mean(1),
    "prod": lambda x: x.prod(1), "amax": lambda x: x.amax(1),
    "amin": lambda x: x.amin(1), "max": lambda x: x.max(1).values,
    "min": lambda x: x.min(1).values,
    "argmax": lambda x: x.argmax(1).double(),
    "argmin": lambda x: x.argmin(1).double(),
    "var": lambda x: x.var(1), "std": lambda x: x.std(1),
    "logsumexp": lambda x: x.logsumexp(1),
    "softmax": lambda x: x.softmax(1),
    "log_softmax": lambda x: x.log_softmax(1),
}


def bits(t, dtype_name):
    """The bit patterns of a float result (bools and indices as f64)."""
    _, np_type, uint = DTYPES[dtype_name]
    a = t.detach().to(torch.float32 if np_type == np.float32 else
                      torch.float64).numpy().astype(np_type)
    return [int(b) for b in a.reshape(-1).view(uint)]


def disagreements(op, a, b, dtype_name):
    """The indices where a and b differ: bit for bit for EXACT ops, else
    beyond 1e-4 relative; any NaN equals any NaN."""
    np_type, uint = DTYPES[dtype_name][1:]
    fa = np.array(a, dtype=uint).view(np_type).astype(np.float64)
    fb = np.array(b, dtype=uint).view(np_type).astype(np.float64)
    differ = []
    for i, (x, y, fx, fy) in enumerate(zip(a, b, fa, fb)):
        if np.isnan(fx) or np.isnan(fy):
            ok = np.isnan(fx) and np.isnan(fy)
        elif op in EXACT or np.isinf(fx) or np.isinf(fy):
            ok = x == y
        else:
            ok = abs(fx - fy) <= 1e-4 * abs(fx) + 1e-30
        if not ok:
            differ.append(i)
    return differ


def record(kind, op, dtype_name, vector, scalar):
    """One line: the vector path's bits, and the scalar path's where an
    exact op's two paths disagree ("index:bits ...")."""
    differ = disagreements(op, vector, scalar, dtype_name)
    if differ and op not in EXACT:
        sys.exit(f"{op} {dtype_name}: ATen's two paths differ by more than "
                 f"1e-4 at {differ}")
    digits = 8 if dtype_name == "f32" else 16
    alternates = " ".join(f"{i}:{scalar[i]:0{digits}x}" for i in differ)
    return (f'TCC_EDGE_{kind}({op}, {dtype_name}, '
            f'"{hex_string(vector, dtype_name)}", "{alternates}")')


def hex_string(values, dtype_name):
    digits = 8 if dtype_name == "f32" else 16
    return " ".join(f"{v:0{digits}x}" for v in values)


def result_dtype(dtype_name, t):
    """Bools are recorded as 0/1 in the input's float type."""
    return t.to(DTYPES[dtype_name][0]) if t.dtype == torch.bool else t


# The ops beyond the elementwise ones: each case is an ordinary input of
# the op with one edge value put at one place (EDGE_SITES) or a whole
# operand of edge values (WHOLE_CASES), so that each result shows how that
# value travels through the op. F = torch.nn.functional.
F = torch.nn.functional
EDGES = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf, "-0": -0.0,
         "sub": 1e-45, "-sub": -1e-45, "max": 3.4028234663852886e38}


def ordinary(*shape, start=0):
    """Deterministic small values with a zero among them (so that inf
    meets 0 in products), exact in f32."""
    n = math.prod(shape)
    values = [((i * 7 + start) % 11 - 5) / 4 for i in range(n)]
    return torch.tensor(values, dtype=torch.float32).reshape(shape)


def probabilities(*shape):
    n = math.prod(shape)
    values = [((i * 5) % 9 + 0.5) / 10 for i in range(n)]
    return torch.tensor(values, dtype=torch.float32).reshape(shape)


def targets(*shape, classes):
    n = math.prod(shape)
    return torch.tensor([(i * 2 + 1) % classes for i in range(n)],
                        dtype=torch.float32).reshape(shape)


# op: (function of the float32 operands, the operands, where edge values
# go as (operand, flat index) pairs). Integer operands (class targets) are
# passed as floats and converted by the op, as the test does.
NN = {
    "linear": (lambda x, w, b: F.linear(x, w, b),
               [ordinary(2, 3), ordinary(4, 3, start=3), ordinary(4, start=1)],
               [(0, 1), (1, 5), (2, 2)]),
    "mm": (torch.mm, [ordinary(3, 4), ordinary(4, 2, start=2)],
           [(0, 5), (1, 3)]),
    "mv": (torch.mv, [ordinary(3, 4), ordinary(4, start=5)], [(0, 1), (1, 2)]),
    "bmm": (torch.bmm, [ordinary(2, 2, 3), ordinary(2, 3, 2, start=4)],
            [(0, 7), (1, 2)]),
    "conv1d": (lambda x, w, b: F.conv1d(x, w, b, padding=1),
               [ordinary(1, 2, 6), ordinary(2, 2, 3, start=1),
                ordinary(2, start=2)],
               [(0, 3), (1, 4), (2, 1)]),
    "conv2d": (lambda x, w, b: F.conv2d(x, w, b, padding=1),
               [ordinary(1, 2, 4, 4), ordinary(3, 2, 3, 3, start=1),
                ordinary(3, start=2)],
               [(0, 5), (0, 16), (1, 4), (1, 0), (2, 1)]),
    "conv2d_stride2": (lambda x, w: F.conv2d(x, w, stride=2),
                       [ordinary(1, 1, 5, 5), ordinary(2, 1, 3, 3, start=1)],
                       [(0, 12), (1, 8)]),
    "max_pool2d": (lambda x: F.max_pool2d(x, 2), [ordinary(1, 2, 4, 4)],
                   [(0, 0), (0, 5), (0, 21)]),
    "max_pool2d_pad": (lambda x: F.max_pool2d(x, 3, 1, 1),
                       [ordinary(1, 1, 4, 4)], [(0, 0), (0, 6)]),
    "avg_pool2d": (lambda x: F.avg_pool2d(x, 2), [ordinary(1, 2, 4, 4)],
                   [(0, 0), (0, 5), (0, 21)]),
    "avg_pool2d_pad": (lambda x: F.avg_pool2d(x, 3, 1, 1),
                       [ordinary(1, 1, 4, 4)], [(0, 0), (0, 6)]),
    "avg_pool2d_pad_exclude": (
        lambda x: F.avg_pool2d(x, 3, 1, 1, count_include_pad=False),
        [ordinary(1, 1, 4, 4)], [(0, 0), (0, 6)]),
    "adaptive_avg_pool2d": (lambda x: F.adaptive_avg_pool2d(x, (2, 3)),
                            [ordinary(1, 2, 5, 5)], [(0, 0), (0, 12)]),
    "batch_norm_eval": (
        lambda x, m, v, w, b: F.batch_norm(x, m, v, w, b, training=False),
        [ordinary(2, 3, 2, 2), ordinary(3, start=1), probabilities(3),
         ordinary(3, start=4), ordinary(3, start=6)],
        [(0, 5), (1, 1), (2, 1), (3, 1), (4, 1)]),
    "batch_norm_train": (
        lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True),
        [ordinary(2, 3, 2, 2), ordinary(3, start=4), ordinary(3, start=6)],
        [(0, 5), (1, 1), (2, 1)]),
    "layer_norm": (lambda x, w, b: F.layer_norm(x, [5], w, b),
                   [ordinary(2, 5), ordinary(5, start=4), ordinary(5, start=6)],
                   [(0, 2), (1, 3), (2, 3)]),
    "mse_loss": (lambda x, y: F.mse_loss(x, y), [ordinary(2, 3),
                 ordinary(2, 3, start=2)], [(0, 1), (1, 4)]),
    "mse_loss_none": (lambda x, y: F.mse_loss(x, y, reduction="none"),
                      [ordinary(2, 3), ordinary(2, 3, start=2)], [(0, 1)]),
    "l1_loss": (lambda x, y: F.l1_loss(x, y), [ordinary(2, 3),
                ordinary(2, 3, start=2)], [(0, 1), (1, 4)]),
    "smooth_l1_loss": (lambda x, y: F.smooth_l1_loss(x, y, reduction="none"),
                       [ordinary(2, 3), ordinary(2, 3, start=2)],
                       [(0, 1), (1, 4)]),
    "binary_cross_entropy": (
        lambda x, y: F.binary_cross_entropy(x, y, reduction="none"),
        [probabilities(2, 3), probabilities(2, 3).flip(1).contiguous()],
        [(0, 1), (1, 4)]),
    "binary_cross_entropy_with_logits": (
        lambda x, y: F.binary_cross_entropy_with_logits(x, y,
                                                        reduction="none"),
        [ordinary(2, 3), probabilities(2, 3)], [(0, 1), (1, 4)]),
    "nll_loss": (lambda x, t: F.nll_loss(x, t.long()),
                 [ordinary(3, 4), targets(3, classes=4)], [(0, 3), (0, 4)]),
    "cross_entropy": (lambda x, t: F.cross_entropy(x, t.long()),
                      [ordinary(3, 4), targets(3, classes=4)],
                      [(0, 3), (0, 4)]),
    "cross_entropy_none": (
        lambda x, t: F.cross_entropy(x, t.long(), reduction="none"),
        [ordinary(3, 4), targets(3, classes=4)], [(0, 3), (0, 4)]),
}

# Probabilities for binary_cross_entropy: edge values that are not
# probabilities (nan, inf, max) are errors there, so only 0, -0, 1 and
# subnormals go in (ATen refuses the others).
BCE_EDGES = {"0": 0.0, "-0": -0.0, "1": 1.0, "sub": 1e-45}


def edge_cases(op):
    """(label, operands) for each edge value at each site, then whole
    operands of edge values: every operand 0 is all -0, all subnormal, and
    one holding both infinities."""
    fn, operands, sites = NN[op]
    edges = BCE_EDGES if op == "binary_cross_entropy" else EDGES
    for operand, index in sites:
        for name, value in edges.items():
            xs = [t.clone() for t in operands]
            xs[operand].view(-1)[index] = value
            yield f"{op}: operand {operand}[{index}] = {name}", xs
    if op == "binary_cross_entropy":
        return
    first = operands[0]
    wholes = {"-0": torch.full_like(first, -0.0),
              "sub": torch.full_like(first, 1e-45)}
    both = first.clone().view(-1)
    both[0], both[-1] = math.inf, -math.inf
    wholes["+-inf"] = both.reshape(first.shape)
    for name, value in wholes.items():
        yield f"{op}: operand 0 all {name}", [value] + operands[1:]


def record_nn():
    out = [
        "// Generated by record_libtorch_edges.py with torch "
        f"{torch.__version__}; do not edit.",
        "// TCC_EDGE_NN(op, label, shapes, operands, result): f32 operands",
        "//   ('2x3;4' shapes, operands' bits separated by ';') and the",
        "//   op's result, also f32 bits (nnEdgeOps in",
        "//   test/unittests/LibtorchNNEdgeCases.h says what each op computes).",
    ]
    for op in NN:
        fn = NN[op][0]
        for label, xs in edge_cases(op):
            result = fn(*[x.clone() for x in xs])
            shapes = ";".join("x".join(str(d) for d in x.shape) for x in xs)
            operands = ";".join(hex_string(bits(x, "f32"), "f32") for x in xs)
            out.append(f'TCC_EDGE_NN({op}, "{label}", "{shapes}", '
                       f'"{operands}", "{hex_string(bits(result, "f32"), "f32")}")')
    return out


def write(name, lines):
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(path + ".tmp", path)
    print(f"wrote {path}")


def main():
    torch.set_num_threads(1)
    out = [
        "// Generated by record_libtorch_edges.py with torch "
        f"{torch.__version__}; do not edit.",
        "// TCC_EDGE_INPUTS(dtype, bits): the edge values (EdgeValues.h).",
        "// TCC_EDGE_UNARY(op, dtype, bits, alternates): op of each input;",
        "//   alternates: 'index:bits' where ATen's scalar path differs.",
        "// TCC_EDGE_BINARY(op, dtype, bits, alternates): op(a_i, b_j),",
        "//   row-major.",
        "// TCC_EDGE_ROWS(bits): the rows the reductions take, f32.",
        "// TCC_EDGE_REDUCE(op, bits): op along dim 1 of the rows, f32.",
    ]
    for name, (torch_type, np_type, _) in DTYPES.items():
        xs = edge_values(np_type)
        x = torch.from_numpy(xs.copy())
        out.append(f'TCC_EDGE_INPUTS({name}, "{hex_string(bits(x, name), name)}")')
        for op, fn in UNARY.items():
            got = bits(result_dtype(name, fn(x)), name)
            one = sum((bits(result_dtype(name, fn(x[i:i + 1].clone())), name)
                       for i in range(len(xs))), [])
            out.append(record("UNARY", op, name, got, one))
        if name != "f32":
            continue
        a, b = x.reshape(-1, 1), x.reshape(1, -1)
        for op, fn in BINARY.items():
            got = bits(result_dtype(name, fn(a, b)), name)
            n = len(xs)
            one = [bits(result_dtype(name, fn(x[i:i + 1].clone(),
                                              x[j:j + 1].clone())), name)[0]
                   for i in range(n) for j in range(n)]
            out.append(record("BINARY", op, name, got, one))
    rows = torch.tensor(ROWS, dtype=torch.float32)
    out.append(f'TCC_EDGE_ROWS("{hex_string(bits(rows, "f32"), "f32")}")')
    for op, fn in REDUCTIONS.items():
        got = bits(fn(rows), "f32")
        out.append(f'TCC_EDGE_REDUCE({op}, "{hex_string(got, "f32")}")')
    write("LibtorchEdgeValues.inc", out)
    write("LibtorchNNEdgeValues.inc", record_nn())


if __name__ == "__main__":
    main()
