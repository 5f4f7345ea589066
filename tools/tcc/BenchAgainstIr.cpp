//===- BenchAgainstIr.cpp - tcc bench with --against-ir -------------------===//
//
// The part of `tcc bench` that needs the eager library: timing the reference
// interpreter on the model's IR. The runtime-only `tcc-run` leaves it out.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"
#include "Subcommands.h"

#include "tcc/Frontend/RuntimeDtype.h"
#include "tcc/jit.h"

#include <chrono>
#include <cstring>
#include <optional>

namespace tcc {
namespace tool {

namespace {

std::string timeInterpreter(const std::string &irPath,
                            const std::vector<runtime::NpyArray> &arrays,
                            int threads, int64_t warmup, int64_t iterations,
                            const std::function<void()> &beforeRun,
                            std::vector<double> *ms) {
  try {
    set_num_threads(threads);
    jit::LoadOptions text; // bytecode: convert it with tcc-opt first
    text.allowBytecode = false;
    jit::Interpreter interp = jit::Interpreter::load(irPath, text);
    std::vector<Tensor> inputs;
    for (const runtime::NpyArray &a : arrays) {
      std::optional<ScalarType> dtype = from_runtime_dtype(a.dtype);
      if (!dtype)
        return "an input has a dtype the interpreter cannot take";
      Tensor t = empty(a.shape, TensorOptions().dtype(*dtype));
      std::memcpy(t.data_ptr(), a.data.data(), a.data.size());
      inputs.push_back(t);
    }
    for (int64_t i = 0; i < warmup; ++i)
      interp.run(inputs);
    for (int64_t i = 0; i < iterations; ++i) {
      beforeRun();
      auto t0 = std::chrono::steady_clock::now();
      interp.run(inputs);
      ms->push_back(std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - t0)
                        .count());
    }
  } catch (const std::exception &e) {
    return e.what();
  }
  return "";
}

} // namespace

int benchMain(int argc, char **argv) {
  return runBench(argc, argv, timeInterpreter);
}

} // namespace tool
} // namespace tcc
