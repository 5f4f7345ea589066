//===- Reduction.cpp - Reductions, arg max/min, softmax -------------------===//
//
// Each runs the eager reduction of the same meaning (the frontend's
// Reduction family): reduce_max/reduce_min are amax/amin, and reduce_prod
// over several dims merges them first, as the eager prod takes one.
//
//===----------------------------------------------------------------------===//

#include "InterpreterRegistry.h"
#include "Types.h"

#include "tcc/IR/TccOps.h"

namespace tcc {
namespace jit {

namespace {

using namespace mlir::tcc;

std::vector<int64_t> vec(llvm::ArrayRef<int64_t> a) { return a.vec(); }

/// prod over several dims: the eager op takes one, so merge them.
Tensor prodOver(const Tensor &x, std::vector<int64_t> dims, bool keepdim,
                llvm::ArrayRef<int64_t> resultShape, ScalarType dtype) {
  int64_t rank = x.dim();
  dims = wrapDims(dims, rank);
  if (dims.size() == 1)
    return tcc::prod(x, dims[0], keepdim, dtype);
  if (int64_t(dims.size()) == rank)
    return tcc::prod(x, dtype).reshape(resultShape.vec());
  std::vector<bool> reduced(size_t(rank), false);
  for (int64_t d : dims)
    reduced[size_t(d)] = true;
  std::vector<int64_t> perm, kept;
  for (int64_t d = 0; d < rank; ++d)
    if (!reduced[size_t(d)]) {
      perm.push_back(d);
      kept.push_back(x.size(d));
    }
  for (int64_t d : dims)
    perm.push_back(d);
  kept.push_back(-1);
  return tcc::prod(x.permute(perm).reshape(kept), -1, false, dtype)
      .reshape(resultShape.vec());
}

} // namespace

void registerReductionInterpreters(InterpreterRegistry &r) {
  r.interpret<ReduceSumOp>([](ReduceSumOp op, const InterpretContext &v) {
    return tcc::sum(v(op.getInput()), vec(op.getDims()), op.getKeepdim(),
                    valueDtype(op.getResult()));
  });
  r.interpret<ReduceMeanOp>([](ReduceMeanOp op, const InterpretContext &v) {
    return tcc::mean(v(op.getInput()), vec(op.getDims()), op.getKeepdim(),
                     valueDtype(op.getResult()));
  });
  r.interpret<ReduceProdOp>([](ReduceProdOp op, const InterpretContext &v) {
    return prodOver(v(op.getInput()), vec(op.getDims()), op.getKeepdim(),
                    op.getType().getShape(), valueDtype(op.getResult()));
  });
  r.interpret<ReduceMaxOp>([](ReduceMaxOp op, const InterpretContext &v) {
    return tcc::amax(v(op.getInput()), vec(op.getDims()), op.getKeepdim());
  });
  r.interpret<ReduceMinOp>([](ReduceMinOp op, const InterpretContext &v) {
    return tcc::amin(v(op.getInput()), vec(op.getDims()), op.getKeepdim());
  });
  r.interpret<ArgmaxOp>([](ArgmaxOp op, const InterpretContext &v) {
    return tcc::argmax(v(op.getInput()), int64_t(op.getDim()), op.getKeepdim());
  });
  r.interpret<ArgminOp>([](ArgminOp op, const InterpretContext &v) {
    return tcc::argmin(v(op.getInput()), int64_t(op.getDim()), op.getKeepdim());
  });
  r.interpret<SoftmaxOp>([](SoftmaxOp op, const InterpretContext &v) {
    return tcc::softmax(v(op.getInput()), int64_t(op.getDim()));
  });
  r.interpret<LogSoftmaxOp>([](LogSoftmaxOp op, const InterpretContext &v) {
    return tcc::log_softmax(v(op.getInput()), int64_t(op.getDim()));
  });
}

} // namespace jit
} // namespace tcc
