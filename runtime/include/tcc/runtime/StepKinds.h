//===- StepKinds.h - the kinds of plan step this runtime knows --*- C++ -*-===//
//
// Each kind of plan step (a member of the schema's Op union) is registered
// once, in runtime/lib/Steps/StepKinds.cpp, with its name (the Step.kind
// string), its validation, its execution and its description. This header
// is the part that writers and tools use: names, and what a step is in
// words and fields (tcc inspect, tcc bench --profile, tcc compile --verify).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_STEPKINDS_H
#define TCC_RUNTIME_STEPKINDS_H

#include "tcc/runtime/artifact_generated.h"
#include "tcc/runtime/tcc_runtime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcc {
namespace runtime {

// The name steps of `type` carry in Step.kind ("kernel", "sgemm", ...);
// nullptr for a type this runtime does not know.
TCC_RUNTIME_API const char *stepKindName(tcc::artifact::Op type);

// Whether `name` is a registered kind's name.
TCC_RUNTIME_API bool isStepKindName(const std::string &name);

// The registered names, comma-separated, for messages.
TCC_RUNTIME_API std::string knownStepKinds();

// One key of a step's machine-readable description.
struct StepField {
  enum class Type { Int, Bool, String, IntList };
  std::string key;
  Type type = Type::Int;
  int64_t number = 0; // Int; Bool as 0/1
  std::string text;   // String
  std::vector<int64_t> list; // IntList

  static StepField integer(std::string key, int64_t value) {
    StepField f;
    f.key = std::move(key);
    f.number = value;
    return f;
  }
  static StepField boolean(std::string key, bool value) {
    StepField f = integer(std::move(key), value);
    f.type = Type::Bool;
    return f;
  }
  static StepField string(std::string key, std::string value) {
    StepField f = integer(std::move(key), 0);
    f.type = Type::String;
    f.text = std::move(value);
    return f;
  }
  static StepField integers(std::string key, std::vector<int64_t> values) {
    StepField f = integer(std::move(key), 0);
    f.type = Type::IntList;
    f.list = std::move(values);
    return f;
  }
};

// A step of a validated model described for people and tools.
struct StepDescription {
  std::string kind;    // "kernel", "sgemm", ...
  std::string role;    // "kernel 'k3'", "sgemm library call", "copy"
  std::string summary; // one line: the kernel and its tiles, the shapes
  std::vector<StepField> fields; // the step's parameters, in order
  std::vector<std::string> sourceOps; // its own list, else its kernel's
  // Floating-point operations (2 per multiply-add) of a GEMM or
  // convolution; 0 for other steps.
  double flops = 0;
  // Bytes a generated kernel or copy moves at least once (its bindings, or
  // source and destination); 0 for library calls.
  double bytes = 0;
};

// Describes plan step `index` of `model`, which passed validation.
TCC_RUNTIME_API StepDescription describeStep(const tcc::artifact::Model &model,
                                             uint32_t index);

} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_STEPKINDS_H
