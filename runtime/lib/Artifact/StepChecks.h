//===- StepChecks.h - checks shared by the step kinds' validation -*- C++ -*-===//
//
// What each step kind's validate function (runtime/lib/Steps/) asks of the
// header: buffers by index with their dtype, writability and extent, and
// the overflow-checked sizes of matrices. The header has passed the
// FlatBuffers verifier and the validator's checks of buffers and kernels, so
// only the step's own values are untrusted.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_LIB_ARTIFACT_STEPCHECKS_H
#define TCC_RUNTIME_LIB_ARTIFACT_STEPCHECKS_H

#include "tcc/runtime/Status.h"
#include "tcc/runtime/artifact_generated.h"

#include <cstdint>
#include <initializer_list>
#include <string>

namespace tcc {
namespace runtime {
namespace detail {

const char *dtypeName(tcc::artifact::DType d);
const char *storageName(tcc::artifact::Storage s);

// Elements spanned by `batch` matrices of rows x cols with row stride `ld`
// and batch stride `batchStride` (all validated non-negative): the largest
// element index touched plus one, or 0 when nothing is touched.
Status matrixSpan(int64_t batch, int64_t rows, int64_t cols, int64_t ld,
                  int64_t batchStride, const std::string &what, uint64_t *out);

// The product of non-negative factors, or an error naming `what`.
Status checkedProduct(std::initializer_list<int64_t> factors,
                      const std::string &what, uint64_t *out);

class StepChecker {
public:
  explicit StepChecker(const tcc::artifact::Model &model) : m_(model) {}
  const tcc::artifact::Model &model() const { return m_; }

  // The buffer at `index`, which must be in range.
  Status buffer(int64_t index, const std::string &what,
                const tcc::artifact::Buffer **out) const;
  static Status requireDType(const tcc::artifact::Buffer *b,
                             tcc::artifact::DType dtype,
                             const std::string &what);
  // Only arena buffers and outputs may be written.
  static Status requireWritable(const tcc::artifact::Buffer *b,
                                const std::string &what);
  // A buffer a library call writes must share no byte with one it reads
  // in the same call (the kernels assume unaliased operands).
  static Status requireDisjoint(const tcc::artifact::Buffer *written,
                                const tcc::artifact::Buffer *other,
                                const std::string &what);
  static Status requireElements(const tcc::artifact::Buffer *b,
                                uint64_t needed, const std::string &what);
  // A library call's epilogue: known activation, bias and residual buffers
  // of `dtype` holding `biasElements` and `outputSpan` elements.
  Status
  checkEpilogue(const tcc::artifact::Epilogue *e, uint64_t biasElements,
                uint64_t outputSpan, const std::string &where,
                tcc::artifact::DType dtype = tcc::artifact::DType::F32) const;

  // A quantized step's epilogue over an output of `channels` channels
  // spanning `outputSpan` elements: a known output kind, the output buffer's
  // dtype, scales (one or one per channel, finite and positive), zero
  // points in the output type's range, an int32 bias of `channels`
  // elements, a residual of the output's dtype and span (U8/S8 only) that
  // shares no memory with `output` unless it is `output` itself.
  Status checkQEpilogue(const tcc::artifact::QEpilogue *e, int64_t channels,
                        const tcc::artifact::Buffer *output,
                        uint32_t outputIndex, uint64_t outputSpan,
                        const std::string &where) const;

  // The bytes of the constants segment, once the validator has checked
  // where it is (set before the plan is checked); null before.
  void setConstants(const uint8_t *bytes) { constants_ = bytes; }
  // A packed int8 B (tcc_qgemm_pack_b's k x n) in the constants: its dtype
  // U8, its offset aligned, its size and its header's format version and
  // shape as this runtime reads them.
  Status requirePackedQB(const tcc::artifact::Buffer *b, int64_t k, int64_t n,
                         const std::string &what) const;

private:
  const tcc::artifact::Model &m_;
  const uint8_t *constants_ = nullptr;
};

// The dtype a quantized epilogue's output kind stores.
tcc::artifact::DType qoutputDType(tcc::artifact::QOutput output);

} // namespace detail
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_LIB_ARTIFACT_STEPCHECKS_H
