//===- TraceContext.h - What a trace mapping sees of one eager call -------===//
//
// A trace mapping (lib/Ops/*.cpp) gets a TraceContext for the eager call it
// translates: the call's tensors and attributes, the SSA values of its
// inputs, and helpers that build tcc ops. Ops are built without MLIR's
// aborting builders: `create` infers the result type (when not given) and
// verifies the new op, and turns any failure into a JitError naming the
// eager op.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_JIT_LIB_TRACECONTEXT_H
#define TCC_JIT_LIB_TRACECONTEXT_H

#include "Types.h"

#include "tcc/Frontend/OpObserver.h"
#include "tcc/tcc.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"

#include <optional>
#include <string>
#include <vector>

namespace tcc {
namespace jit {

class Tracer;

class TraceContext {
public:
  TraceContext(Tracer &tracer, const tcc::detail::OpCall &call)
      : tracer_(tracer), call_(call) {}

  // --- The eager call ------------------------------------------------------
  const char *opName() const { return call_.op.name; }
  size_t numInputs() const { return call_.inputs.size(); }
  const Tensor &input(size_t i) const;
  size_t numOutputs() const { return call_.outputs.size(); }
  const Tensor &output(size_t i = 0) const;

  /// The attribute `name`, or null when the call has none by that name.
  const tcc::detail::AttrValue *findAttr(const char *name) const;
  /// Whether `name` is absent or None.
  bool isNone(const char *name) const;
  int64_t intAttr(const char *name) const;
  std::optional<int64_t> optIntAttr(const char *name) const;
  /// A double, int or bool attribute as double.
  double doubleAttr(const char *name) const;
  bool boolAttr(const char *name) const;
  std::vector<int64_t> intsAttr(const char *name) const;
  std::string stringAttr(const char *name) const;
  std::optional<ScalarType> optDtypeAttr(const char *name) const;
  /// An int, double or bool attribute as a Scalar of that kind.
  Scalar scalarAttr(const char *name) const;

  // --- Values ----------------------------------------------------------------
  /// The SSA value holding `t` now: a function argument, an earlier op's
  /// result, or a new constant.
  mlir::Value value(const Tensor &t);
  mlir::Value in(size_t i) { return value(input(i)); }
  /// Input i converted to `dtype`.
  mlir::Value inAs(size_t i, ScalarType dtype) { return cast(in(i), dtype); }
  /// `v` converted to `dtype` (tcc.cast, folded for inline constants).
  mlir::Value cast(mlir::Value v, ScalarType dtype);
  /// A 0-dim constant.
  mlir::Value scalar(const Scalar &s, ScalarType dtype);
  /// A splat constant of `shape`.
  mlir::Value splat(const Scalar &s, ScalarType dtype, IntArrayRef shape);
  /// tcc.reshape unless `v` already has `shape`.
  mlir::Value reshape(mlir::Value v, IntArrayRef shape);
  /// tcc.broadcast_to unless `v` already has `shape`.
  mlir::Value broadcastTo(mlir::Value v, IntArrayRef shape);

  /// Builds a tcc op; the result type is inferred when not given.
  template <class OpTy>
  mlir::Value create(mlir::ValueRange operands,
                     llvm::ArrayRef<mlir::NamedAttribute> attrs = {},
                     mlir::Type resultType = {}) {
    return createOp(OpTy::getOperationName(), operands, attrs, resultType);
  }
  mlir::Value createOp(llvm::StringRef name, mlir::ValueRange operands,
                       llvm::ArrayRef<mlir::NamedAttribute> attrs,
                       mlir::Type resultType);

  // --- Types and attributes -------------------------------------------------
  mlir::MLIRContext *context() const;
  mlir::Builder builder() const { return mlir::Builder(context()); }
  mlir::NamedAttribute attr(llvm::StringRef name, mlir::Attribute value) const;
  mlir::NamedAttribute i64Attr(llvm::StringRef name, int64_t value) const;
  mlir::NamedAttribute f64Attr(llvm::StringRef name, double value) const;
  mlir::NamedAttribute boolAttr(llvm::StringRef name, bool value) const;
  mlir::NamedAttribute i64ArrayAttr(llvm::StringRef name,
                                    llvm::ArrayRef<int64_t> values) const;
  mlir::RankedTensorType type(IntArrayRef shape, ScalarType dtype) const;
  static ScalarType dtypeOf(mlir::Value v);
  static std::vector<int64_t> shapeOf(mlir::Value v);

  /// PyTorch's result type of a binary op on `a` and `b` (0-dim tensors and
  /// wrapped scalars only raise the category), as the eager ops compute it.
  ScalarType resultType(const Tensor &a, const Tensor &b) const;

  /// Throws JitError: cannot trace <op>: `why`.
  [[noreturn]] void fail(const std::string &why) const;

private:
  Tracer &tracer_;
  const tcc::detail::OpCall &call_;
};

} // namespace jit
} // namespace tcc

#endif // TCC_JIT_LIB_TRACECONTEXT_H
