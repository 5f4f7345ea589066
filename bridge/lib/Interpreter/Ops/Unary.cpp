//===- Unary.cpp - Unary elementwise tcc ops, gelu, clamp -----------------===//
//
// Each runs the eager op of the same name (the frontend's Unary family), so
// interpreted results are the eager ones bit for bit.
//
//===----------------------------------------------------------------------===//

#include "InterpreterRegistry.h"

#include "tcc/IR/TccOps.h"

#include <optional>

namespace tcc {
namespace jit {

namespace {

using namespace mlir::tcc;

/// A clamp bound as the eager op takes it: a float Scalar for float
/// tensors, an integer one (truncated) otherwise.
std::optional<Scalar> boundOf(std::optional<llvm::APFloat> bound,
                              const Tensor &x) {
  if (!bound)
    return std::nullopt;
  double v = bound->convertToDouble();
  if (x.is_floating_point())
    return Scalar(v);
  return Scalar(int64_t(v));
}

} // namespace

void registerUnaryInterpreters(InterpreterRegistry &r) {
#define TCC_UNARY(OP, CALL)                                                    \
  r.interpret<OP>([](OP op, const InterpretContext &v) {                       \
    return CALL(v(op.getInput()));                                             \
  });
  TCC_UNARY(NegOp, tcc::neg)
  TCC_UNARY(AbsOp, tcc::abs)
  TCC_UNARY(ReluOp, tcc::relu)
  TCC_UNARY(SignOp, tcc::sign)
  TCC_UNARY(ExpOp, tcc::exp)
  TCC_UNARY(LogOp, tcc::log)
  TCC_UNARY(Log1pOp, tcc::log1p)
  TCC_UNARY(SqrtOp, tcc::sqrt)
  TCC_UNARY(RsqrtOp, tcc::rsqrt)
  TCC_UNARY(TanhOp, tcc::tanh)
  TCC_UNARY(SigmoidOp, tcc::sigmoid)
  TCC_UNARY(SiluOp, tcc::silu)
  TCC_UNARY(ErfOp, tcc::erf)
  TCC_UNARY(SinOp, tcc::sin)
  TCC_UNARY(CosOp, tcc::cos)
  TCC_UNARY(FloorOp, tcc::floor)
  TCC_UNARY(CeilOp, tcc::ceil)
  TCC_UNARY(RoundOp, tcc::round)
  TCC_UNARY(LogicalNotOp, tcc::logical_not)
#undef TCC_UNARY
  r.interpret<GeluOp>([](GeluOp op, const InterpretContext &v) {
    return tcc::gelu(v(op.getInput()),
                     op.getApproximate() == GeluApproximation::tanh ? "tanh"
                                                                    : "none");
  });
  r.interpret<ClampOp>([](ClampOp op, const InterpretContext &v) {
    Tensor x = v(op.getInput());
    return tcc::clamp(x, boundOf(op.getMin(), x), boundOf(op.getMax(), x));
  });
}

} // namespace jit
} // namespace tcc
