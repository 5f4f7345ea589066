//===- OpTable.h - Which function imports each ONNX op ----------*- C++ -*-===//
//
// One entry per op and opset where its meaning changed: the importer of an
// op at opset N is the entry with the greatest `sinceOpset` <= N. Each
// family file (Ops/*.cpp) registers its ops; ops the importer refuses on
// purpose are listed with the reason in OutOfScope.def.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_ONNX_LIB_OPTABLE_H
#define TCC_ONNX_LIB_OPTABLE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mlir::tcc::onnx {

class NodeContext;
using NodeImporter = void (*)(NodeContext &);

class OpTable {
public:
  /// Every family's ops.
  static const OpTable &get();

  void add(const std::string &opType, int64_t sinceOpset, NodeImporter fn);
  /// The importer of `opType` at `opset`, or null.
  NodeImporter find(llvm::StringRef opType, int64_t opset) const;
  /// Why `opType` is out of scope (OutOfScope.def), or null when it is not.
  static const char *outOfScopeReason(llvm::StringRef opType);
  /// The op types with an importer, sorted.
  std::vector<std::string> opTypes() const;

private:
  // op type -> (sinceOpset -> importer)
  std::map<std::string, std::map<int64_t, NodeImporter>, std::less<>> ops_;
};

// The families (Ops/*.cpp).
void registerAffineGridOps(OpTable &table);
void registerAttentionOps(OpTable &table);
void registerConvTransposeOps(OpTable &table);
void registerEinsumOps(OpTable &table);
void registerElementwiseOps(OpTable &table);
void registerGridSampleOps(OpTable &table);
void registerLossOps(OpTable &table);
void registerMaskOps(OpTable &table);
void registerMiscOps(OpTable &table);
void registerNNOps(OpTable &table);
void registerNormalizationOps(OpTable &table);
void registerPoolOps(OpTable &table);
void registerQuantizationOps(OpTable &table);
void registerRecurrentOps(OpTable &table);
void registerReductionOps(OpTable &table);
void registerResizeOps(OpTable &table);
void registerScatterOps(OpTable &table);
void registerSelectionOps(OpTable &table);
void registerShapeOps(OpTable &table);
void registerTrigonometricOps(OpTable &table);

} // namespace mlir::tcc::onnx

#endif // TCC_ONNX_LIB_OPTABLE_H
