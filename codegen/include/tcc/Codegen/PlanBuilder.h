//===- PlanBuilder.h - What the planner offers a target ---------*- C++ -*-===//
//
// While the planner walks the entry function it hands each epilogue group
// to the target (Target::lowerLibraryCall), which adds library-call steps
// through this interface. The planner keeps what is target-neutral: which
// buffer holds each value, views read in place, lifetimes and the memory
// plan, the constants segment. The target keeps what is its own: the steps'
// tables and the layout of packed weights.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_CODEGEN_PLANBUILDER_H
#define TCC_CODEGEN_PLANBUILDER_H

#include "tcc/runtime/artifact_generated.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace mlir::tcc {

/// A batch of row-major or transposed matrices in a buffer: element (r, c)
/// of matrix i at buffer[i * batchStride + (trans ? c * ld + r : r * ld + c)]
/// (batchStride 0: one matrix shared by the batch).
struct MatrixBinding {
  uint32_t buffer = 0;
  int64_t ld = 0;
  bool trans = false;
  int64_t batchStride = 0;
};

class PlanBuilder {
public:
  virtual ~PlanBuilder() = default;

  /// The buffer holding `value`: an input, a constant, or a computed value
  /// (computing deferred views now if they are needed).
  virtual uint32_t bufferOf(Value value) = 0;
  /// Marks `buffer` read by the library call being lowered.
  virtual void reads(uint32_t buffer) = 0;
  /// The buffer the call computes `result` into.
  virtual uint32_t resultBuffer(Value result) = 0;

  /// `operand` as matrices over `batch` (the result's batch dims), read in
  /// place through transposes, slices and reshapes not computed yet where
  /// their strides fit, else as computed; false when neither fits. Marks
  /// the buffer read.
  virtual bool bindMatrices(Value operand, ArrayRef<int64_t> batch,
                            MatrixBinding &binding) = 0;
  /// Points `binding` (rows contiguous) at the output of the transpose that
  /// is `result`'s only use, so the transpose is never computed; false when
  /// there is no such transpose or its layout does not fit. Not with a
  /// residual, which is read in the result's layout.
  virtual bool bindResultThroughTranspose(Value result,
                                          MatrixBinding &binding) = 0;

  /// A constant derived from constant `source`'s bytes (a weight packed for
  /// the target's kernels), stored once per (source, key) as bytes (U8);
  /// nullopt when `source` is not a constant or `derive` gives nothing. A
  /// constant only used derived is stored derived only.
  virtual std::optional<uint32_t> derivedConstant(
      Value source, uint64_t key,
      function_ref<std::optional<std::vector<uint8_t>>(ArrayRef<uint8_t>)>
          derive) = 0;

  /// Appends a generated kernel step that computes a new arena buffer of
  /// `type` from `operands`: the workspace of the library call being
  /// lowered, which reads it (its lifetime ends there). `body` builds the
  /// kernel's result from its arguments (the operands, as tensors) in ops
  /// the kernel pipeline lowers (tcc, linalg, tensor, arith); the kernel is
  /// named after `name` and lists `source` as its source op.
  virtual uint32_t addWorkspaceKernel(
      StringRef name, Operation *source, ArrayRef<Value> operands,
      RankedTensorType type,
      function_ref<Value(OpBuilder &, Location, ValueRange)> body) = 0;

  /// Appends a library-call step.
  virtual void addLibraryStep(::tcc::artifact::OpUnion step) = 0;
};

} // namespace mlir::tcc

#endif // TCC_CODEGEN_PLANBUILDER_H
