//===- StepChecks.cpp - checks shared by the step kinds' validation -------===//

#include "StepChecks.h"

#include "Checks.h"

#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/ArtifactFormat.h"
#include "tcc/runtime/kernels_int8.h"

#include <cmath>
#include <cstring>

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
                                  uint64_t outputSpan, const std::string &where,
                                  DType dtype) const {
  if (!e)
    return Status();
  if (uint8_t(e->activation()) > uint8_t(Activation::MAX))
    return corrupt(where, ": unknown activation ", int(e->activation()));
  if (e->bias() != -1) {
    const Buffer *b = nullptr;
    std::string what = where + ": epilogue bias";
    TCC_RETURN_IF_ERROR(buffer(e->bias(), what, &b));
    TCC_RETURN_IF_ERROR(requireDType(b, dtype, what));
    TCC_RETURN_IF_ERROR(requireElements(b, biasElements, what));
  }
  if (e->residual() != -1) {
    const Buffer *b = nullptr;
    std::string what = where + ": epilogue residual";
    TCC_RETURN_IF_ERROR(buffer(e->residual(), what, &b));
    TCC_RETURN_IF_ERROR(requireDType(b, dtype, what));
    TCC_RETURN_IF_ERROR(requireElements(b, outputSpan, what));
  }
  return Status();
}

DType qoutputDType(QOutput output) {
  switch (output) {
  case QOutput::U8:
    return DType::U8;
  case QOutput::S8:
    return DType::I8;
  case QOutput::F32:
    return DType::F32;
  case QOutput::I32:
    break;
  }
  return DType::I32;
}

namespace {

bool finitePositive(float x) { return std::isfinite(x) && x > 0.0f; }

// A zero point of a U8 or S8 output (or residual).
Status checkZeroPoint(int32_t zp, QOutput output, const std::string &what) {
  int32_t lo = output == QOutput::S8 ? -128 : 0;
  int32_t hi = output == QOutput::S8 ? 127 : 255;
  if (zp < lo || zp > hi)
    return corrupt(what, " ", zp, " is outside the output type's range [", lo,
                   ", ", hi, "]");
  return Status();
}

} // namespace

Status StepChecker::checkQEpilogue(const QEpilogue *e, int64_t channels,
                                   const Buffer *output, uint32_t outputIndex,
                                   uint64_t outputSpan,
                                   const std::string &where) const {
  QOutput kind = e ? e->output() : QOutput::I32;
  if (uint8_t(kind) > uint8_t(QOutput::MAX))
    return corrupt(where, ": unknown quantized output kind ", int(kind));
  TCC_RETURN_IF_ERROR(
      requireDType(output, qoutputDType(kind), where + ": output"));
  if (!e)
    return Status();
  const bool quantized = kind == QOutput::U8 || kind == QOutput::S8;
  const auto *scales = e->scales();
  uint32_t numScales = scales ? scales->size() : 0;
  if (kind == QOutput::I32) {
    if (numScales || e->relu() || e->residual() != -1)
      return corrupt(where, ": an int32 output takes no scales, relu or "
                            "residual");
  } else {
    if (numScales != 1 && int64_t(numScales) != channels)
      return corrupt(where, ": ", numScales, " scales for ", channels,
                     " output channels (one, or one per channel)");
    for (uint32_t i = 0; i < numScales; ++i)
      if (!finitePositive(scales->Get(i)))
        return corrupt(where, ": scale ", i, " (", double(scales->Get(i)),
                       ") is not finite and positive");
  }
  if (e->residual() == -1 &&
      (e->residual_qdq() || e->product_zero_point() != 0 ||
       e->product_scale() != 0 || e->output_scale() != 0))
    return corrupt(where, ": QDQ residual parameters without a residual");
  if (quantized)
    TCC_RETURN_IF_ERROR(checkZeroPoint(e->output_zero_point(), kind,
                                       where + ": output zero point"));
  else if (e->output_zero_point() != 0)
    return corrupt(where, ": output zero point ", e->output_zero_point(),
                   " on an unquantized output");
  if (e->bias() != -1) {
    const Buffer *b = nullptr;
    std::string what = where + ": epilogue bias";
    TCC_RETURN_IF_ERROR(buffer(e->bias(), what, &b));
    TCC_RETURN_IF_ERROR(requireDType(b, DType::I32, what));
    TCC_RETURN_IF_ERROR(requireElements(b, uint64_t(channels), what));
  }
  if (e->residual() != -1) {
    std::string what = where + ": epilogue residual";
    if (!quantized)
      return corrupt(what, ": only a u8 or s8 output takes a residual");
    const Buffer *b = nullptr;
    TCC_RETURN_IF_ERROR(buffer(e->residual(), what, &b));
    TCC_RETURN_IF_ERROR(requireDType(b, output->dtype(), what));
    TCC_RETURN_IF_ERROR(requireElements(b, outputSpan, what));
    TCC_RETURN_IF_ERROR(
        checkZeroPoint(e->residual_zero_point(), kind, what + " zero point"));
    if (!finitePositive(e->residual_scale()))
      return corrupt(what, ": scale ", double(e->residual_scale()),
                     " is not finite and positive");
    if (e->residual_qdq()) {
      TCC_RETURN_IF_ERROR(checkZeroPoint(e->product_zero_point(), kind,
                                         what + " product zero point"));
      if (!finitePositive(e->product_scale()) ||
          !finitePositive(e->output_scale()))
        return corrupt(what, ": product scale ", double(e->product_scale()),
                       " or output scale ", double(e->output_scale()),
                       " is not finite and positive");
    }
    if (uint32_t(e->residual()) != outputIndex)
      TCC_RETURN_IF_ERROR(requireDisjoint(output, b, what + " and output"));
  }
  return Status();
}

Status StepChecker::requirePackedQB(const Buffer *b, int64_t k, int64_t n,
                                    const std::string &what) const {
  TCC_RETURN_IF_ERROR(requireDType(b, DType::U8, what));
  if (b->storage() != Storage::Constant)
    return corrupt(what, ": must be a constant");
  if (b->offset() % kArtifactAlignment != 0)
    return corrupt(what, ": offset must be a multiple of ", kArtifactAlignment);
  size_t size = tcc_qgemm_packed_b_size(k, n);
  if (size == 0)
    return corrupt(what, ": no packed form for k ", k, " and n ", n,
                   " (k at most ", TCC_INT8_MAX_K, ")");
  TCC_RETURN_IF_ERROR(requireElements(b, size, what));
  if (!constants_)
    return corrupt(what, ": the constants segment is not known");
  // The kernels check the header's version and shape on each call; a
  // model whose packed weights this runtime cannot read is refused now.
  alignas(64) uint8_t header[64];
  std::memcpy(header, constants_ + b->offset(), sizeof header);
  if (tcc_qgemm_check_packed_b(header, k, n) != TCC_KERNEL_OK)
    return Status(TCC_STATUS_DATA_LOSS,
                  cat(what, ": ", tcc_kernels_last_error()));
  return Status();
}

} // namespace detail
} // namespace runtime
} // namespace tcc
