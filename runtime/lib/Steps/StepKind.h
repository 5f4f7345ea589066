//===- StepKind.h - what the runtime knows about one kind of step -*- C++ -*-===//
//
// A step kind is one file in this folder defining a StepKind, listed once
// in StepKinds.cpp. Validation, model loading, session creation, the run
// loop and the tools' descriptions all reach a step's kind through this
// table, never through a switch of their own. Loading resolves each step's
// run function once (tcc_model_s::plan), so a run calls it directly.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_LIB_STEPS_STEPKIND_H
#define TCC_RUNTIME_LIB_STEPS_STEPKIND_H

#include "tcc/runtime/Status.h"
#include "tcc/runtime/StepKinds.h"
#include "tcc/runtime/artifact_generated.h"

#include <cstdint>
#include <string>
#include <vector>

struct tcc_model_s;
struct tcc_session_s;

namespace tcc {
namespace runtime {
namespace detail {

class StepChecker;

// Runs plan step `index` of the session's model (validated at load).
using RunStepFn = Status (*)(tcc_session_s &session,
                             const tcc::artifact::Step &step, uint32_t index);

struct StepKind {
  const char *name;        // Step.kind, e.g. "sgemm"
  tcc::artifact::Op type;  // its member of the Op union
  // Checks every value of the step; `where` names it in messages.
  Status (*validate)(const StepChecker &check, const tcc::artifact::Step &step,
                     const std::string &where);
  // At model load, after validation; may be null.
  void (*load)(tcc_model_s &model, const tcc::artifact::Step &step,
               uint32_t index);
  // At session creation, before the session allocates; may be null.
  void (*prepare)(tcc_session_s &session, const tcc::artifact::Step &step,
                  uint32_t index);
  RunStepFn run;
  // Fills what is particular to the kind: role, summary, fields, flops and
  // bytes.
  void (*describe)(const tcc::artifact::Model &model,
                   const tcc::artifact::Step &step, StepDescription *out);
  // Appends the index of every buffer the step reads or writes (after
  // validation). Every kind here runs on the host, so loading refuses a
  // step touching memory the host cannot address (Executor/ModelDevices).
  void (*buffers)(const tcc::artifact::Step &step, std::vector<uint32_t> *out);
};

// The registered kind of `type`, or nullptr.
const StepKind *findStepKind(tcc::artifact::Op type);

// The error of a library call that reported a failure.
Status libraryCallFailed(uint32_t step, const char *function, int status);

} // namespace detail
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_LIB_STEPS_STEPKIND_H
