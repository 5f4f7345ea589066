//===- KernelCompilerTest.cpp - Compiled kernels run and compute ----------===//

#include "tcc/Codegen/KernelCompiler.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <dlfcn.h>
#include <memory>
#include <unistd.h>

using namespace mlir;

namespace {

using KernelFn = void (*)(void *const *, int64_t, int64_t);

/// A compiled shared object loaded from a temporary file.
class LoadedKernels {
public:
  explicit LoadedKernels(const std::vector<uint8_t> &bytes) {
    char path[] = "/tmp/tcc-kernel-test-XXXXXX";
    int fd = mkstemp(path);
    EXPECT_GE(fd, 0);
    EXPECT_EQ(write(fd, bytes.data(), bytes.size()),
              static_cast<ssize_t>(bytes.size()));
    close(fd);
    handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    unlink(path);
    if (!handle)
      ADD_FAILURE() << dlerror();
  }
  ~LoadedKernels() {
    if (handle)
      dlclose(handle);
  }
  /// The kernel, or one that fails the test when the object did not load.
  KernelFn get(const char *symbol) {
    void *fn = handle ? dlsym(handle, symbol) : nullptr;
    if (!fn) {
      ADD_FAILURE() << "no kernel " << symbol;
      return [](void *const *, int64_t, int64_t) {};
    }
    return reinterpret_cast<KernelFn>(fn);
  }

private:
  void *handle = nullptr;
};

class KernelCompilerTest : public ::testing::Test {
protected:
  KernelCompilerTest() {
    DialectRegistry registry;
    tcc::registerCodegenDialects(registry);
    context.appendDialectRegistry(registry);
  }

  tcc::KernelObject compile(const char *source) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    FailureOr<tcc::KernelObject> object =
        tcc::compileKernels(*module, tcc::CpuTarget::host());
    if (failed(object)) {
      ADD_FAILURE() << "compileKernels failed";
      return tcc::KernelObject();
    }
    return std::move(*object);
  }

  MLIRContext context;
};

TEST_F(KernelCompilerTest, BroadcastAddRunsInIndependentTiles) {
  tcc::KernelObject object = compile(R"mlir(
    func.func @add(%a: tensor<4x3xf32>, %b: tensor<3xf32>) -> tensor<4x3xf32> {
      %0 = tcc.add %a, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
      return %0 : tensor<4x3xf32>
    })mlir");
  ASSERT_EQ(object.kernels.size(), 1u);
  const tcc::CompiledKernel &kernel = object.kernels[0];
  EXPECT_EQ(kernel.symbol, "add");
  EXPECT_EQ(kernel.numInputs, 2u);
  EXPECT_EQ(kernel.numOutputs, 1u);
  EXPECT_EQ(kernel.tiles, 4);

  LoadedKernels loaded(object.sharedObject);
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
  tcc::KernelObject object = compile(R"mlir(
    func.func @exp(%a: tensor<64xf32>) -> tensor<64xf32> {
      %0 = tcc.exp %a : tensor<64xf32>
      return %0 : tensor<64xf32>
    })mlir");
  LoadedKernels loaded(object.sharedObject);
  float in[64], out[64];
  for (int i = 0; i < 64; ++i)
    in[i] = -20.0f + 0.6f * i;
  void *bindings[] = {in, out};
  loaded.get("exp")(bindings, 0, object.kernels[0].tiles);
  for (int i = 0; i < 64; ++i)
    EXPECT_NEAR(out[i], std::exp(double(in[i])), 4e-7 * std::exp(double(in[i])))
        << "x = " << in[i];
}

TEST_F(KernelCompilerTest, BatchedMatmulInFloat64) {
  tcc::KernelObject object = compile(R"mlir(
    func.func @mm(%a: tensor<2x3xf64>, %b: tensor<2x3x2xf64>) -> tensor<2x2x2xf64> {
      %0 = tcc.matmul %a, %b : (tensor<2x3xf64>, tensor<2x3x2xf64>) -> tensor<2x2x2xf64>
      return %0 : tensor<2x2x2xf64>
    })mlir");
  LoadedKernels loaded(object.sharedObject);
  double a[6] = {1, 2, 3, 4, 5, 6};
  double b[12] = {1, 0, 0, 1, 1, 1, /*batch 1*/ 2, 0, 0, 2, 0, 0};
  double out[8];
  void *bindings[] = {a, b, out};
  loaded.get("mm")(bindings, 0, object.kernels[0].tiles);
  // Hand-computed: batch 0 = a * [[1,0],[0,1],[1,1]], batch 1 = a * [[2,0],[0,2],[0,0]].
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
