"""The device check's benchmark table (issue 16), in markdown for
docs/performance.md, from what device_bench.py's stages measured; whatever
a stage did not measure reads n/a with its reason. The issue's targets:

- the fused elementwise chain reaches at least 0.8 of a device copy's GB/s;
- the GEMMs of the MLP at batch 64 and of the encoder layer run within 0.9
  of cuBLAS alone (torch.matmul, same shapes and precision);
- ResNet-18 (batch 1 and 32) and the encoder layer run faster than PyTorch
  eager at equal precision, and no slower than torch.compile.
"""
import datetime
import os

from common import GEMM_MODELS, PRECISIONS, TARGET_MODELS, ordered

CHAIN_TARGET = 0.8
GEMM_TARGET = 0.9


def _get(results, part, name, precision):
    """The stage's record, or why there is none."""
    if not results.get(part):
        return {"error": f"no {part}.json: the stage did not run"}
    return results[part].get("models", {}).get(name, {}).get(precision) or \
        {"error": "not measured: its stage stopped before it"}


def _ms(record):
    if "p50_ms" in record:
        text = f"{record['p50_ms']:.3f}"
        if "device_ms" in record:
            text += f" ({record['device_ms']:.3f})"
        return text
    return "n/a" + (f" ({_short(record['error'])})" if "error" in record else "")


def _short(text, limit=70):
    """An error in a table cell: its end says what failed."""
    text = text.replace("|", "/")
    return text if len(text) <= limit else "..." + text[-limit:]


def _ratio(torch_record, tcc_record):
    if "p50_ms" in torch_record and "p50_ms" in tcc_record:
        return torch_record["p50_ms"] / tcc_record["p50_ms"]
    return None


def _fmt(ratio, digits=2):
    return "n/a" if ratio is None else f"{ratio:.{digits}f}"


def _times(ratio):
    return "" if ratio is None else f" ({ratio:.2f}x)"


def _numerics(work, name, precision):
    """max |tcc - torch eager| / max |torch eager| at the same precision."""
    paths = [os.path.join(work, name, precision + ".tcc.npy"),
             os.path.join(work, name, f"torch-eager-{precision}.npy")]
    if not all(os.path.exists(p) for p in paths):
        return "n/a"
    import numpy as np
    try:
        ours, theirs = (np.load(p).astype(np.float64) for p in paths)
    except (OSError, ValueError):
        return "n/a"
    if ours.shape != theirs.shape:
        return f"shape {list(ours.shape)} vs {list(theirs.shape)}"
    scale = max(float(np.abs(theirs).max()), 1e-30)
    return f"{float(np.abs(ours - theirs).max()) / scale:.1e}"


