# lit configuration for tcc's FileCheck suites.
import os
import sys

import lit.formats

config.name = "tcc"
config.test_format = lit.formats.ShTest(not lit_config.useValgrind)
config.suffixes = [".mlir"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "unittests"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tcc_obj_root, "test")

# RUN lines generate big inputs with %python.
config.substitutions.append(("%python", sys.executable))

config.environment["FILECHECK_OPTS"] = "-enable-var-scope --allow-unused-prefixes=false"

# Tools resolve to the build tree first, then LLVM 19's (FileCheck, not, count).
# A tool name matches only as a whole word, not inside a path or a longer
# name (tcc in tcc-opt or in .../bin/tcc-opt).
for tool in ["tcc-opt", "tcc"]:
    path = os.path.join(config.tcc_tools_dir, tool)
    if os.path.exists(path):
        config.substitutions.append((r"(?<![\w./-])%s(?![\w.-])" % tool, path))
config.environment["PATH"] = os.pathsep.join(
    [config.tcc_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])

# Tests of code for named x86-64 CPUs run only where that code runs.
import platform
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86_64")
