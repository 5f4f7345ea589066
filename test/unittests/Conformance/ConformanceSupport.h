//===- ConformanceSupport.h - Compile, run, interpret, compare ------------===//
//
// The conformance suite's one loop: IR text is compiled with compileModel
// (at -O0 or -O2), the artifact runs through the runtime's C API (or another
// target's tcc-run: CrossRunner.h), the same
// text runs through the reference interpreter (tcc::jit::Interpreter) on the
// same inputs, and the outputs are compared. Every artifact's code segment
// is also checked for undefined symbols.
//
// Errors come back as strings: the interpreter throws C++ exceptions, which
// are caught here, outside any MLIR callback.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_CONFORMANCE_CONFORMANCESUPPORT_H
#define TCC_TEST_CONFORMANCE_CONFORMANCESUPPORT_H

#include "tcc/tcc.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcc {
namespace conformance {

/// `tensor<3x5xf32>` for a shape and dtype ("tensor<f32>" for rank 0).
std::string irType(const std::vector<int64_t> &shape, ScalarType dtype);
/// The IR element type: f32, f64, f16, bf16, i64, i32, i8, ui8, i1.
std::string irElementType(ScalarType dtype);

/// Compiles `ir` (its entry function) at `optLevel` into `bytes`; returns
/// the diagnostics when it fails, "" on success.
std::string compileIR(const std::string &ir, int optLevel,
                      std::vector<uint8_t> *bytes);

/// Runs a compiled artifact on `inputs` (bound by position) with the
/// runtime; the outputs are fresh tensors. Returns "" or the error.
std::string runArtifact(const std::vector<uint8_t> &bytes,
                        const std::vector<Tensor> &inputs,
                        std::vector<Tensor> *outputs);

/// Runs the entry function of `ir` with the reference interpreter.
std::string runInterpreter(const std::string &ir,
                           const std::vector<Tensor> &inputs,
                           std::vector<Tensor> *outputs);

/// The undefined symbols of the artifact's code (an ELF shared object),
/// read from its dynamic and static symbol tables. Returns "" or why the
/// code could not be read.
std::string undefinedSymbols(const std::vector<uint8_t> &artifact,
                             std::vector<std::string> *symbols);

/// The machine epsilon of a float dtype (2^-23 for f32, ...), 0 otherwise.
double epsilonOf(ScalarType dtype);

/// How far `got` is from `want`: the largest |got - want| / max(|want|, 1)
/// over the elements, in units of the dtype's epsilon (0 for integer and
/// bool dtypes, which must match exactly; infinite for a shape, dtype,
/// NaN or infinity mismatch). `where` receives the worst element's text.
double errorInEpsilons(const Tensor &got, const Tensor &want,
                       std::string *where = nullptr);

/// Seeded inputs: floats uniform on [lo, hi), integers uniform on [lo, hi)
/// (whole numbers), bools fair coins.
Tensor uniformTensor(const std::vector<int64_t> &shape, ScalarType dtype,
                     double lo, double hi);

} // namespace conformance
} // namespace tcc

#endif // TCC_TEST_CONFORMANCE_CONFORMANCESUPPORT_H
