//===- StepChecks.cpp - checks shared by the step kinds' validation -------===//

#include "StepChecks.h"

#include "Checks.h"

#include "tcc/runtime/Artifact.h"

namespace tcc {
namespace runtime {
namespace detail {

using namespace tcc::artifact;

const char *dtypeName(DType d) {
  return tcc_dtype_name(static_cast<tcc_dtype_t>(d));
}

const char *storageName(Storage s) {
  switch (s) {
  case Storage::Arena:
    return "arena";
  case Storage::Constant:
    return "constants";
  case Storage::Input:
    return "input";
  case Storage::Output:
    return "output";
  }
  return "unknown storage";
}

Status matrixSpan(int64_t batch, int64_t rows, int64_t cols, int64_t ld,
                  int64_t batchStride, const std::string &what, uint64_t *out) {
  *out = 0;
  if (batch == 0 || rows == 0 || cols == 0)
    return Status();
  if (ld < cols)
    return corrupt(what, ": leading dimension ", ld, " is less than ", cols,
                   " columns");
  uint64_t a, b, span;
  if (!checkedMul(uint64_t(batch - 1), uint64_t(batchStride), &a) ||
      !checkedMul(uint64_t(rows - 1), uint64_t(ld), &b) ||
      !checkedAdd(a, b, &span) || !checkedAdd(span, uint64_t(cols), &span))
    return corrupt(what, ": extent overflows 64-bit sizes");
  *out = span;
  return Status();
}

Status checkedProduct(std::initializer_list<int64_t> factors,
                      const std::string &what, uint64_t *out) {
  uint64_t p = 1;
  for (int64_t f : factors)
    if (f < 0 || !checkedMul(p, uint64_t(f), &p))
      return corrupt(what, ": size overflows 64-bit sizes");
  *out = p;
  return Status();
}

Status StepChecker::buffer(int64_t index, const std::string &what,
                           const Buffer **out) const {
  uint32_t n = m_.buffers() ? m_.buffers()->size() : 0;
  if (index < 0 || uint64_t(index) >= n)
    return corrupt(what, ": buffer index ", index, " out of range (", n,
                   " buffers)");
  *out = m_.buffers()->Get(uint32_t(index));
  return Status();
}

Status StepChecker::requireDType(const Buffer *b, DType dtype,
                                 const std::string &what) {
  if (b->dtype() != dtype)
    return corrupt(what, ": dtype ", dtypeName(b->dtype()), ", expected ",
                   dtypeName(dtype));
  return Status();
}

Status StepChecker::requireWritable(const Buffer *b,
                                    const std::string &what) {
  if (b->storage() != Storage::Arena && b->storage() != Storage::Output)
    return corrupt(what, ": written but stored in ",
                   storageName(b->storage()),
                   " (only arena and outputs are writable)");
  return Status();
}

// Buffers share memory when they are in the same region (one arena space,
// the constants, one input or one output) and their byte ranges intersect.
static bool overlaps(const Buffer *a, const Buffer *b) {
  if (a->storage() != b->storage())
    return false;
  switch (a->storage()) {
  case Storage::Arena:
    if (a->space() != b->space())
      return false;
    break;
  case Storage::Input:
  case Storage::Output:
    if (a->index() != b->index())
      return false;
    break;
  default:
    break;
  }
  // Validated: offset + byte_size does not overflow.
  return a->byte_size() && b->byte_size() &&
         a->offset() < b->offset() + b->byte_size() &&
         b->offset() < a->offset() + a->byte_size();
}

Status StepChecker::requireDisjoint(const Buffer *written, const Buffer *other,
                                    const std::string &what) {
  if (overlaps(written, other))
    return corrupt(what, ": shares memory with another operand (",
                   storageName(written->storage()), " bytes [",
                   written->offset(), ", ",
                   written->offset() + written->byte_size(), ") and [",
                   other->offset(), ", ", other->offset() + other->byte_size(),
                   "))");
  return Status();
}

Status StepChecker::requireElements(const Buffer *b, uint64_t needed,
                                    const std::string &what) {
  uint64_t has = b->byte_size() / dtypeSize(b->dtype());
  if (needed > has)
    return corrupt(what, ": accesses ", needed,
                   " elements but the buffer has ", has);
  return Status();
}

Status StepChecker::checkEpilogue(const Epilogue *e, uint64_t biasElements,
                                  uint64_t outputSpan,
                                  const std::string &where) const {
  if (!e)
    return Status();
  if (uint8_t(e->activation()) > uint8_t(Activation::MAX))
    return corrupt(where, ": unknown activation ", int(e->activation()));
  if (e->bias() != -1) {
    const Buffer *b = nullptr;
    std::string what = where + ": epilogue bias";
    TCC_RETURN_IF_ERROR(buffer(e->bias(), what, &b));
    TCC_RETURN_IF_ERROR(requireDType(b, DType::F32, what));
    TCC_RETURN_IF_ERROR(requireElements(b, biasElements, what));
  }
  if (e->residual() != -1) {
    const Buffer *b = nullptr;
    std::string what = where + ": epilogue residual";
    TCC_RETURN_IF_ERROR(buffer(e->residual(), what, &b));
    TCC_RETURN_IF_ERROR(requireDType(b, DType::F32, what));
    TCC_RETURN_IF_ERROR(requireElements(b, outputSpan, what));
  }
  return Status();
}

} // namespace detail
} // namespace runtime
} // namespace tcc
