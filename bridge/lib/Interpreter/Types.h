//===- Types.h - Eager dtypes and tensors as MLIR types and attributes ----===//

#ifndef TCC_JIT_LIB_TYPES_H
#define TCC_JIT_LIB_TYPES_H

#include "tcc/tcc.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"

#include <optional>
#include <string>
#include <vector>

namespace tcc {
namespace jit {

/// An LLVM array of sizes as the eager library's IntArrayRef.
inline IntArrayRef intArrayRef(llvm::ArrayRef<int64_t> a) {
  return IntArrayRef(a.data(), a.size());
}
/// The eager library's IntArrayRef as an LLVM array.
inline llvm::ArrayRef<int64_t> llvmArrayRef(IntArrayRef a) {
  return llvm::ArrayRef<int64_t>(a.data(), a.size());
}

/// The tcc element type of a dtype (f32, f64, f16, bf16, i64, i32, i8, ui8,
/// i1), or null for dtypes the dialect lacks (int16).
mlir::Type elementTypeOf(mlir::MLIRContext *ctx, ScalarType dtype);
/// The dtype of a tcc element type; nullopt for any other type.
std::optional<ScalarType> scalarTypeOf(mlir::Type elementType);

/// The dtype of a tcc tensor value (the verifier has checked its element
/// type).
ScalarType valueDtype(mlir::Value v);

/// A dims list with negative entries wrapped into [0, rank).
std::vector<int64_t> wrapDims(std::vector<int64_t> dims, int64_t rank);

/// "<what> has dtype Short, which the tcc dialect does not have (...)".
std::string missingDtypeMessage(const std::string &what, ScalarType dtype);

/// tensor<shape x element>; throws JitError for dtypes the dialect lacks,
/// naming `what`.
mlir::RankedTensorType tensorTypeOf(mlir::MLIRContext *ctx, IntArrayRef shape,
                                    ScalarType dtype, const std::string &what);

/// "f32[2,3]"-style description of a tensor type, for messages.
std::string describe(mlir::Type type);
/// The same for an eager tensor.
std::string describe(const Tensor &t);

/// A dense literal with the values of `t` (converted to `type`'s element
/// type first). Meant for small tensors (0-dim scalars).
mlir::DenseElementsAttr denseAttrOf(mlir::RankedTensorType type,
                                    const Tensor &t);
/// A dense_resource blob (64-byte aligned) holding the bytes of `t`, under
/// `name` (uniqued by MLIR if taken).
mlir::DenseResourceElementsAttr resourceAttrOf(mlir::RankedTensorType type,
                                               const std::string &name,
                                               const Tensor &t);

/// The values of a constant's attribute as a tensor. For dense_resource
/// blobs the tensor views the blob's memory (the caller must not write to
/// it); dense literals are copied.
Tensor tensorOf(mlir::ElementsAttr attr);

} // namespace jit
} // namespace tcc

#endif // TCC_JIT_LIB_TYPES_H
