//===- StepKinds.h - the kinds of plan step this runtime knows --*- C++ -*-===//
//
// Each kind of plan step (a member of the schema's Op union) is registered
// once, in runtime/lib/Steps/StepKinds.cpp, with its name (the Step.kind
// string), its validation, its execution and its description. This header
// is the part tools and writers use.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_STEPKINDS_H
#define TCC_RUNTIME_STEPKINDS_H

#include "tcc/runtime/artifact_generated.h"
#include "tcc/runtime/tcc_runtime.h"

#include <string>

namespace tcc {
namespace runtime {

// The name steps of `type` carry in Step.kind ("kernel", "sgemm", ...);
// nullptr for a type this runtime does not know.
TCC_RUNTIME_API const char *stepKindName(tcc::artifact::Op type);

// Whether `name` is a registered kind's name.
TCC_RUNTIME_API bool isStepKindName(const std::string &name);

// The registered names, comma-separated, for messages.
TCC_RUNTIME_API std::string knownStepKinds();

} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_STEPKINDS_H
