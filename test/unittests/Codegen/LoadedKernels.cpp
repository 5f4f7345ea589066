//===- LoadedKernels.cpp - call a KernelObject's kernels directly ---------===//

#include "LoadedKernels.h"

#include "Executor/CodeModule.h"
#include "Executor/ImportTable.h"
#include "tcc/runtime/CpuFeatures.h"

#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

namespace tcc_test {

using tcc::runtime::Status;
using tcc::runtime::detail::CodeModule;

struct LoadedKernels::Code {
  std::unique_ptr<CodeModule> module;
};

bool hostRuns(const mlir::tcc::CpuTarget &target) {
  return tcc::runtime::hostCpuHasAll(
      llvm::join(target.requiredFeatures(), ","));
}

LoadedKernels::LoadedKernels(const mlir::tcc::KernelObject &object)
    : code_(std::make_unique<Code>()) {
  const std::vector<uint8_t> &elf = object.sharedObject;
  Status s = CodeModule::load(elf.data(), elf.size(),
                              /*forceTempFile=*/false, &code_->module);
  if (!s.ok()) {
    ADD_FAILURE() << "cannot load the kernels: " << s.toString();
    return;
  }
  std::vector<void *> entries;
  for (const std::string &name : object.imports) {
    void *address = tcc::runtime::detail::findImport(name);
    if (!address)
      ADD_FAILURE() << "the runtime does not provide import " << name;
    entries.push_back(address);
  }
  if (!entries.empty()) {
    Status filled = code_->module->fillImportTable(entries);
    if (!filled.ok()) {
      ADD_FAILURE() << "cannot fill the import table: " << filled.toString();
      code_->module.reset();
    }
  }
}

LoadedKernels::~LoadedKernels() = default;

KernelFn LoadedKernels::get(const std::string &symbol) const {
  if (!code_->module)
    return nullptr;
  void *address = nullptr;
  Status s = code_->module->resolve(symbol, &address);
  if (!s.ok()) {
    ADD_FAILURE() << s.toString();
    return nullptr;
  }
  return reinterpret_cast<KernelFn>(address);
}

} // namespace tcc_test
