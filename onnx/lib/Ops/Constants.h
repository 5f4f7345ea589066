//===- Constants.h - Constants the op importers compute ---------*- C++ -*-===//
//
// Several importers compute index or coefficient tables with one entry per
// position of a dim (Resize, Pad's reflect/edge/wrap, the pools' divisor
// and argmax tables, OneHot's classes, Trilu's and EyeLike's masks). Shapes
// cost nothing to declare, so a dim of 2^40 would make the importer itself
// run out of memory: tables beyond a limit are refused with an error, and
// constants of one repeated value are splats, never materialized.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_ONNX_LIB_OPS_CONSTANTS_H
#define TCC_ONNX_LIB_OPS_CONSTANTS_H

#include "NodeContext.h"

#include "tcc/IR/TccOps.h"

#include "mlir/IR/BuiltinAttributes.h"

namespace mlir::tcc::onnx {

/// Fails naming `what` when a table of `entries` is beyond the importer's
/// limit on computed constants (kMaxComputedElements), checked before the
/// table is allocated.
inline void checkTableSize(const NodeContext &n, int64_t entries,
                           const std::string &what) {
  if (entries > kMaxComputedElements)
    n.fail(what + " would have " + std::to_string(entries) +
           " entries; the importer computes tables of at most " +
           std::to_string(kMaxComputedElements));
}

/// A constant of `shape` whose every element is the one element of `one`.
inline Value splatConstant(NodeContext &n, const ConstantData &one,
                           llvm::ArrayRef<int64_t> shape) {
  ConstantData scalar = one;
  scalar.type = RankedTensorType::get({}, one.type.getElementType());
  auto dense = llvm::cast<DenseElementsAttr>(makeConstantAttr(scalar, "splat"));
  auto type = RankedTensorType::get(shape, one.type.getElementType());
  return n.create<tcc::ConstantOp>(
      {}, {n.namedAttr("value", dense.resizeSplat(type))}, type);
}

} // namespace mlir::tcc::onnx

#endif // TCC_ONNX_LIB_OPS_CONSTANTS_H
