//===- KernelCompilerTest.cpp - Compiled kernels run and compute ----------===//

#include "tcc/Codegen/KernelCompiler.h"
#include "LoadedKernels.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>

using namespace mlir;
// Not `tcc::`: with `using namespace mlir` it would be ambiguous between
// mlir::tcc and ::tcc (the runtime).
namespace codegen = mlir::tcc;
using tcc_test::KernelFn;
using tcc_test::LoadedKernels;

namespace {

class KernelCompilerTest : public ::testing::Test {
protected:
  KernelCompilerTest() {
    DialectRegistry registry;
    codegen::registerCodegenDialects(registry);
    context.appendDialectRegistry(registry);
  }

  codegen::KernelObject
  compile(const char *source,
          const codegen::CpuTarget &target = codegen::CpuTarget::host()) {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    FailureOr<codegen::KernelObject> object =
        codegen::compileKernels(*module, target);
    if (failed(object)) {
      ADD_FAILURE() << "compileKernels failed";
      return codegen::KernelObject();
    }
    return std::move(*object);
  }

  MLIRContext context;
};

TEST_F(KernelCompilerTest, BroadcastAddRunsInIndependentTiles) {
  codegen::KernelObject object = compile(R"mlir(
    func.func @add(%a: tensor<4x3xf32>, %b: tensor<3xf32>) -> tensor<4x3xf32> {
      %0 = tcc.add %a, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
      return %0 : tensor<4x3xf32>
    })mlir");
  ASSERT_EQ(object.kernels.size(), 1u);
  const codegen::CompiledKernel &kernel = object.kernels[0];
  EXPECT_EQ(kernel.symbol, "add");
  EXPECT_EQ(kernel.numInputs, 2u);
  EXPECT_EQ(kernel.numOutputs, 1u);
  EXPECT_EQ(kernel.tiles, 4);

  LoadedKernels loaded(object);
  KernelFn add = loaded.get("add");
  ASSERT_NE(add, nullptr);
  float a[12], b[3] = {10, 20, 30}, out[12] = {};
  for (int i = 0; i < 12; ++i)
    a[i] = static_cast<float>(i);
  void *bindings[] = {a, b, out};
  // Tiles run in any order and any grouping.
  add(bindings, 2, 4);
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(out[i], 0.0f) << "tile range [2, 4) wrote row " << i / 3;
  add(bindings, 0, 2);
  for (int i = 0; i < 12; ++i)
    EXPECT_EQ(out[i], a[i] + b[i % 3]) << i;
}

TEST_F(KernelCompilerTest, ExpApproximationIsAccurate) {
  // On the host's CPU, and on the x86-64 baseline, whose code calls fmaf and
  // floorf through the import table (as it does on a host without FMA).
  const char *source = R"mlir(
    func.func @exp(%a: tensor<64xf32>) -> tensor<64xf32> {
      %0 = tcc.exp %a : tensor<64xf32>
      return %0 : tensor<64xf32>
    })mlir";
  for (const codegen::CpuTarget &target :
       {codegen::CpuTarget::host(), codegen::CpuTarget::named("x86-64")}) {
    SCOPED_TRACE("cpu " + target.cpu);
    codegen::KernelObject object = compile(source, target);
#if defined(__x86_64__)
    if (target.cpu == "x86-64") {
      EXPECT_NE(llvm::find(object.imports, "fmaf"), object.imports.end());
    }
#endif
    LoadedKernels loaded(object);
    KernelFn exp = loaded.get("exp");
    ASSERT_NE(exp, nullptr);
    float in[64], out[64];
    for (int i = 0; i < 64; ++i)
      in[i] = -20.0f + 0.6f * i;
    void *bindings[] = {in, out};
    exp(bindings, 0, object.kernels[0].tiles);
    for (int i = 0; i < 64; ++i)
      EXPECT_NEAR(out[i], std::exp(double(in[i])),
                  4e-7 * std::exp(double(in[i])))
          << "x = " << in[i];
  }
}

TEST_F(KernelCompilerTest, BatchedMatmulInFloat64) {
  codegen::KernelObject object = compile(R"mlir(
    func.func @mm(%a: tensor<2x3xf64>, %b: tensor<2x3x2xf64>) -> tensor<2x2x2xf64> {
      %0 = tcc.matmul %a, %b : (tensor<2x3xf64>, tensor<2x3x2xf64>) -> tensor<2x2x2xf64>
      return %0 : tensor<2x2x2xf64>
    })mlir");
  LoadedKernels loaded(object);
  KernelFn mm = loaded.get("mm");
  ASSERT_NE(mm, nullptr);
  double a[6] = {1, 2, 3, 4, 5, 6};
  double b[12] = {1, 0, 0, 1, 1, 1, /*batch 1*/ 2, 0, 0, 2, 0, 0};
  double out[8];
  void *bindings[] = {a, b, out};
  mm(bindings, 0, object.kernels[0].tiles);
  // Hand-computed: batch 0 = a * [[1,0],[0,1],[1,1]], batch 1 = a *
  // [[2,0],[0,2],[0,0]].
  double expected[8] = {4, 5, 10, 11, 2, 4, 8, 10};
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(out[i], expected[i]) << i;
}

TEST_F(KernelCompilerTest, SameInputGivesSameBytes) {
  const char *source = R"mlir(
    func.func @exp(%a: tensor<8xf32>) -> tensor<8xf32> {
      %0 = tcc.exp %a : tensor<8xf32>
      return %0 : tensor<8xf32>
    })mlir";
  EXPECT_EQ(compile(source).sharedObject, compile(source).sharedObject);
}

} // namespace
