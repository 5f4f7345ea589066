//===- TensorSizes.h - Overflow-checked tensor sizes ------------*- C++ -*-===//
//
// MLIR's ShapedType::getNumElements multiplies without checking, and the
// parser accepts shapes whose element count overflows int64_t. Verifiers and
// tools use these instead wherever a shape comes from input.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_IR_TENSORSIZES_H
#define TCC_IR_TENSORSIZES_H

#include "mlir/IR/TypeRange.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>

namespace mlir::tcc {

/// The product of `shape`; nullopt when a dim is negative (dynamic) or the
/// product overflows int64_t.
std::optional<int64_t> getCheckedNumElements(llvm::ArrayRef<int64_t> shape);

/// Bytes one element occupies in a dense buffer: ceil(bits / 8), so i1 takes
/// one byte. nullopt for types without a fixed bit width.
std::optional<int64_t> getElementByteSize(Type elementType);

/// Bytes a dense buffer of `shape` x `elementType` needs; nullopt on overflow
/// or when either part has no fixed size.
std::optional<int64_t> getCheckedByteSize(llvm::ArrayRef<int64_t> shape,
                                          Type elementType);

/// Whether `type` is a statically shaped tensor or vector whose byte size
/// fits in int64_t. Other types pass (they carry no element count).
bool hasBoundedSize(Type type);

/// The size guard of constant folding: a folded constant may be at most
/// kFoldGrowthFactor times the bytes of the constants it is computed from,
/// plus kFoldAllowanceBytes, so that folding never blows a model up
/// (broadcasting a scalar to a huge tensor stays an op). Splats count at
/// their full size: the artifact stores every element.
constexpr int64_t kFoldGrowthFactor = 2;
constexpr int64_t kFoldAllowanceBytes = 4096;

/// Whether a constant of type `result` computed from constants of `inputs`
/// (shaped types) stays within the size guard.
bool isWithinFoldSizeLimit(Type result, TypeRange inputs);

} // namespace mlir::tcc

#endif // TCC_IR_TENSORSIZES_H
