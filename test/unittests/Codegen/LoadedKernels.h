//===- LoadedKernels.h - call a KernelObject's kernels directly -*- C++ -*-===//
//
// Loads compiled kernels the way the runtime loads an artifact's code (a
// CodeModule, its import table filled from the runtime's functions), so a
// test can call them on any CPU: code for a CPU without FMA or SSE4.1 calls
// fmaf/floorf through that table.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_CODEGEN_LOADEDKERNELS_H
#define TCC_TEST_CODEGEN_LOADEDKERNELS_H

#include "tcc/Codegen/KernelCompiler.h"

#include <cstdint>
#include <memory>
#include <string>

namespace tcc_test {

using KernelFn = void (*)(void *const *, int64_t, int64_t);

/// Whether this host may run code compiled for `target`, by the runtime's
/// definition of its CPU (what the loader would decide for an artifact).
bool hostRuns(const mlir::tcc::CpuTarget &target);

class LoadedKernels {
public:
  /// Loads `object`; a failure is reported to GoogleTest.
  explicit LoadedKernels(const mlir::tcc::KernelObject &object);
  ~LoadedKernels();

  /// The kernel `symbol`, or nullptr (and a test failure) when the object
  /// did not load or does not define it.
  KernelFn get(const std::string &symbol) const;

private:
  struct Code; // the runtime's CodeModule (no ::tcc names here: tests use
               // `using namespace mlir`, whose tcc would be ambiguous)
  std::unique_ptr<Code> code_;
};

} // namespace tcc_test

#endif // TCC_TEST_CODEGEN_LOADEDKERNELS_H
