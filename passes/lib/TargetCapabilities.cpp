//===- TargetCapabilities.cpp - Capabilities by target name ---------------===//

#include "tcc/Passes/TargetCapabilities.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <mutex>

using namespace mlir;
using namespace mlir::tcc;

namespace {
struct Table {
  std::mutex mutex;
  std::vector<const TargetCapabilities *> entries;
};
Table &table() {
  static Table instance;
  return instance;
}
const TargetCapabilities *findEntry(const Table &t, StringRef name) {
  for (const TargetCapabilities *entry : t.entries)
    if (entry->name() == name)
      return entry;
  return nullptr;
}
} // namespace

void tcc::registerTargetCapabilities(const TargetCapabilities &capabilities) {
  Table &t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  if (!findEntry(t, capabilities.name()))
    t.entries.push_back(&capabilities);
}

const TargetCapabilities *tcc::lookupTargetCapabilities(StringRef name) {
  Table &t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  return findEntry(t, name);
}

std::vector<std::string> tcc::registeredTargetCapabilityNames() {
  Table &t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  std::vector<std::string> names;
  for (const TargetCapabilities *entry : t.entries)
    names.push_back(entry->name().str());
  llvm::sort(names);
  return names;
}

LogicalResult
tcc::resolveTargetCapabilities(MLIRContext *context, StringRef pass,
                               StringRef name,
                               const TargetCapabilities *&target) {
  if (target)
    return success();
  target = lookupTargetCapabilities(name);
  if (target)
    return success();
  std::vector<std::string> names = registeredTargetCapabilityNames();
  emitError(UnknownLoc::get(context))
      << pass << ": unknown target '" << name << "' (targets: "
      << (names.empty() ? std::string("none registered")
                        : llvm::join(names, ", "))
      << ")";
  return failure();
}
