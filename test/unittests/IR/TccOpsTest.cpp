//===- TccOpsTest.cpp - Building tcc ops through the C++ API --------------===//
//
// Shapes are checked against values PyTorch produces (quoted per test) and,
// for pooling, against a brute-force count of the windows PyTorch visits.
//
//===----------------------------------------------------------------------===//

#include "tcc/IR/TccOps.h"
#include "tcc/IR/TccDialect.h"
#include "tcc/IR/TensorSizes.h"

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
    module = ModuleOp::create(loc());
    builder.setInsertionPointToEnd(module->getBody());
  }

  Location loc() { return builder.getUnknownLoc(); }

  RankedTensorType f32(ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, builder.getF32Type());
  }
  RankedTensorType i64(ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, builder.getI64Type());
  }

  /// A function with arguments of the given types; the builder is left at the
  /// start of its body.
  func::FuncOp makeFunc(TypeRange args) {
    auto fn = builder.create<func::FuncOp>(loc(), "f",
                                           builder.getFunctionType(args, {}));
    builder.setInsertionPointToStart(fn.addEntryBlock());
    return fn;
  }

  /// Ends the function being built and verifies the module.
  bool verifies() {
    builder.create<func::ReturnOp>(loc());
    return succeeded(verify(*module));
  }

  MLIRContext context;
  OpBuilder builder;
  OwningOpRef<ModuleOp> module;
};

TEST_F(TccOpsTest, AddInfersBroadcastShape) {
  auto fn = makeFunc({f32({4, 1, 3}), f32({5, 1})});
  auto add =
      builder.create<tcc::AddOp>(loc(), fn.getArgument(0), fn.getArgument(1));
  EXPECT_EQ(add.getType(), f32({4, 5, 3}));
}

TEST_F(TccOpsTest, ComparisonInfersI1) {
  auto fn = makeFunc({f32({2, 1}), f32({3})});
  auto lt =
      builder.create<tcc::LtOp>(loc(), fn.getArgument(0), fn.getArgument(1));
  EXPECT_EQ(lt.getType(),
            RankedTensorType::get({2, 3}, builder.getIntegerType(1)));
}

TEST_F(TccOpsTest, MatmulInfersBatchedShape) {
  auto fn = makeFunc({f32({2, 1, 8, 16}), f32({3, 16, 4})});
  auto mm = builder.create<tcc::MatmulOp>(loc(), fn.getArgument(0),
                                          fn.getArgument(1));
  EXPECT_EQ(mm.getType(), f32({2, 3, 8, 4}));
}

TEST_F(TccOpsTest, LinearInfersShapeWithAndWithoutBias) {
  auto fn = makeFunc({f32({2, 7, 16}), f32({5, 16}), f32({5})});
  auto withBias = builder.create<tcc::LinearOp>(
      loc(), fn.getArgument(0), fn.getArgument(1), fn.getArgument(2));
  auto noBias = builder.create<tcc::LinearOp>(loc(), fn.getArgument(0),
                                              fn.getArgument(1), Value());
  EXPECT_EQ(withBias.getType(), f32({2, 7, 5}));
  EXPECT_EQ(noBias.getType(), f32({2, 7, 5}));
  EXPECT_TRUE(verifies());
}

// torchvision's ResNet-18 stem: conv 7x7/2 pad 3 then max pool 3x3/2 pad 1
// takes 1x3x224x224 to 1x64x112x112 and then 1x64x56x56.
TEST_F(TccOpsTest, ResNetStemMatchesPyTorch) {
  auto fn = makeFunc({f32({1, 3, 224, 224}), f32({64, 3, 7, 7})});
  auto conv = builder.create<tcc::Conv2dOp>(
      loc(), fn.getArgument(0), fn.getArgument(1), Value(),
      ArrayRef<int64_t>{2, 2}, ArrayRef<int64_t>{3, 3}, ArrayRef<int64_t>{1, 1},
      1, tcc::Layout::NCHW);
  EXPECT_EQ(conv.getType(), f32({1, 64, 112, 112}));
  auto pool = builder.create<tcc::MaxPool2dOp>(
      loc(), conv.getResult(), ArrayRef<int64_t>{3, 3}, ArrayRef<int64_t>{2, 2},
      ArrayRef<int64_t>{1, 1});
  EXPECT_EQ(pool.getType(), f32({1, 64, 56, 56}));
  EXPECT_TRUE(verifies());
}

