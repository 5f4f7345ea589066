//===- UseNvptxIntrinsics.cpp - libdevice calls as LLVM intrinsics --------===//

#include "tcc/Codegen/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/StringMap.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_TCCUSENVPTXINTRINSICS
#include "tcc/Codegen/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

/// libdevice functions (f32 and f64 names) and the LLVM op that computes
/// the same value with the PTX instruction LLVM's NVPTX backend emits for
/// it (IEEE-rounded: sqrt.rn, fma.rn).
const llvm::StringMap<StringRef> &replacements() {
  static const llvm::StringMap<StringRef> table = [] {
    llvm::StringMap<StringRef> t;
    auto both = [&](StringRef f32, StringRef f64, StringRef op) {
      t[f32] = op;
      t[f64] = op;
    };
    both("__nv_fabsf", "__nv_fabs", "llvm.intr.fabs");
    both("__nv_floorf", "__nv_floor", "llvm.intr.floor");
    both("__nv_ceilf", "__nv_ceil", "llvm.intr.ceil");
    both("__nv_sqrtf", "__nv_sqrt", "llvm.intr.sqrt");
    both("__nv_fmaf", "__nv_fma", "llvm.intr.fma");
    both("__nv_rintf", "__nv_rint", "llvm.intr.roundeven");
    both("__nv_truncf", "__nv_trunc", "llvm.intr.trunc");
    both("__nv_roundf", "__nv_round", "llvm.intr.round");
    both("__nv_copysignf", "__nv_copysign", "llvm.intr.copysign");
    both("__nv_fmodf", "__nv_fmod", "llvm.frem");
    return t;
  }();
  return table;
}

struct UseNvptxIntrinsicsPass
    : tcc::impl::TccUseNvptxIntrinsicsBase<UseNvptxIntrinsicsPass> {
  void runOnOperation() override {
    SmallVector<LLVM::CallOp> calls;
    getOperation()->walk([&](LLVM::CallOp call) {
      if (auto callee = call.getCallee();
          callee && replacements().count(*callee))
        calls.push_back(call);
    });
    for (LLVM::CallOp call : calls) {
      OpBuilder b(call);
      OperationState state(call.getLoc(),
                           replacements().lookup(*call.getCallee()));
      state.addOperands(call.getArgOperands());
      state.addTypes(call.getResultTypes());
      Operation *replacement = b.create(state);
      call.replaceAllUsesWith(replacement->getResults());
      call.erase();
    }
    // Declarations nothing calls any more.
    SmallVector<LLVM::LLVMFuncOp> unused;
    getOperation()->walk([&](LLVM::LLVMFuncOp fn) {
      if (fn.isExternal() && replacements().count(fn.getName()) &&
          SymbolTable::symbolKnownUseEmpty(fn, getOperation()))
        unused.push_back(fn);
    });
    for (LLVM::LLVMFuncOp fn : unused)
      fn.erase();
  }
};

} // namespace
