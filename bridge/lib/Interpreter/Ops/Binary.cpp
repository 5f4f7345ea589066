//===- Binary.cpp - Binary elementwise tcc ops, comparisons, select -------===//
//
// Each runs the eager op of the same name (the frontend's Binary family;
// tcc.select is torch.where), so interpreted results are the eager ones bit
// for bit. tcc.floor_divide and tcc.remainder have no eager op yet and are
// computed here elementwise with Python's definitions.
//
//===----------------------------------------------------------------------===//

#include "InterpreterRegistry.h"
#include "Types.h"

#include "tcc/IR/TccOps.h"
#include "tcc/runtime/ScalarOps.h"

#include <cmath>
#include <type_traits>

namespace tcc {
namespace jit {

namespace {

using namespace mlir::tcc;

/// Python's floor division and remainder (tcc/runtime/ScalarOps.h),
/// elementwise in the operands' dtype (opmath f32 for f16/bf16). The eager
/// library has no op for them yet, so the interpreter computes them here;
/// an integer zero divisor raises, as in PyTorch.
template <class T> T floorDivide(T a, T b) {
  if (std::optional<T> q = ::tcc::scalar::floorDivide(a, b))
    return *q;
  throw Error("ZeroDivisionError");
}

template <class T> T remainderOf(T a, T b) {
  if (std::optional<T> r = ::tcc::scalar::remainder(a, b))
    return *r;
  throw Error("ZeroDivisionError");
}

/// Runs `f` over a and b broadcast to `shape`, in compute type C (double for
/// f64, float for other floats, int64 for integers), giving `dtype`.
template <bool Remainder>
Tensor floorDivOrRemainder(const Tensor &a, const Tensor &b,
                           llvm::ArrayRef<int64_t> shapeRef, ScalarType dtype) {
  std::vector<int64_t> shape = shapeRef.vec();
  ScalarType compute = dtype == kDouble        ? kDouble
                       : isFloatingType(dtype) ? kFloat
                                               : kLong;
  Tensor x = a.to(compute).expand(shape).contiguous();
  Tensor y = b.to(compute).expand(shape).contiguous();
  Tensor out = empty(shape, TensorOptions().dtype(compute));
  int64_t n = out.numel();
  auto run = [&](auto tag) {
    using T = decltype(tag);
    const T *px = static_cast<const T *>(x.unsafeGetTensorImpl()->data());
    const T *py = static_cast<const T *>(y.unsafeGetTensorImpl()->data());
    T *po = static_cast<T *>(out.unsafeGetTensorImpl()->data());
    for (int64_t i = 0; i < n; ++i)
      po[i] = Remainder ? remainderOf<T>(px[i], py[i])
                        : floorDivide<T>(px[i], py[i]);
  };
  if (compute == kDouble)
    run(double());
  else if (compute == kFloat)
    run(float());
  else
    run(int64_t());
  return out.to(dtype);
}

} // namespace

void registerBinaryInterpreters(InterpreterRegistry &r) {
#define TCC_BINARY(OP, CALL)                                                   \
  r.interpret<OP>([](OP op, const InterpretContext &v) {                       \
    return CALL(v(op.getLhs()), v(op.getRhs()));                               \
  });
  TCC_BINARY(AddOp, tcc::add)
  TCC_BINARY(SubOp, tcc::sub)
  TCC_BINARY(MulOp, tcc::mul)
  TCC_BINARY(DivOp, tcc::div)
  TCC_BINARY(PowOp, tcc::pow)
  TCC_BINARY(MaximumOp, tcc::maximum)
  TCC_BINARY(MinimumOp, tcc::minimum)
  TCC_BINARY(EqOp, tcc::eq)
  TCC_BINARY(NeOp, tcc::ne)
  TCC_BINARY(LtOp, tcc::lt)
  TCC_BINARY(LeOp, tcc::le)
  TCC_BINARY(GtOp, tcc::gt)
  TCC_BINARY(GeOp, tcc::ge)
  TCC_BINARY(LogicalAndOp, tcc::logical_and)
  TCC_BINARY(LogicalOrOp, tcc::logical_or)
  TCC_BINARY(LogicalXorOp, tcc::logical_xor)
#undef TCC_BINARY
  r.interpret<FloorDivideOp>([](FloorDivideOp op, const InterpretContext &v) {
    return floorDivOrRemainder<false>(v(op.getLhs()), v(op.getRhs()),
                                      op.getType().getShape(),
                                      valueDtype(op.getResult()));
  });
  r.interpret<RemainderOp>([](RemainderOp op, const InterpretContext &v) {
    return floorDivOrRemainder<true>(v(op.getLhs()), v(op.getRhs()),
                                     op.getType().getShape(),
                                     valueDtype(op.getResult()));
  });
  r.interpret<SelectOp>([](SelectOp op, const InterpretContext &v) {
    return tcc::where(v(op.getCondition()), v(op.getTrueValue()),
                      v(op.getFalseValue()));
  });
}

} // namespace jit
} // namespace tcc
