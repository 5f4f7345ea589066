//===- CompileProgress.cpp - tcc compile's progress lines -----------------===//

#include "CompileProgress.h"

namespace tcc {
namespace tool {

using mlir::tcc::CompileProgress;

void CompileProgressPrinter::report(const CompileProgress &progress) {
  switch (progress.stage) {
  case CompileProgress::Stage::GraphPasses:
    return print(1, "graph passes (-O" + std::to_string(optLevel_) + ")",
                 false);
  case CompileProgress::Stage::Lowering:
    return print(2,
                 "lowering " + std::to_string(progress.items) + " kernel" +
                     (progress.items == 1 ? "" : "s"),
                 false);
  case CompileProgress::Stage::Compiling:
    return print(3,
                 "compiling kernel " + std::to_string(progress.item) + "/" +
                     std::to_string(progress.items) + " (" + progress.kernel +
                     ")",
                 true);
  }
}

void CompileProgressPrinter::stage(int number, const std::string &what) {
  print(number, what, false);
}

void CompileProgressPrinter::print(int number, const std::string &what,
                                   bool replaceable) {
  if (openLine_ && replaceable)
    std::fputs("\r\033[K", stderr); // back to the line's start, cleared
  else
    endLine();
  std::fprintf(stderr, "[%d/%d] %s", number, stages_, what.c_str());
  openLine_ = terminal_ && replaceable;
  if (!openLine_)
    std::fputc('\n', stderr);
  std::fflush(stderr);
}

void CompileProgressPrinter::endLine() {
  if (openLine_)
    std::fputc('\n', stderr);
  openLine_ = false;
}

} // namespace tool
} // namespace tcc