// GoogLeNet's ceil_mode pools (112 -> 56 with 3x3/2), and PyTorch's rule that
// drops a last window starting in the right padding: nn.MaxPool2d(2, 2,
// padding=1, ceil_mode=True) takes 5x5 to 3x3, not 4x4.
TEST_F(TccOpsTest, CeilModeMatchesPyTorch) {
  auto fn = makeFunc({f32({1, 8, 112, 112}), f32({1, 1, 5, 5})});
  auto a = builder.create<tcc::MaxPool2dOp>(
      loc(), fn.getArgument(0), ArrayRef<int64_t>{3, 3},
      ArrayRef<int64_t>{2, 2}, ArrayRef<int64_t>{0, 0}, ArrayRef<int64_t>{1, 1},
      /*ceil_mode=*/true);
  EXPECT_EQ(a.getType(), f32({1, 8, 56, 56}));
  auto b = builder.create<tcc::MaxPool2dOp>(
      loc(), fn.getArgument(1), ArrayRef<int64_t>{2, 2},
      ArrayRef<int64_t>{2, 2}, ArrayRef<int64_t>{1, 1}, ArrayRef<int64_t>{1, 1},
      /*ceil_mode=*/true);
  EXPECT_EQ(b.getType(), f32({1, 1, 3, 3}));
}

/// The windows PyTorch's pooling visits along one axis, counted one by one
/// in padded coordinates: a window fits when it ends inside the padded
/// input; ceil mode also keeps a window that overshoots the end by less than
/// one stride, as long as it starts inside the input or its left padding.
static int64_t countWindows(int64_t size, int64_t kernel, int64_t stride,
                            int64_t pad, int64_t dilation, bool ceilMode) {
  int64_t span = dilation * (kernel - 1) + 1, padded = size + 2 * pad;
  int64_t count = 0;
  for (int64_t start = 0;; start += stride) {
    bool fits = start + span <= padded;
    bool partial =
        ceilMode && start + span < padded + stride && start < size + pad;
    if (!fits && !partial)
      return count;
    ++count;
  }
}

TEST_F(TccOpsTest, PoolingMatchesWindowCount) {
  int checked = 0;
  for (int64_t size = 1; size <= 12; ++size)
    for (int64_t kernel = 1; kernel <= 4; ++kernel)
      for (int64_t stride = 1; stride <= 3; ++stride)
        for (int64_t pad = 0; pad <= kernel / 2; ++pad)
          for (int64_t dilation = 1; dilation <= 2; ++dilation)
            for (bool ceilMode : {false, true}) {
              auto fn = makeFunc({f32({1, 2, size, size + 1})});
              tcc::MaxPool2dOp::Properties props;
              props.kernel_size =
                  builder.getDenseI64ArrayAttr({kernel, kernel});
              props.stride = builder.getDenseI64ArrayAttr({stride, stride});
              props.padding = builder.getDenseI64ArrayAttr({pad, pad});
              props.dilation =
                  builder.getDenseI64ArrayAttr({dilation, dilation});
              props.ceil_mode = builder.getBoolAttr(ceilMode);
              tcc::MaxPool2dOp::Adaptor adaptor(fn.getArguments(), nullptr,
                                                props);
              SmallVector<Type> results;
              ScopedDiagnosticHandler quiet(
                  &context, [](Diagnostic &) { return success(); });
              LogicalResult inferred = tcc::MaxPool2dOp::inferReturnTypes(
                  &context, loc(), adaptor, results);
              int64_t h =
                  countWindows(size, kernel, stride, pad, dilation, ceilMode);
              int64_t w = countWindows(size + 1, kernel, stride, pad, dilation,
                                       ceilMode);
              SCOPED_TRACE(testing::Message()
                           << "size " << size << " kernel " << kernel
                           << " stride " << stride << " pad " << pad
                           << " dilation " << dilation << " ceil " << ceilMode);
              if (h < 1 || w < 1) {
                EXPECT_TRUE(failed(inferred));
              } else {
                ASSERT_TRUE(succeeded(inferred));
                EXPECT_EQ(results[0], f32({1, 2, h, w}));
              }
              fn.erase();
              builder.setInsertionPointToEnd(module->getBody());
              ++checked;
            }
  EXPECT_GT(checked, 1000);
}

