//===- Bench.h - tcc bench, with or without the interpreter -----*- C++ -*-===//
//
// The bench subcommand needs only the runtime, except --against-ir, which
// times the reference interpreter (the eager library). `tcc` passes a timer
// (BenchAgainstIr.cpp); the runtime-only `tcc-run` passes none.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TOOLS_TCC_BENCH_H
#define TCC_TOOLS_TCC_BENCH_H

#include "tcc/runtime/Npy.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tcc {
namespace tool {

/// Times the interpreter on the IR at `irPath` with `inputs`: `warmup`
/// untimed runs, then `iterations` timed ones on `threads` threads, each
/// after `beforeRun` (untimed); appends milliseconds per run to `ms`.
/// Returns an error message, or "" on success.
using InterpreterTimer = std::function<std::string(
    const std::string &irPath, const std::vector<runtime::NpyArray> &inputs,
    int threads, int64_t warmup, int64_t iterations,
    const std::function<void()> &beforeRun, std::vector<double> *ms)>;

/// `bench`'s entry point; an empty timer refuses --against-ir.
int runBench(int argc, char **argv, const InterpreterTimer &timeInterpreter);

} // namespace tool
} // namespace tcc

#endif // TCC_TOOLS_TCC_BENCH_H
