# lit configuration for tcc's FileCheck suites.
import os
import sys

import lit.formats

config.name = "tcc"
config.test_format = lit.formats.ShTest(not lit_config.useValgrind)
config.suffixes = [".mlir"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "unittests", "Inputs", "fuzz"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tcc_obj_root, "test")

# RUN lines generate big inputs with %python.
config.substitutions.append(("%python", sys.executable))

config.environment["FILECHECK_OPTS"] = "-enable-var-scope --allow-unused-prefixes=false"

# Tools resolve to the build tree first, then LLVM 19's (FileCheck, not, count).
# A tool name matches only as a whole word, not inside a path or a longer
# name (tcc in tcc-opt or in .../bin/tcc-opt).
for tool in ["tcc-opt", "tcc-run", "tcc"]:
    path = os.path.join(config.tcc_tools_dir, tool)
    if os.path.exists(path):
        config.substitutions.append((r"(?<![\w./-])%s(?![\w.-])" % tool, path))
config.environment["PATH"] = os.pathsep.join(
    [config.tcc_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])

# What this machine's CPU runs, as the runtime's loader decides it (`tcc
# host`): its architecture ("x86_64") and each present CPU feature
# ("host-cpu-fma") become lit features, so a test that runs code for a named
# CPU states what running it needs. Not platform.machine() or /proc/cpuinfo:
# a second definition that a VM can make disagree with the loader's.
import json
import subprocess
_host = json.loads(subprocess.run(
    [os.path.join(config.tcc_tools_dir, "tcc"), "host", "--json"],
    check=True, capture_output=True, text=True).stdout)
config.available_features.add(_host["arch"])
for _feature in _host["features"]:
    config.available_features.add("host-cpu-" + _feature)

# A build under the sanitizers (TCC_SANITIZE, scripts/sanitize.sh): its
# tools reserve terabytes of address space for shadow memory, so tests that
# cap memory with `ulimit -v` say `UNSUPPORTED: sanitizer`, and QEMU cannot
# run them.
config.tcc_sanitize = getattr(config, "tcc_sanitize", "")
if config.tcc_sanitize:
    config.available_features.add("sanitizer")

# QEMU's user-mode emulator runs the tools on CPU models whose features are
# known by construction (scripts/install-deps.sh installs qemu-user).
import shutil
# `tcc viz` draws SVG through Graphviz (scripts/install-deps.sh installs it).
if shutil.which("dot"):
    config.available_features.add("graphviz")
if shutil.which("qemu-x86_64") and not config.tcc_sanitize:
    config.available_features.add("qemu-x86_64")

# The cuda device plugin, built where CUDA's headers are, and the toolkit's
# stub driver, with which the plugin must report no driver.
if os.path.exists(os.path.join(config.tcc_obj_root, "lib", "libtcc_device_cuda.so")):
    config.available_features.add("cuda-plugin")
if os.path.exists(config.cuda_stub_driver):
    config.available_features.add("cuda-stub-driver")
    config.substitutions.append(("%cuda_stub_driver", config.cuda_stub_driver))
