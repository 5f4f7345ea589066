//===- TccOpsTest.cpp - Building tcc ops through the C++ API --------------===//

#include "tcc/IR/TccDialect.h"
#include "tcc/IR/TccOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

class TccOpsTest : public ::testing::Test {
protected:
  TccOpsTest() : builder(&context) {
    context.loadDialect<tcc::TccDialect, func::FuncDialect>();
    module = ModuleOp::create(builder.getUnknownLoc());
    builder.setInsertionPointToEnd(module->getBody());
  }

  RankedTensorType f32(ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, builder.getF32Type());
  }

  /// A function with arguments of the given types; the builder is left at the
  /// start of its body.
  func::FuncOp makeFunc(TypeRange args) {
    auto fn = builder.create<func::FuncOp>(
        builder.getUnknownLoc(), "f", builder.getFunctionType(args, {}));
    builder.setInsertionPointToStart(fn.addEntryBlock());
    return fn;
  }

  MLIRContext context;
  OpBuilder builder;
  OwningOpRef<ModuleOp> module;
};

TEST_F(TccOpsTest, AddInfersBroadcastShape) {
  auto fn = makeFunc({f32({4, 1, 3}), f32({5, 1})});
  auto add = builder.create<tcc::AddOp>(builder.getUnknownLoc(),
                                        fn.getArgument(0), fn.getArgument(1));
  EXPECT_EQ(add.getType(), f32({4, 5, 3}));
}

TEST_F(TccOpsTest, MatmulInfersBatchedShape) {
  auto fn = makeFunc({f32({2, 1, 8, 16}), f32({3, 16, 4})});
  auto mm = builder.create<tcc::MatmulOp>(builder.getUnknownLoc(),
                                          fn.getArgument(0), fn.getArgument(1));
  EXPECT_EQ(mm.getType(), f32({2, 3, 8, 4}));
}

TEST_F(TccOpsTest, InferenceReportsIncompatibleShapes) {
  auto fn = makeFunc({f32({4, 3}), f32({5})});
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  SmallVector<Type> inferred;
  Value operands[] = {fn.getArgument(0), fn.getArgument(1)};
  EXPECT_TRUE(failed(tcc::AddOp::inferReturnTypes(
      &context, builder.getUnknownLoc(), operands, nullptr, nullptr, {},
      inferred)));
  EXPECT_NE(message.find("do not broadcast"), std::string::npos) << message;
}

TEST_F(TccOpsTest, ConstantFoldsToItsValue) {
  auto type = f32({2});
  auto value = DenseElementsAttr::get(type, ArrayRef<float>{1.0f, 2.0f});
  auto constant = builder.create<tcc::ConstantOp>(builder.getUnknownLoc(), value);
  EXPECT_EQ(constant.getType(), type);
  EXPECT_TRUE(succeeded(verify(*module)));
}

} // namespace
