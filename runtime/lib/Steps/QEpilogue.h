//===- QEpilogue.h - A quantized step's epilogue for kernels ----*- C++ -*-===//

#ifndef TCC_RUNTIME_LIB_STEPS_QEPILOGUE_H
#define TCC_RUNTIME_LIB_STEPS_QEPILOGUE_H

#include "tcc/runtime/artifact_generated.h"
#include "tcc/runtime/kernels_int8.h"

#include <cstdint>
#include <string>

namespace tcc {
namespace runtime {
namespace detail {

// The tcc_qepilogue of a Qgemm or Qconv2d step (validated), its buffers
// resolved through the run's addresses; `residual` replaces the step's
// residual buffer (NCHW steps read it converted).
inline tcc_qepilogue toQEpilogue(const tcc::artifact::QEpilogue &e,
                                 uint8_t *const *addresses,
                                 const void *residual, int64_t ldResidual) {
  tcc_qepilogue out{};
  out.output = int32_t(e.output());
  out.bias = e.bias() >= 0
                 ? reinterpret_cast<const int32_t *>(addresses[e.bias()])
                 : nullptr;
  out.scale = e.scales() ? e.scales()->data() : nullptr;
  out.scale_per_column = e.scales() && e.scales()->size() > 1;
  out.output_zero_point = e.output_zero_point();
  out.relu = e.relu();
  out.residual = residual;
  out.ld_residual = ldResidual;
  out.residual_zero_point = e.residual_zero_point();
  out.residual_scale = e.residual_scale();
  out.residual_qdq = e.residual_qdq();
  out.product_zero_point = e.product_zero_point();
  out.product_scale = e.product_scale();
  out.output_scale = e.output_scale();
  return out;
}

// Bytes of one element of the epilogue's output.
inline size_t qoutputBytes(const tcc::artifact::QEpilogue *e) {
  tcc::artifact::QOutput kind = e ? e->output() : tcc::artifact::QOutput::I32;
  return kind == tcc::artifact::QOutput::U8 ||
                 kind == tcc::artifact::QOutput::S8
             ? 1
             : 4;
}

// "u8", "s8", "f32" or "i32", with ", relu", ", residual" and ", bias".
inline std::string describeQEpilogue(const tcc::artifact::QEpilogue *e) {
  static const char *const kNames[] = {"i32", "u8", "s8", "f32"};
  std::string out = kNames[e ? int(e->output()) : 0];
  if (e && e->bias() >= 0)
    out += ", bias";
  if (e && e->relu())
    out += ", relu";
  if (e && e->residual() >= 0)
    out += e->residual_qdq() ? ", residual (qdq)" : ", residual";
  return out;
}

} // namespace detail
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_LIB_STEPS_QEPILOGUE_H