// The NHWC form computes the same sizes as NCHW, with dims permuted.
TEST_F(TccOpsTest, Conv2dNhwcMatchesNchw) {
  auto fn = makeFunc({f32({2, 6, 11, 9}), f32({4, 3, 3, 2}), f32({2, 11, 9, 6}),
                      f32({4, 3, 2, 3})});
  SmallVector<int64_t> stride = {2, 1}, padding = {1, 0}, dilation = {1, 2};
  auto nchw = builder.create<tcc::Conv2dOp>(
      loc(), fn.getArgument(0), fn.getArgument(1), Value(), stride, padding,
      dilation, 2, tcc::Layout::NCHW);
  auto nhwc = builder.create<tcc::Conv2dOp>(
      loc(), fn.getArgument(2), fn.getArgument(3), Value(), stride, padding,
      dilation, 2, tcc::Layout::NHWC);
  // H: (11 + 2 - 2 - 1) / 2 + 1 = 6; W: (9 - 2 - 1) / 1 + 1 = 7.
  EXPECT_EQ(nchw.getType(), f32({2, 4, 6, 7}));
  EXPECT_EQ(nhwc.getType(), f32({2, 6, 7, 4}));
  EXPECT_TRUE(verifies());
}

TEST_F(TccOpsTest, ReductionsNormalizeNegativeDims) {
  auto fn = makeFunc({f32({2, 3, 4})});
  auto sum = builder.create<tcc::ReduceSumOp>(loc(), fn.getArgument(0),
                                              ArrayRef<int64_t>{-1, 0}, false);
  auto mean = builder.create<tcc::ReduceMeanOp>(loc(), fn.getArgument(0),
                                                ArrayRef<int64_t>{1}, true);
  auto arg = builder.create<tcc::ArgmaxOp>(loc(), fn.getArgument(0), -2, false);
  EXPECT_EQ(sum.getType(), f32({3}));
  EXPECT_EQ(mean.getType(), f32({2, 1, 4}));
  EXPECT_EQ(arg.getType(), i64({2, 4}));
  // Folding rewrites the dims in place to sorted non-negative form.
  SmallVector<OpFoldResult> folded;
  ASSERT_TRUE(succeeded(sum->fold(folded)));
  EXPECT_EQ(sum.getDims(), ArrayRef<int64_t>({0, 2}));
}

