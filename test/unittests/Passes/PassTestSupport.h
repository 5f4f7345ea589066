//===- PassTestSupport.h - Running passes and comparing numerics ----------===//
//
// A pass is checked by evaluating a function before and after it with the
// reference interpreter (tcc::jit::Interpreter, the eager ops) on seeded
// inputs and comparing the results.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_PASSES_PASSTESTSUPPORT_H
#define TCC_TEST_PASSES_PASSTESTSUPPORT_H

#include "tcc/jit.h"

#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

namespace tcc {
namespace passtest {

using AddPasses = std::function<void(mlir::OpPassManager &)>;

/// Parses `source` (MLIR text), runs the passes `add` puts on a module pass
/// manager, and returns the printed module (with its resource blobs). A
/// parse or pass failure fails the test and returns "".
std::string runPasses(const std::string &source, const AddPasses &add);

/// Seeded normal inputs for the entry function of `module` (floats; other
/// dtypes get small integers).
std::vector<Tensor> seededInputs(const jit::Interpreter &module, uint64_t seed);

/// Same dtypes and shapes, and elementwise a == b or |a - b| <= tol * (1 +
/// |b|); NaN matches any NaN; with tol == 0 the sign of zero must match.
::testing::AssertionResult closeTensors(const std::vector<Tensor> &actual,
                                        const std::vector<Tensor> &expected,
                                        double tol);

/// Runs both modules' entry functions on `trials` seeded inputs and expects
/// the results to agree within `tol`.
void expectSameResults(const std::string &before, const std::string &after,
                       double tol, int trials = 3);

/// Constant data for test modules.
struct Operand {
  std::string elementType; // "f32", "i1", ...
  std::vector<int64_t> shape;
  std::vector<double> values;
};

/// "tensor<2x3xf32>" for `o`.
std::string tensorType(const Operand &o);

/// Deterministic values from `seed`: floats are multiples of 1/8 in
/// [lo, hi] (exact in every float type), integers uniform in [lo, hi].
Operand operand(const std::string &elementType, std::vector<int64_t> shape,
                uint64_t seed, double lo = -5, double hi = 5);

/// "  %name = tcc.constant dense<...> : type\n".
std::string constantLine(const std::string &name, const Operand &o);

/// How often `text` occurs in `module`.
int countOf(const std::string &module, const std::string &text);

} // namespace passtest
} // namespace tcc

#endif // TCC_TEST_PASSES_PASSTESTSUPPORT_H
