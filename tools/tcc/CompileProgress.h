//===- CompileProgress.h - tcc compile's progress lines ---------*- C++ -*-===//
//
// Prints what ModelCompileOptions::progress reports, and the tool's own
// stages after it, as numbered lines on stderr:
//   [1/4] graph passes (-O2)
//   [2/4] lowering 37 kernels
//   [3/4] compiling kernel 12/37 (fused_conv2d_relu_3)
//   [4/4] writing model.bin
// On a terminal each kernel's line replaces the one before.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TOOLS_TCC_COMPILEPROGRESS_H
#define TCC_TOOLS_TCC_COMPILEPROGRESS_H

#include "tcc/Codegen/CompileProgress.h"

#include <cstdio>
#include <string>

namespace tcc {
namespace tool {

class CompileProgressPrinter {
public:
  /// `stages`: the compiler's three and the tool's after them.
  CompileProgressPrinter(int optLevel, int stages, bool terminal)
      : optLevel_(optLevel), stages_(stages), terminal_(terminal) {}
  ~CompileProgressPrinter() { endLine(); }

  void report(const mlir::tcc::CompileProgress &progress);
  /// One of the tool's stages, after the compiler's: 4, 5, ...
  void stage(int number, const std::string &what);

private:
  void print(int number, const std::string &what, bool replaceable);
  void endLine();

  int optLevel_, stages_;
  bool terminal_;
  bool openLine_ = false; // a terminal line that the next one may replace
};

} // namespace tool
} // namespace tcc

#endif // TCC_TOOLS_TCC_COMPILEPROGRESS_H
