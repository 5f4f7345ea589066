//===- CaseRunner.h - One ONNX conformance case through tcc -----*- C++ -*-===//
//
// A case is a folder in the layout of ONNX's backend/test/data (model.onnx,
// test_data_set_<i>/{input,output}_<j>.pb). Each runs import -> reference
// interpreter and import -> compile -> runtime, and every output of every
// data set is compared with the expected one.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_ONNX_CASERUNNER_H
#define TCC_TEST_ONNX_CASERUNNER_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tcc::conformance {

/// One entry of the manifest.json that write-cases.py writes.
struct CaseSpec {
  std::string name, kind;
  std::string dir; // absolute
  double rtol = 1e-3, atol = 1e-7;
  std::string note; // set when the case's data are not tensors
  /// The model's opset before write-cases.py converted it; 0: not converted.
  int64_t convertedFromOpset = 0;
};

/// What a case came to. `status` is one of the kStatus* names; `stage`
/// says where it stopped (import, interpreter, compile, compiled run).
struct CaseResult {
  std::string status, stage, error;
  /// The model's op types, each once, in graph order.
  std::vector<std::string> ops;
  /// Whether a graph input or output has a floating-point element type.
  bool floatData = false;
  /// Whether inputs were imported as constants with each data set's values
  /// (the integer ones, then also the one-element ones), because an op
  /// needs them constant.
  bool fixedInputs = false;
};

inline constexpr const char *kPassed = "passed";
inline constexpr const char *kOutOfScope = "out-of-scope";
inline constexpr const char *kImportFailed = "import-failed";
inline constexpr const char *kInterpreterFailed = "interpreter-failed";
inline constexpr const char *kCompileFailed = "compile-failed";
inline constexpr const char *kRunFailed = "run-failed";
inline constexpr const char *kMismatch = "mismatch";
inline constexpr const char *kTimeout = "timeout";
inline constexpr const char *kCrashed = "crashed";

/// Runs `spec`. `progress` hears the result so far as each stage begins
/// (status kCrashed and the stage), so that a process that dies or hangs
/// mid-case still leaves its stage and the model's ops behind.
CaseResult runCase(const CaseSpec &spec,
                   const std::function<void(const CaseResult &)> &progress);

} // namespace tcc::conformance

#endif // TCC_TEST_ONNX_CASERUNNER_H
