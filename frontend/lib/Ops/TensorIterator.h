//===- TensorIterator.h - Elementwise iteration over strided tensors ------===//
//
// One helper for every elementwise op: it broadcasts the inputs, applies
// PyTorch's type promotion (with 0-dim tensors and wrapped Scalars ranking
// below dimensioned tensors), casts inputs to the compute dtype, allocates
// or checks the output (for out= and in-place writes), coalesces
// dimensions, and calls a 1-D inner loop `loop(char **data, const int64_t
// *strides, int64_t n)` (operand 0 is the output), in parallel chunks for
// large tensors. Loops.h has the typed loops built on it.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_LIB_OPS_TENSORITERATOR_H
#define TCC_LIB_OPS_TENSORITERATOR_H

#include "tcc/Frontend/Tensor.h"

#include <array>
#include <optional>

namespace tcc {
namespace detail {

/// PyTorch's result_type over tensors (wrapped numbers and 0-dim tensors
/// only raise the category, not the width, of dimensioned tensors).
ScalarType resultType(TensorList tensors);

struct IterConfig {
  /// Promote integral/bool common dtypes to the default float type (true
  /// division, exp of an int tensor, ...).
  bool intToFloat = false;
  /// Output dtype regardless of the inputs (bool for comparisons).
  std::optional<ScalarType> outputDtype;
  /// Compute dtype regardless of the inputs (e.g. bool for logical ops).
  std::optional<ScalarType> computeDtype;
  /// Broadcast the inputs to the given output's shape (copy_, fill_).
  bool broadcastToOutput = false;
  /// Cast inputs to the compute dtype (off: the caller prepared them).
  bool castInputs = true;
  /// Name used in error messages.
  const char *name = "op";
};

class TensorIterator {
public:
  /// `out` may be undefined (a new output is allocated) or a tensor to
  /// write into (its shape must be the broadcast shape, or it is empty).
  TensorIterator(const Tensor &out, TensorList inputs, const IterConfig &cfg);

  ScalarType computeDtype() const { return computeDtype_; }
  ScalarType outputDtype() const { return out_.dtype(); }
  /// The result (the given `out`, or the newly allocated output).
  const Tensor &output() const { return userOut_.defined() ? userOut_ : out_; }
  int64_t numel() const { return numel_; }
  int ntensors() const { return nops_; }
  const Tensor &operand(int i) const { return operands_[size_t(i)]; }

  /// Output plus inputs.
  static constexpr int kMaxOperands = 8;

  using Loop = void (*)(void *ctx, char **data, const int64_t *strides,
                        int64_t n);
  /// Runs `loop` over every element, in parallel chunks when large.
  void run(void *ctx, Loop loop, int64_t grain = 32768);

  template <class F> void forEach(F &&f, int64_t grain = 32768) {
    run(
        &f,
        [](void *c, char **data, const int64_t *strides, int64_t n) {
          (*static_cast<std::remove_reference_t<F> *>(c))(data, strides, n);
        },
        grain);
  }

  /// Copies a temporary output into the user's `out` (dtype conversion).
  void finish();

private:
  void coalesce();
  void runRange(void *ctx, Loop loop, int64_t begin, int64_t end);

  // Fixed-size arrays (no heap traffic for the small-op fast path).
  std::array<Tensor, kMaxOperands> operands_; // [0] = output
  int nops_ = 0;
  Tensor out_;                   // what the loops write
  Tensor userOut_;               // the given out, if out_ is a temporary
  ScalarType computeDtype_ = kFloat;
  DimVector shape_;
  std::array<DimVector, kMaxOperands> strides_; // bytes, per operand, per dim
  int64_t numel_ = 0;
};

/// Broadcast shape of two shapes, or throws naming both.
DimVector broadcastShape(IntArrayRef a, IntArrayRef b);

/// Copies `src` into `dst` elementwise with broadcasting and dtype
/// conversion (no autograd, no recording).
void copyInto(const Tensor &dst, const Tensor &src);
/// `t` converted to `dtype` (a new contiguous tensor unless equal).
Tensor castTo(const Tensor &t, ScalarType dtype);
/// A contiguous copy (no autograd, no recording).
Tensor contiguousCopy(const Tensor &t);
/// `t` if contiguous, else contiguousCopy(t).
Tensor contiguousCopyIfNeeded(const Tensor &t);

} // namespace detail
} // namespace tcc

#endif // TCC_LIB_OPS_TENSORITERATOR_H
