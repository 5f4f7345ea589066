//===- LowerToLinalg.cpp - tcc ops to linalg on tensors -------------------===//
//
// Every op becomes loops-to-be (linalg.generic) or a view (collapse/expand
// shape), never a library call: kernels must run without imports. The
// patterns live in one file per op family (LowerElementwise, LowerReductions,
// LowerNN, LowerShape, LowerQuantization); this file holds the type
// conversion and the pass.
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/LowerToLinalg.h"

#include "LoweringUtils.h"
#include "tcc/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_TCCLOWERTOLINALG
#include "tcc/Codegen/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

void tcc::populateTccToLinalgTypeConversion(TypeConverter &converter) {
  converter.addConversion([](Type type) { return type; });
  converter.addConversion([](RankedTensorType type) -> Type {
    return type.clone(lowering::storageType(type.getElementType()));
  });
  auto cast = [](OpBuilder &b, Type type, ValueRange inputs,
                 Location loc) -> std::optional<Value> {
    return b.create<UnrealizedConversionCastOp>(loc, type, inputs).getResult(0);
  };
  converter.addSourceMaterialization(cast);
  converter.addTargetMaterialization(cast);
  converter.addArgumentMaterialization(cast);
}

void tcc::populateTccToLinalgPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns) {
  lowering::populateElementwisePatterns(converter, patterns);
  lowering::populateReductionPatterns(converter, patterns);
  lowering::populateNNPatterns(converter, patterns);
  lowering::populateShapePatterns(converter, patterns);
  lowering::populateQuantizationPatterns(converter, patterns);
}

namespace {

struct LowerToLinalgPass : tcc::impl::TccLowerToLinalgBase<LowerToLinalgPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    TypeConverter converter;
    tcc::populateTccToLinalgTypeConversion(converter);
    RewritePatternSet patterns(ctx);
    tcc::populateTccToLinalgPatterns(converter, patterns);
    // Function signatures with ui8 tensors become i8 ones.
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    populateCallOpTypeConversionPattern(patterns, converter);

    ConversionTarget target(*ctx);
    target.addIllegalDialect<tcc::TccDialect>();
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp func) {
      return converter.isSignatureLegal(func.getFunctionType()) &&
             converter.isLegal(&func.getBody());
    });
    target.addDynamicallyLegalOp<func::ReturnOp, func::CallOp>(
        [&](Operation *op) { return converter.isLegal(op); });
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
    getOperation()->walk(tcc::lowering::copyReturnedArguments);
    getOperation()->walk(markArgumentsReadOnly);
  }

  /// Kernel inputs are read-only: other kernels may read the same buffers.
  /// Without this, one-shot bufferization may compute a result in place in
  /// an argument's buffer (e.g. linear's accumulator starting from its bias,
  /// once the canonicalizer folds the bias copy away).
  static void markArgumentsReadOnly(func::FuncOp func) {
    if (func.isExternal())
      return;
    auto readOnly = BoolAttr::get(func.getContext(), false);
    for (BlockArgument arg : func.getArguments())
      if (isa<TensorType>(arg.getType()))
        func.setArgAttr(arg.getArgNumber(), "bufferization.writable", readOnly);
  }

};

} // namespace
