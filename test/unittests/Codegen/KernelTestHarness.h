//===- KernelTestHarness.h - Compile, run and check kernels -----*- C++ -*-===//
//
// Kernel tests describe each case as an MLIR function of tcc ops, its inputs
// and the outputs a naive float64 reference computed; the harness compiles
// all cases of a test into one shared object (one compileKernels call),
// runs every kernel tile by tile, and compares.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_UNITTESTS_CODEGEN_KERNELTESTHARNESS_H
#define TCC_TEST_UNITTESTS_CODEGEN_KERNELTESTHARNESS_H

#include "tcc/Codegen/KernelCompiler.h"

#include "mlir/IR/MLIRContext.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tcc_test {

enum class DType { F32, F64, F16, BF16, I64, I32, I8, UI8, Bool };

const char *mlirName(DType dtype); // "f32", "ui8", "i1", ...
size_t byteWidth(DType dtype);
bool isFloat(DType dtype);
bool isHalf(DType dtype);
bool isUnsigned(DType dtype); // ui8 and i1
/// The dtypes' value ranges for integers.
double minValue(DType dtype);
double maxValue(DType dtype);

/// `value` as the dtype stores it: floats round to nearest even (f16/bf16
/// from float, as PyTorch converts them); integral values wrap like an
/// integer cast; i1 is value != 0.
double roundTo(DType dtype, double value);

/// A host tensor whose values are exactly representable in its dtype.
struct Tensor {
  DType dtype;
  std::vector<int64_t> shape;
  std::vector<double> values;

  int64_t numel() const;
  /// "tensor<2x3xf32>".
  std::string type() const;
  /// Row-major strides and flat index of a multi-index.
  int64_t flat(const std::vector<int64_t> &index) const;
  double at(const std::vector<int64_t> &index) const {
    return values[flat(index)];
  }
};

Tensor zeros(DType dtype, std::vector<int64_t> shape);
/// Deterministic pseudo-random values (splitmix64 of `seed`): uniform in
/// [lo, hi) for floats, whole numbers in [lo, hi] for integers.
Tensor random(DType dtype, std::vector<int64_t> shape, double lo, double hi,
              uint64_t seed);
/// The tile count of a kernel whose loops split its output's first dim of
/// extent > 1 (tcc-tile-kernels splits the first loop variable, and loops
/// over dims of extent 1 fold away): the batch, or for one image its
/// channels (NCHW) or rows (NHWC).
int64_t leadingTiles(const std::vector<int64_t> &shape);

/// Every multi-index of `shape` in row-major order.
std::vector<std::vector<int64_t>> indices(const std::vector<int64_t> &shape);
/// A tensor computed from each multi-index; values are rounded to `dtype`.
Tensor generate(DType dtype, std::vector<int64_t> shape,
                const std::function<double(const std::vector<int64_t> &)> &fn);

struct Tolerance {
  double abs = 0, rel = 0; // |got - want| <= abs + rel * |want|
};

/// One kernel to compile and check.
struct KernelCase {
  KernelCase(std::string name, std::string function, std::vector<Tensor> inputs,
             std::vector<Tensor> expected, Tolerance tolerance = {})
      : name(std::move(name)), function(std::move(function)),
        inputs(std::move(inputs)), expected(std::move(expected)),
        tolerance(tolerance) {}

  std::string name;     // symbol, unique in its batch
  std::string function; // "func.func @name(...) ... { ... }"
  std::vector<Tensor> inputs;
  std::vector<Tensor> expected; // reference outputs (rounded on comparison)
  Tolerance tolerance;
  /// When positive, the tile count the kernel must expose (tcc.tiles).
  int64_t expectedTiles = 0;
  /// When set, an expected zero also needs the expected sign (-0 vs +0).
  bool signedZeros = false;
  // Filled by runCases: the largest relative error (|got - want| /
  // max(|want|, 1e-30)) and absolute error over finite expected values.
  double maxRelativeError = 0;
  double maxAbsoluteError = 0;
};

/// A function of one op: `op` is the text after "%r = " using %a0, %a1, ...
/// for the inputs, e.g. "tcc.exp %a0 : tensor<4xf32>".
std::string singleOpFunction(const std::string &name,
                             const std::vector<Tensor> &inputs,
                             const Tensor &result, const std::string &op);

/// Compiles every case into one object, runs and checks each (GoogleTest
/// failures name the case). Kernels with several tiles run their tiles in
/// two chunks, the second half first.
void runCases(
    mlir::MLIRContext &context, std::vector<KernelCase> &cases,
    const mlir::tcc::CpuTarget &target = mlir::tcc::CpuTarget::host());

/// A context with the codegen dialects registered.
std::unique_ptr<mlir::MLIRContext> makeContext();

} // namespace tcc_test

#endif // TCC_TEST_UNITTESTS_CODEGEN_KERNELTESTHARNESS_H
