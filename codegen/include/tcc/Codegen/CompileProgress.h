//===- CompileProgress.h - what a compile reports as it goes ----*- C++ -*-===//
//
// The model compiler reports each stage as it starts, and each kernel as
// LLVM's optimizer reaches it, through ModelCompileOptions::progress; the
// library prints nothing itself, so tools decide where (and whether) to
// show it.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_CODEGEN_COMPILEPROGRESS_H
#define TCC_CODEGEN_COMPILEPROGRESS_H

#include <cstddef>
#include <functional>
#include <string>

namespace mlir::tcc {

struct CompileProgress {
  enum class Stage {
    GraphPasses, // the graph pipeline of the optimization level
    Lowering,    // planning done: `items` kernels to lower (MLIR)
    Compiling,   // LLVM compiles kernel `item` (1-based) of `items`, `kernel`
  };
  Stage stage;
  size_t item = 0, items = 0;
  std::string kernel;
};

/// Called on the compiling thread; null: no reports.
using CompileProgressFn = std::function<void(const CompileProgress &)>;

} // namespace mlir::tcc

#endif // TCC_CODEGEN_COMPILEPROGRESS_H
