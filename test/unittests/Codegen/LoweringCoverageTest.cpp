//===- LoweringCoverageTest.cpp - Every tcc op has a lowering -------------===//
//
// Loops over the ops the dialect registers, so that a new op without a
// pattern in tcc-lower-to-linalg fails here instead of in a user's compile.
//
//===----------------------------------------------------------------------===//

#include "KernelTestHarness.h"

#include "tcc/Codegen/LowerToLinalg.h"
#include "tcc/IR/TccDialect.h"

#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <set>

using namespace mlir;

namespace {

TEST(LoweringCoverageTest, EveryRegisteredTccOpHasALowering) {
  std::unique_ptr<MLIRContext> context = tcc_test::makeContext();
  TypeConverter converter;
  tcc::populateTccToLinalgTypeConversion(converter);
  RewritePatternSet patterns(context.get());
  tcc::populateTccToLinalgPatterns(converter, patterns);
  std::set<std::string> lowered;
  for (const std::unique_ptr<RewritePattern> &pattern :
       patterns.getNativePatterns())
    if (std::optional<OperationName> root = pattern->getRootKind())
      lowered.insert(root->getStringRef().str());

  Dialect *tcc = context->getOrLoadDialect<tcc::TccDialect>();
  int ops = 0;
  for (RegisteredOperationName name : context->getRegisteredOperations()) {
    if (&name.getDialect() != tcc)
      continue;
    // Structure, not computation: the model compiler outlines a fusion's
    // body as one kernel, whose ops are lowered one by one.
    if (name.getStringRef() == "tcc.fusion" || name.getStringRef() == "tcc.yield")
      continue;
    ++ops;
    EXPECT_TRUE(lowered.count(name.getStringRef().str()))
        << name.getStringRef().str() << " has no lowering to linalg";
  }
  EXPECT_GT(ops, 0) << "no tcc ops registered";
}

/// f16/bf16 compute in f32; the conversions must not become compiler-rt
/// calls (__truncsfbf2, ...) on a CPU without AVX512-BF16. Linking with
/// -z defs fails on any import, so a successful compile is the check; the
/// code is not run (the build machine need not be such a CPU).
TEST(LoweringCoverageTest, HalfPrecisionKernelsLinkForAnAvx2Cpu) {
  std::unique_ptr<MLIRContext> context = tcc_test::makeContext();
  const char *source = R"mlir(
    func.func @half(%a: tensor<4x8xbf16>, %b: tensor<4x8xf16>, %w: tensor<8x3xbf16>)
        -> (tensor<4x8xbf16>, tensor<4x8xf16>, tensor<4x3xbf16>, tensor<4x8xbf16>) {
      %0 = tcc.softmax %a {dim = 1 : i64} : tensor<4x8xbf16>
      %1 = tcc.tanh %b : tensor<4x8xf16>
      %2 = tcc.matmul %a, %w : (tensor<4x8xbf16>, tensor<8x3xbf16>) -> tensor<4x3xbf16>
      %3 = tcc.cast %1 : tensor<4x8xf16> to tensor<4x8xbf16>
      return %0, %1, %2, %3 : tensor<4x8xbf16>, tensor<4x8xf16>, tensor<4x3xbf16>, tensor<4x8xbf16>
    })mlir";
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(source, context.get());
  ASSERT_TRUE(module);
  FailureOr<tcc::KernelObject> object = tcc::compileKernels(
      *module, tcc::CpuTarget::named("haswell", "x86_64-unknown-linux-gnu"));
  ASSERT_TRUE(succeeded(object));
  EXPECT_FALSE(object->sharedObject.empty());
}

} // namespace
