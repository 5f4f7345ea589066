//===- AlignVectorAccesses.cpp - Vector accesses at their own alignment ---===//

#include "tcc/Codegen/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_TCCALIGNVECTORACCESSES
#include "tcc/Codegen/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

/// The bytes of `type` when it is a vector of at most 16 bytes (the widest
/// PTX access), else 0.
uint64_t vectorBytes(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  if (!vector || vector.isScalable() || vector.getRank() != 1 ||
      !vector.getElementType().isIntOrFloat())
    return 0;
  uint64_t bytes =
      vector.getNumElements() * vector.getElementTypeBitWidth() / 8;
  return bytes <= 16 && llvm::isPowerOf2_64(bytes) ? bytes : 0;
}

struct AlignVectorAccessesPass
    : tcc::impl::TccAlignVectorAccessesBase<AlignVectorAccessesPass> {
  void runOnOperation() override {
    getOperation().walk([](Operation *op) {
      if (auto load = dyn_cast<LLVM::LoadOp>(op)) {
        if (uint64_t bytes = vectorBytes(load.getType()))
          load.setAlignment(bytes);
      } else if (auto store = dyn_cast<LLVM::StoreOp>(op)) {
        if (uint64_t bytes = vectorBytes(store.getValue().getType()))
          store.setAlignment(bytes);
      }
    });
  }
};

} // namespace
