//===- PromoteAllocs.cpp - Kernel scratch buffers become arguments --------===//

#include "tcc/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_TCCPROMOTEALLOCS
#include "tcc/Codegen/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

/// Bytes of a static memref; i1 elements take a byte, as LLVM stores them.
int64_t byteSize(MemRefType type) {
  int64_t bytes = std::max<int64_t>(type.getElementTypeBitWidth() / 8, 1);
  return type.getNumElements() * bytes;
}

struct PromoteAllocsPass : tcc::impl::TccPromoteAllocsBase<PromoteAllocsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal() || failed(promote(func)))
        return signalPassFailure();
    }
  }

  LogicalResult promote(func::FuncOp func) {
    SmallVector<memref::AllocOp> allocs;
    func.walk([&](memref::AllocOp alloc) { allocs.push_back(alloc); });
    Builder b(func.getContext());
    SmallVector<int64_t> sizes;
    if (auto existing = func->getAttrOfType<DenseI64ArrayAttr>("tcc.scratch_bytes"))
      sizes.assign(existing.asArrayRef().begin(), existing.asArrayRef().end());
    for (memref::AllocOp alloc : allocs) {
      MemRefType type = alloc.getType();
      if (!type.hasStaticShape() || !type.getLayout().isIdentity())
        return alloc.emitError("kernel allocates a buffer of dynamic shape or "
                               "layout; the memory plan cannot own it: ")
               << type;
      unsigned index = func.getNumArguments();
      func.insertArgument(index, type, b.getDictionaryAttr({}), alloc.getLoc());
      for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
        if (isa<memref::DeallocOp>(user))
          user->erase();
      alloc.replaceAllUsesWith(func.getArgument(index));
      alloc.erase();
      sizes.push_back(byteSize(type));
    }
    if (!sizes.empty())
      func->setAttr("tcc.scratch_bytes", b.getDenseI64ArrayAttr(sizes));
    return success();
  }
};

} // namespace