def render(manifest, folder, work, results):
    eager, compiled = results.get("torch-eager", {}), results.get("torch-compile", {})
    gpu = eager.get("gpu") or compiled.get("gpu") or eager.get("device", "no GPU")
    commit = "?"
    try:
        with open(os.path.join(folder, "MANIFEST")) as f:
            commit = f.readline().split()[1][:12]
    except (OSError, IndexError):
        pass
    out = [f"### tcc against PyTorch on {gpu} ({datetime.date.today().isoformat()}, "
           f"tcc {commit}, torch {eager.get('torch') or compiled.get('torch', '?')})", ""]
    if eager.get("device") == "cpu":
        out += ["**Dry run on the CPU (no GPU): these numbers measure nothing.**", ""]
    out += ["Latency in ms, median of a whole run from host input to host output (for torch:",
            "input copied from pageable memory to the GPU, the model, the output copied back;",
            "in parentheses its device time alone, CUDA events). Speed-up: torch's latency over",
            "tcc's. Numerics: max |tcc - eager| / max |eager| at the same precision.",
            "torch.compile: mode reduce-overhead (CUDA graphs, as tcc replays its plan).", "",
            "| model | precision | tcc | eager | torch.compile | speed-up over eager "
            "| over compile | numerics |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name in ordered(manifest):
        for precision in PRECISIONS:
            ours = _get(results, "tcc", name, precision)
            e, c = _get(results, "torch-eager", name, precision), \
                _get(results, "torch-compile", name, precision)
            if "unavailable" in compiled:
                c = {"error": compiled["unavailable"]}
            out.append(f"| {name} | {precision} | {_ms(ours)} | {_ms(e)} | {_ms(c)} | "
                       f"{_fmt(_ratio(e, ours))} | {_fmt(_ratio(c, ours))} | "
                       f"{_numerics(work, name, precision)} |")
    out.append("")

    # The elementwise chain against a device copy.
    chain = results.get("tcc", {}).get("chain", {})
    copy = results.get("torch-micro", {}).get("copy", {})
    chain_ratio = chain["gbps"] / copy["gbps"] if "gbps" in chain and "gbps" in copy else None
    out += ["| elementwise chain (bench/cuda/chain.mlir) | tcc GB/s | device copy GB/s | ratio |",
            "| --- | ---: | ---: | ---: |",
            f"| {chain.get('what', 'n/a')} | "
            f"{_fmt(chain.get('gbps'), 0) if 'gbps' in chain else _ms(chain)}"
            f" | {_fmt(copy.get('gbps'), 0) if 'gbps' in copy else _ms(copy)}"
            f" | {_fmt(chain_ratio)} |", ""]

    # GEMMs: each tcc GEMM step against torch.matmul on its shape.
    torch_gemms = {(g["precision"], g["m"], g["n"], g["k"], g["batch"], g["trans_a"],
                    g["trans_b"]): g for g in results.get("torch-micro", {}).get("gemms", [])}
    gemm_ratios = {p: [] for p in PRECISIONS}
    out += ["GEMMs: tcc's steps (device time per step, `tcc-run bench --profile`) against "
            "torch.matmul (cuBLAS) on the same shape and precision.", "",
            "| model | precision | GEMM (m x n x k, batch) | tcc TFLOP/s | cuBLAS TFLOP/s | ratio |",
            "| --- | --- | --- | ---: | ---: | ---: |"]
    for name in GEMM_MODELS:
        for precision in PRECISIONS:
            record = _get(results, "tcc", name, precision)
            if "gemms" in record and not record["gemms"]:
                out.append(f"| {name} | {precision} | no GEMM library steps in tcc's plan "
                           "(generated kernels) | | | |")
            for g in record.get("gemms", []):
                theirs = torch_gemms.get((precision, g["m"], g["n"], g["k"], g["batch"],
                                          g["trans_a"], g["trans_b"]), {})
                ratio = g["tflops"] / theirs["tflops"] if "tflops" in theirs else None
                gemm_ratios[precision].append(ratio)
                out.append(f"| {name} | {precision} | {g['m']}x{g['n']}x{g['k']}, {g['batch']} | "
                           f"{g['tflops']:.1f} | "
                           f"{_fmt(theirs.get('tflops'), 1) if 'tflops' in theirs else 'n/a'} | "
                           f"{_fmt(ratio)} |")
    out.append("")

    # The targets.
    def mark(ok):
        return "n/a" if ok is None else ("**met**" if ok else "**missed**")

    out += ["Targets (issue 16):", ""]
    out.append(f"- elementwise chain >= {CHAIN_TARGET} of copy bandwidth: "
               f"{mark(None if chain_ratio is None else chain_ratio >= CHAIN_TARGET)} "
               f"({_fmt(chain_ratio)})")
    for precision in PRECISIONS:
        ratios = gemm_ratios[precision]
        known = [r for r in ratios if r is not None]
        ok = None if not known else min(known) >= GEMM_TARGET and len(known) == len(ratios)
        out.append(f"- {precision} GEMMs of {' and '.join(GEMM_MODELS)} within {GEMM_TARGET} "
                   f"of cuBLAS: {mark(ok)}"
                   + (f" (lowest {min(known):.2f} of {len(ratios)})" if known else ""))
    for name in TARGET_MODELS:
        for precision in PRECISIONS:
            ours = _get(results, "tcc", name, precision)
            vs_eager = _ratio(_get(results, "torch-eager", name, precision), ours)
            vs_compile = _ratio(_get(results, "torch-compile", name, precision), ours)
            out.append(f"- {name} {precision}: faster than eager "
                       f"{mark(None if vs_eager is None else vs_eager > 1)}{_times(vs_eager)}, "
                       f"no slower than torch.compile "
                       f"{mark(None if vs_compile is None else vs_compile >= 1)}"
                       f"{_times(vs_compile)}")
    return "\n".join(out)