TEST_F(TccOpsTest, ShapeOpsInferShapes) {
  auto fn = makeFunc({f32({2, 3, 4}), i64({5}), f32({10, 8}), i64({2, 3})});
  auto t = builder.create<tcc::TransposeOp>(loc(), fn.getArgument(0),
                                            ArrayRef<int64_t>{2, 0, 1});
  auto s = builder.create<tcc::SliceOp>(
      loc(), fn.getArgument(0), ArrayRef<int64_t>{0, 1, 0},
      ArrayRef<int64_t>{2, 3, 4}, ArrayRef<int64_t>{1, 1, 3});
  auto c = builder.create<tcc::ConcatOp>(
      loc(), ValueRange{fn.getArgument(0), fn.getArgument(0)}, 1);
  auto i = builder.create<tcc::IndexSelectOp>(loc(), fn.getArgument(0),
                                              fn.getArgument(1), 2);
  auto e = builder.create<tcc::EmbeddingOp>(loc(), fn.getArgument(3),
                                            fn.getArgument(2));
  // torch.nn.functional.pad(x, (1, 2, -1, 0)) on 2x3x4 gives 2x2x7.
  auto p = builder.create<tcc::PadOp>(loc(), fn.getArgument(0),
                                      ArrayRef<int64_t>{1, 2, -1, 0},
                                      llvm::APFloat(0.0));
  EXPECT_EQ(t.getType(), f32({4, 2, 3}));
  EXPECT_EQ(s.getType(), f32({2, 2, 2}));
  EXPECT_EQ(c.getType(), f32({2, 6, 4}));
  EXPECT_EQ(i.getType(), f32({2, 3, 5}));
  EXPECT_EQ(e.getType(), f32({2, 3, 8}));
  EXPECT_EQ(p.getType(), f32({2, 2, 7}));
  EXPECT_TRUE(verifies());
}

TEST_F(TccOpsTest, TransposesComposeWhenFolded) {
  auto fn = makeFunc({f32({2, 3, 4})});
  Value x = fn.getArgument(0);
  Value once = builder.createOrFold<tcc::TransposeOp>(
      loc(), x, ArrayRef<int64_t>{1, 2, 0});
  // {1, 2, 0} then {2, 0, 1} composes in place to the identity on x...
  Value twice = builder.createOrFold<tcc::TransposeOp>(
      loc(), once, ArrayRef<int64_t>{2, 0, 1});
  auto composed = twice.getDefiningOp<tcc::TransposeOp>();
  ASSERT_TRUE(composed);
  EXPECT_EQ(composed.getInput(), x);
  EXPECT_EQ(composed.getPermutation(), ArrayRef<int64_t>({0, 1, 2}));
  // ...which the next fold removes.
  SmallVector<OpFoldResult> folded;
  ASSERT_TRUE(succeeded(composed->fold(folded)));
  EXPECT_EQ(folded[0].get<Value>(), x);
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
      &context, loc(), operands, nullptr, nullptr, {}, inferred)));
  EXPECT_NE(message.find("do not broadcast"), std::string::npos) << message;
}

// Inference can run before ODS has checked that required attributes exist:
// it must fail with a diagnostic, not dereference a null attribute.
TEST_F(TccOpsTest, InferenceWithoutAttributesFailsCleanly) {
  auto fn = makeFunc({f32({2, 3})});
  std::vector<std::string> messages;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    messages.push_back(diag.str());
    return success();
  });
  SmallVector<Type> inferred;
  ValueRange x = fn.getArguments();
  EXPECT_TRUE(failed(tcc::ReduceSumOp::inferReturnTypes(
      &context, loc(), x, nullptr, nullptr, {}, inferred)));
  EXPECT_TRUE(failed(tcc::TransposeOp::inferReturnTypes(
      &context, loc(), x, nullptr, nullptr, {}, inferred)));
  EXPECT_TRUE(failed(tcc::SliceOp::inferReturnTypes(&context, loc(), x, nullptr,
                                                    nullptr, {}, inferred)));
  EXPECT_TRUE(failed(tcc::MaxPool2dOp::inferReturnTypes(
      &context, loc(), x, nullptr, nullptr, {}, inferred)));
  // Too few operands for the op: a missing operand is reported too.
  EXPECT_TRUE(failed(tcc::ConcatOp::inferReturnTypes(
      &context, loc(), ValueRange{}, nullptr, nullptr, {}, inferred)));
  ASSERT_EQ(messages.size(), 5u);
  EXPECT_NE(messages[0].find("requires attribute 'dims'"), std::string::npos);
  EXPECT_NE(messages[1].find("requires attribute 'permutation'"),
            std::string::npos);
  EXPECT_TRUE(inferred.empty());
}

