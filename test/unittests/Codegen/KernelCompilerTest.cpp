//===- KernelCompilerTest.cpp - Compiled kernels run and compute ----------===//

#include "tcc/Codegen/KernelCompiler.h"
#include "LoadedKernels.h"
#include "tcc/runtime/Float16.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
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

TEST_F(KernelCompilerTest, SixteenBitFloatsConvertAsTheRuntimeDefines) {
  // float -> float16 / bfloat16 -> float, compiled for CPUs with conversion
  // instructions (F16C; AVX512-BF16 on hosts that have it) and for the
  // baseline, whose code calls __truncsfhf2 and __extendhfsf2 through the
  // import table: each gives Float16.h's bits.
  const char *source = R"mlir(
    func.func @half(%a: tensor<16xf32>) -> (tensor<16xf16>, tensor<16xf32>) {
      %0 = tcc.cast %a : tensor<16xf32> to tensor<16xf16>
      %1 = tcc.cast %0 : tensor<16xf16> to tensor<16xf32>
      return %0, %1 : tensor<16xf16>, tensor<16xf32>
    }
    func.func @bfloat(%a: tensor<16xf32>) -> (tensor<16xbf16>, tensor<16xf32>) {
      %0 = tcc.cast %a : tensor<16xf32> to tensor<16xbf16>
      %1 = tcc.cast %0 : tensor<16xbf16> to tensor<16xf32>
      return %0, %1 : tensor<16xbf16>, tensor<16xf32>
    })mlir";
  const float inf = std::numeric_limits<float>::infinity();
  // Ties to even in both formats, overflow, subnormals, -0, Inf, NaN.
  const float in[16] = {1.0f + 0x1p-11f,
                        1.0f + 0x3p-11f,
                        65519.0f,
                        65520.0f,
                        0x1p-24f,
                        0x1p-25f,
                        0x3p-25f,
                        -0.0f,
                        1.0f + 0x1p-8f,
                        1.0f + 0x3p-8f,
                        3e38f,
                        -inf,
                        1e-40f,
                        -0.1f,
                        inf,
                        std::numeric_limits<float>::quiet_NaN()};
  for (const codegen::CpuTarget &target :
       {codegen::CpuTarget::host(), codegen::CpuTarget::named("x86-64"),
        codegen::CpuTarget::named("x86-64-v3")}) {
    SCOPED_TRACE("cpu " + target.cpu);
    codegen::KernelObject object = compile(source, target);
    if (target.cpu == "x86-64") // binary16 needs F16C
      for (const char *name : {"__truncsfhf2", "__extendhfsf2"})
        EXPECT_NE(llvm::find(object.imports, name), object.imports.end())
            << name;
    // Code for a CPU above this host's (x86-64-v3 on a VM without AVX) is
    // compiled, not run.
    if (!tcc_test::hostRuns(target))
      continue;
    LoadedKernels loaded(object);
    for (bool bfloat : {false, true}) {
      const char *name = bfloat ? "bfloat" : "half";
      KernelFn convert = loaded.get(name);
      ASSERT_NE(convert, nullptr);
      auto kernel = llvm::find_if(
          object.kernels, [&](const auto &k) { return k.symbol == name; });
      ASSERT_NE(kernel, object.kernels.end());
      uint16_t bits[16];
      float back[16];
      void *bindings[] = {const_cast<float *>(in), bits, back};
      convert(bindings, 0, kernel->tiles);
      for (int i = 0; i < 16; ++i) {
        uint16_t want = bfloat ? ::tcc::runtime::floatToBFloat16Bits(in[i])
                               : ::tcc::runtime::floatToHalfBits(in[i]);
        float wantBack = bfloat ? ::tcc::runtime::bfloat16BitsToFloat(want)
                                : ::tcc::runtime::halfBitsToFloat(want);
        if (std::isnan(in[i])) {
          EXPECT_TRUE(std::isnan(back[i])) << bfloat << " NaN";
          continue;
        }
        EXPECT_EQ(bits[i], want) << (bfloat ? "bf16 " : "f16 ") << in[i];
        EXPECT_EQ(std::memcmp(&back[i], &wantBack, 4), 0)
            << (bfloat ? "bf16 " : "f16 ") << in[i] << " back " << back[i];
      }
    }
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
