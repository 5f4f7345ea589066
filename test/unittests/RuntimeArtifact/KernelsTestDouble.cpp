//===- KernelsTestDouble.cpp - naive stand-ins for the microkernels -------===//
//
// TEST DOUBLE, linked into test binaries only while the tuned microkernels
// (tcc_kernels, another branch) are not in this tree. It implements the
// kernels.h ABI with the naive references, and a packed-B layout of its own
// (64-byte header, then B as k x n floats).
//
//===----------------------------------------------------------------------===//

#include "ReferenceKernels.h"

#include <cstring>
#include <vector>

namespace {
struct PackedHeader {
  int64_t version, k, n;
};
} // namespace

extern "C" {

size_t tcc_sgemm_packed_b_size(int64_t k, int64_t n) {
  return 64 + size_t(k) * size_t(n) * sizeof(float);
}

tcc_kernel_status tcc_sgemm_pack_b(int64_t k, int64_t n, const float *b,
                                   int64_t ldb, int32_t trans_b, void *packed) {
  PackedHeader h{TCC_PACKED_B_VERSION, k, n};
  std::memcpy(packed, &h, sizeof(h));
  float *out = reinterpret_cast<float *>(static_cast<char *>(packed) + 64);
  for (int64_t p = 0; p < k; ++p)
    for (int64_t j = 0; j < n; ++j)
      out[p * n + j] = trans_b ? b[j * ldb + p] : b[p * ldb + j];
  return TCC_KERNEL_OK;
}

tcc_kernel_status tcc_sgemm(const tcc_sgemm_args *args,
                            const tcc_parallel *parallel) {
  if (!args || args->m < 0 || args->n < 0 || args->k < 0)
    return TCC_KERNEL_INVALID_ARGUMENT;
  tcc_sgemm_args a = *args;
  if (a.packed_b) {
    PackedHeader h;
    std::memcpy(&h, a.packed_b, sizeof(h));
    if (h.version != TCC_PACKED_B_VERSION || h.k != a.k || h.n != a.n)
      return TCC_KERNEL_BAD_PACKED_DATA;
    a.b = reinterpret_cast<const float *>(
        static_cast<const char *>(a.packed_b) + 64);
    a.ldb = a.n;
    a.trans_b = 0;
  }
  tcc::test::referenceSgemm(a);
  return TCC_KERNEL_OK;
}

size_t tcc_conv2d_workspace_size(const tcc_conv2d_args *args,
                                 const tcc_parallel *parallel) {
  // Grows with the thread count, as im2col per thread does.
  return 256 * size_t(parallel ? parallel->num_threads : 1);
}

tcc_kernel_status tcc_conv2d(const tcc_conv2d_args *args,
                             const tcc_parallel *parallel) {
  if (!args || !args->workspace)
    return TCC_KERNEL_INVALID_ARGUMENT;
  // Touch the whole workspace, so a short one shows up under sanitizers.
  std::memset(args->workspace, 0, tcc_conv2d_workspace_size(args, parallel));
  tcc::test::referenceConv2d(*args);
  return TCC_KERNEL_OK;
}

const char *tcc_kernels_isa(void) { return "test-double"; }

} // extern "C"
