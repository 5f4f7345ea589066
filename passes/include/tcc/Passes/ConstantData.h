//===- ConstantData.h - Constant tensors as host bytes ----------*- C++ -*-===//
//
// The passes that compute new constants (folding, batch-norm folding, layout
// conversion of weights) work on the dense row-major bytes of a constant,
// the layout the artifact stores (i1 one byte per element), whether the
// constant is a `dense` literal or a `dense_resource` blob. Results go back
// into the IR as a splat `dense` literal when every element is equal, else as
// a `dense_resource` blob, so weights stay binary.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_PASSES_CONSTANTDATA_H
#define TCC_PASSES_CONSTANTDATA_H

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>
#include <vector>

namespace mlir::tcc {

/// How the passes read and write one element of a constant.
enum class ElementKind { F32, F64, F16, BF16, Signed, Unsigned, Bool };

/// A constant tensor: its type and its dense row-major bytes.
struct ConstantData {
  RankedTensorType type;
  std::vector<char> bytes;

  ElementKind kind() const;
  int64_t elementBytes() const;
  int64_t numElements() const { return type.getNumElements(); }

  /// Element `i` as a double (floats; integers converted).
  double getFloat(int64_t i) const;
  /// Element `i` of an integer or i1 tensor, sign- or zero-extended.
  int64_t getInt(int64_t i) const;
  /// Stores `value` rounded to nearest even in the element type (floats).
  void setFloat(int64_t i, double value);
  /// Stores the low bits of `value` (integers; i1 stores value != 0).
  void setInt(int64_t i, int64_t value);

  /// Zero-filled data of `type`.
  static ConstantData zeros(RankedTensorType type);
};

/// The bytes of a constant attribute (`dense` or `dense_resource`), or
/// nullopt for attributes the passes do not read (a dense_resource without
/// data).
std::optional<ConstantData> readConstant(ElementsAttr value);

/// The attribute for `data`: a splat `dense` literal when every element is
/// equal, else a `dense_resource` blob named `blobName` (made unique by the
/// context's resource manager).
ElementsAttr makeConstantAttr(const ConstantData &data, StringRef blobName);

/// A name for a constant computed from `sources`: the name of the first
/// named dense_resource blob among them with `suffix` appended, else
/// "folded" + suffix.
std::string deriveBlobName(ArrayRef<Attribute> sources, StringRef suffix);

} // namespace mlir::tcc

#endif // TCC_PASSES_CONSTANTDATA_H