TEST_F(TccOpsTest, ConstantFoldsToItsValue) {
  makeFunc({});
  auto type = f32({2});
  auto value = DenseElementsAttr::get(type, ArrayRef<float>{1.0f, 2.0f});
  auto constant = builder.create<tcc::ConstantOp>(loc(), value);
  EXPECT_EQ(constant.getType(), type);
  SmallVector<OpFoldResult> folded;
  ASSERT_TRUE(succeeded(constant->fold(folded)));
  EXPECT_EQ(folded[0].get<Attribute>(), value);
  EXPECT_TRUE(verifies());
}

TEST_F(TccOpsTest, SplatsFold) {
  auto fn = makeFunc({});
  (void)fn;
  auto two = builder.create<tcc::ConstantOp>(
      loc(), DenseElementsAttr::get(f32({3}), 2.0f));
  auto three = builder.create<tcc::ConstantOp>(
      loc(), DenseElementsAttr::get(f32({2, 1}), 3.0f));
  Value product = builder.createOrFold<tcc::MulOp>(loc(), two, three);
  auto folded = product.getDefiningOp<tcc::ConstantOp>();
  ASSERT_TRUE(folded);
  EXPECT_EQ(folded.getType(), f32({2, 3}));
  auto splat = cast<SplatElementsAttr>(folded.getValue());
  EXPECT_EQ(splat.getSplatValue<float>(), 6.0f);
}

TEST_F(TccOpsTest, FunctionNamesMustBeUnique) {
  auto fn = makeFunc({f32({2}), f32({2})});
  fn.setArgAttr(0, "tcc.name", builder.getStringAttr("x"));
  fn.setArgAttr(1, "tcc.name", builder.getStringAttr("y"));
  EXPECT_TRUE(verifies());
  fn.setArgAttr(1, "tcc.name", builder.getStringAttr("x"));
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });
  EXPECT_TRUE(failed(verify(*module)));
}

TEST(TensorSizesTest, CountsWithoutOverflow) {
  EXPECT_EQ(tcc::getCheckedNumElements({2, 3, 4}), 24);
  EXPECT_EQ(tcc::getCheckedNumElements({}), 1);
  EXPECT_EQ(tcc::getCheckedNumElements({0, INT64_MAX}), 0);
  EXPECT_EQ(tcc::getCheckedNumElements({INT64_MAX, 1}), INT64_MAX);
  EXPECT_EQ(tcc::getCheckedNumElements({int64_t(1) << 32, int64_t(1) << 31}),
            std::nullopt);
  EXPECT_EQ(tcc::getCheckedNumElements({int64_t(1) << 32, int64_t(1) << 32}),
            std::nullopt); // wraps to 0 unchecked
  EXPECT_EQ(tcc::getCheckedNumElements({ShapedType::kDynamic}), std::nullopt);

  MLIRContext context;
  Builder b(&context);
  EXPECT_EQ(tcc::getCheckedByteSize({3}, b.getI1Type()), 3);
  EXPECT_EQ(tcc::getCheckedByteSize({3}, b.getBF16Type()), 6);
  EXPECT_EQ(tcc::getCheckedByteSize({int64_t(1) << 61}, b.getF32Type()),
            std::nullopt);
  EXPECT_TRUE(tcc::hasBoundedSize(
      RankedTensorType::get({int64_t(1) << 60}, b.getF32Type())));
  EXPECT_FALSE(tcc::hasBoundedSize(
      RankedTensorType::get({int64_t(1) << 61}, b.getF32Type())));
  EXPECT_TRUE(tcc::hasBoundedSize(b.getF32Type()));
}

} // namespace
