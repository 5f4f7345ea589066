#!/usr/bin/env python3
"""ptxas accepts the cuda target's kernels for sm_80 and sm_90.

Usage: check_ptxas.py TCC WORKDIR MODEL.mlir...

Compiles each model with `tcc compile --target cuda --gpu sm_80 --gpu sm_90`,
then checks, independently of the compiler's own ptxas run, each PTX image
the artifact carries (found through `tcc inspect --json`): it declares no
external function (no libdevice call), and ptxas assembles it for its
architecture. It prints ptxas's register use, shared memory and spills per
kernel (the record the issue asks for) and checks that each cubin is an ELF file for
NVIDIA GPUs. Exits 77 (ctest: skipped), saying so, when there is no ptxas.
"""

import json
import os
import re
import shutil
import subprocess
import sys

ARCHS = ["sm_80", "sm_90"]
EM_CUDA = 190  # ELF e_machine of NVIDIA GPU code


def find_ptxas():
    candidates = [os.environ.get("TCC_PTXAS"), shutil.which("ptxas"),
                  "/usr/local/cuda/bin/ptxas"]
    for path in candidates:
        if path and os.access(path, os.X_OK):
            return path
    return None


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def main():
    tcc, workdir, models = sys.argv[1], sys.argv[2], sys.argv[3:]
    ptxas = find_ptxas()
    if not ptxas:
        print("SKIP: no ptxas (install the CUDA toolkit, or set TCC_PTXAS)")
        return 77
    os.makedirs(workdir, exist_ok=True)
    env = dict(os.environ, TCC_PTXAS=ptxas)
    checked = 0
    for model in models:
        name = os.path.splitext(os.path.basename(model))[0]
        artifact = os.path.join(workdir, name + ".bin")
        compiled = subprocess.run(
            [tcc, "compile", model, "-o", artifact, "--target", "cuda",
             "--no-progress"] + ["--gpu=" + a for a in ARCHS],
            env=env, capture_output=True, text=True)
        if compiled.returncode != 0:
            fail(f"{model}: tcc compile --target cuda failed:\n"
                 f"{compiled.stderr}")
        info = json.loads(subprocess.run(
            [tcc, "inspect", artifact, "--json"], check=True,
            capture_output=True, text=True).stdout)
        cuda = [m for m in info["code_modules"] if m["kind"] == "cuda"]
        if len(cuda) != 1:
            fail(f"{name}: {len(cuda)} cuda modules, expected 1")
        images = {(i["arch"], i["format"]): i for i in cuda[0]["images"]}
        expected = {(a, f) for a in ARCHS for f in ("ptx", "cubin")}
        if set(images) != expected:
            fail(f"{name}: images {sorted(images)}, expected {sorted(expected)}")
        with open(artifact, "rb") as f:
            data = f.read()
        for arch in ARCHS:
            ptx_image = images[(arch, "ptx")]
            ptx = data[ptx_image["offset"]:ptx_image["offset"] +
                       ptx_image["bytes"]].decode()
            if ".extern" in ptx:
                fail(f"{name} {arch}: the PTX declares an external function:\n"
                     + "\n".join(l for l in ptx.splitlines() if ".extern" in l))
            if f".target {arch}" not in ptx:
                fail(f"{name} {arch}: the PTX is not for {arch}")
            ptx_path = os.path.join(workdir, f"{name}.{arch}.ptx")
            with open(ptx_path, "w") as f:
                f.write(ptx)
            assembled = subprocess.run(
                [ptxas, "-arch=" + arch, "-O3", "-v", "-o",
                 ptx_path + ".cubin", ptx_path],
                capture_output=True, text=True)
            if assembled.returncode != 0:
                fail(f"{name} {arch}: ptxas refused the PTX:\n"
                     f"{assembled.stderr}")
            # "Compiling entry function 'f' for 'sm_90'" ... "Used 12
            # registers, used 1 barriers, 128 bytes smem" ... "0 bytes spill
            # stores, 0 bytes spill loads"
            function = None
            for line in assembled.stderr.splitlines():
                entry = re.search(r"entry function '([^']+)'", line)
                if entry:
                    function = entry.group(1)
                spills = re.search(r"(\d+) bytes spill stores, (\d+) bytes "
                                   r"spill loads", line)
                regs = re.search(r"Used (\d+) registers", line)
                shared = re.search(r"(\d+) bytes smem", line)
                if spills:
                    print(f"{name} {arch} {function}: spill stores "
                          f"{spills.group(1)} B, spill loads {spills.group(2)} B")
                if regs:
                    print(f"{name} {arch} {function}: {regs.group(1)} registers"
                          + (f", {shared.group(1)} B shared memory"
                             if shared else ""))
            cubin_image = images[(arch, "cubin")]
            cubin = data[cubin_image["offset"]:cubin_image["offset"] +
                         cubin_image["bytes"]]
            machine = int.from_bytes(cubin[18:20], "little")
            if cubin[:4] != b"\x7fELF" or machine != EM_CUDA:
                fail(f"{name} {arch}: the cubin is not an ELF file for NVIDIA "
                     f"GPUs (e_machine {machine})")
            checked += 1
    print(f"ptxas accepted {checked} PTX images of {len(models)} models")
    return 0


if __name__ == "__main__":
    sys.exit(main())
