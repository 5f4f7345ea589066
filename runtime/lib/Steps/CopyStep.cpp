//===- CopyStep.cpp - bytes from one buffer to another --------------------===//

#include "StepKind.h"

#include "../Artifact/Checks.h"
#include "../Artifact/StepChecks.h"
#include "../Executor/Model.h"

#include <cstdio>
#include <cstring>

namespace tcc {
namespace runtime {
namespace detail {
namespace {

using namespace tcc::artifact;

Status validate(const StepChecker &check, const Step &step,
                const std::string &where) {
  const Copy &copy = *step.op_as_Copy();
  const Buffer *src = nullptr, *dst = nullptr;
  TCC_RETURN_IF_ERROR(check.buffer(copy.src(), where + ": src", &src));
  TCC_RETURN_IF_ERROR(check.buffer(copy.dst(), where + ": dst", &dst));
  TCC_RETURN_IF_ERROR(check.requireWritable(dst, where + ": dst"));
  if (copy.bytes() > src->byte_size() || copy.bytes() > dst->byte_size())
    return corrupt(where, ": copies ", copy.bytes(),
                   " bytes between buffers"
                   " of ",
                   src->byte_size(), " and ", dst->byte_size(), " bytes");
  return Status();
}

Status run(tcc_session_s &session, const Step &step, uint32_t) {
  const Copy *copy = step.op_as_Copy();
  uint8_t *const *addr = session.bufferAddresses.data();
  if (copy->bytes())
    std::memmove(addr[copy->dst()], addr[copy->src()], copy->bytes());
  return Status();
}

void describe(const Model &, const Step &step, StepDescription *out) {
  uint64_t bytes = step.op_as_Copy()->bytes();
  out->role = "copy";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "copy %llu bytes", (unsigned long long)bytes);
  out->summary = buf;
  out->fields.push_back(StepField::integer("bytes", int64_t(bytes)));
  out->bytes = 2.0 * double(bytes);
}

void buffers(const Step &step, std::vector<uint32_t> *out) {
  out->push_back(step.op_as_Copy()->src());
  out->push_back(step.op_as_Copy()->dst());
}

} // namespace

extern const StepKind kCopyStep = {"copy", Op::Copy, validate, nullptr,
                                   nullptr, run,     describe, buffers};

} // namespace detail
} // namespace runtime
} // namespace tcc
