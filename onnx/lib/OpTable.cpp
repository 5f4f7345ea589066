//===- OpTable.cpp - Which function imports each ONNX op ------------------===//

#include "OpTable.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir::tcc::onnx;

const OpTable &OpTable::get() {
  static const OpTable table = [] {
    OpTable t;
    registerAffineGridOps(t);
    registerAttentionOps(t);
    registerConvTransposeOps(t);
    registerEinsumOps(t);
    registerElementwiseOps(t);
    registerGridSampleOps(t);
    registerLossOps(t);
    registerMaskOps(t);
    registerMiscOps(t);
    registerNNOps(t);
    registerNormalizationOps(t);
    registerPoolOps(t);
    registerQuantizationOps(t);
    registerRecurrentOps(t);
    registerReductionOps(t);
    registerResizeOps(t);
    registerScatterOps(t);
    registerSelectionOps(t);
    registerShapeOps(t);
    registerTrigonometricOps(t);
    return t;
  }();
  return table;
}

void OpTable::add(const std::string &opType, int64_t sinceOpset,
                  NodeImporter fn) {
  // Two families registering one op would leave the table's contents to
  // registration order: a programming error, caught by any import.
  if (!ops_[opType].emplace(sinceOpset, fn).second)
    llvm::report_fatal_error(llvm::Twine("ONNX op table: ") + opType +
                             " (since opset " + llvm::Twine(sinceOpset) +
                             ") is registered twice");
}

NodeImporter OpTable::find(llvm::StringRef opType, int64_t opset) const {
  auto it = ops_.find(opType);
  if (it == ops_.end())
    return nullptr;
  auto version = it->second.upper_bound(opset);
  if (version == it->second.begin())
    return nullptr;
  return std::prev(version)->second;
}

const char *OpTable::outOfScopeReason(llvm::StringRef opType) {
#define OUT_OF_SCOPE(op, reason)                                               \
  if (opType == #op)                                                           \
    return reason;
#include "OutOfScope.def"
  return nullptr;
}

std::vector<std::string> OpTable::opTypes() const {
  std::vector<std::string> names;
  for (const auto &entry : ops_)
    names.push_back(entry.first);
  return names;
}
