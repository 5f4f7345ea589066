//===- EntryFunction.cpp - Which function of a module a tool runs ---------===//

#include "tcc/IR/EntryFunction.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tcc;

static std::string functionList(ModuleOp module, bool publicOnly) {
  std::vector<std::string> names;
  for (auto fn : module.getOps<func::FuncOp>())
    if (!publicOnly || (fn.isPublic() && !fn.isDeclaration()))
      names.push_back("@" + fn.getSymName().str());
  return names.empty() ? "none" : llvm::join(names, ", ");
}

func::FuncOp mlir::tcc::findEntryFunction(ModuleOp module, StringRef name,
                                          std::string *error) {
  if (!name.empty()) {
    auto fn = module.lookupSymbol<func::FuncOp>(name);
    if (!fn) {
      *error = "the module has no function @" + name.str() + " (functions: " +
               functionList(module, false) + ")";
      return nullptr;
    }
    if (fn.isDeclaration()) {
      *error = "@" + name.str() + " is a declaration without a body";
      return nullptr;
    }
    return fn;
  }
  func::FuncOp entry;
  int candidates = 0;
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn.isPublic() && !fn.isDeclaration()) {
      entry = fn;
      ++candidates;
    }
  if (candidates == 1)
    return entry;
  *error = candidates == 0
               ? "the module has no public function with a body to run"
               : "the module has several public functions (" +
                     functionList(module, true) + "); name the one to run";
  return nullptr;
}
