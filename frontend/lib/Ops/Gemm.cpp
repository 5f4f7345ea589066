//===- Gemm.cpp - Blocked matrix multiply ---------------------------------===//

#include "Gemm.h"
#include "Dispatch.h"
#include "Isa.h"

#include "../Core/Parallel.h"

#include "tcc/Frontend/Check.h"
#include "tcc/runtime/ThreadPool.h"
#include "tcc/runtime/kernels.h"

#include <algorithm>
#include <vector>

namespace tcc {
namespace detail {
namespace {

constexpr int64_t kBlockK = 256;
constexpr int64_t kBlockN = 512;

// C[i, j0:j1] += sum_k a[i, k] * B[k, j0:j1] over one k block; the j loop
// is contiguous and vectorized.
#define TCC_GEMM_BODY                                                          \
  for (int64_t i = i0; i < i1; ++i) {                                          \
    Acc *ci = acc + (i - i0) * nb;                                             \
    for (int64_t p = k0; p < k1; ++p) {                                        \
      Acc av = Acc(a[i * lda + p]);                                            \
      const T *bp = b + p * ldb + j0;                                          \
      for (int64_t j = 0; j < nb; ++j)                                         \
        ci[j] += av * Acc(bp[j]);                                              \
    }                                                                          \
  }

template <class T, class Acc>
void blockPortable(int64_t i0, int64_t i1, int64_t k0, int64_t k1, int64_t j0,
                   int64_t nb, const T *a, int64_t lda, const T *b,
                   int64_t ldb, Acc *__restrict acc) {
  TCC_GEMM_BODY
}
#if TCC_HAVE_ISA_VARIANTS
template <class T, class Acc>
TCC_TARGET_AVX2 void blockAvx2(int64_t i0, int64_t i1, int64_t k0, int64_t k1,
                               int64_t j0, int64_t nb, const T *a, int64_t lda,
                               const T *b, int64_t ldb, Acc *__restrict acc) {
  TCC_GEMM_BODY
}
template <class T, class Acc>
TCC_TARGET_AVX512 void blockAvx512(int64_t i0, int64_t i1, int64_t k0,
                                   int64_t k1, int64_t j0, int64_t nb,
                                   const T *a, int64_t lda, const T *b,
                                   int64_t ldb, Acc *__restrict acc) {
  TCC_GEMM_BODY
}
#endif
#undef TCC_GEMM_BODY

template <class T, class Acc>
void block(int64_t i0, int64_t i1, int64_t k0, int64_t k1, int64_t j0,
           int64_t nb, const T *a, int64_t lda, const T *b, int64_t ldb,
           Acc *acc) {
#if TCC_HAVE_ISA_VARIANTS
  if constexpr (std::is_same<T, float>::value || std::is_same<T, double>::value) {
    switch (activeIsa()) {
    case Isa::Avx512:
      return blockAvx512(i0, i1, k0, k1, j0, nb, a, lda, b, ldb, acc);
    case Isa::Avx2:
      return blockAvx2(i0, i1, k0, k1, j0, nb, a, lda, b, ldb, acc);
    case Isa::Neon: // AArch64's level: never active in x86 builds
    case Isa::Portable:
      break;
    }
  }
#endif
  blockPortable(i0, i1, k0, k1, j0, nb, a, lda, b, ldb, acc);
}

} // namespace

/// float32 on the runtime's tuned sgemm, parallel on the shared pool.
void sgemm(int64_t m, int64_t n, int64_t k, double alpha, const float *a,
           int64_t lda, const float *b, int64_t ldb, double beta, float *c,
           int64_t ldc) {
  std::vector<float> residual;
  tcc_epilogue ep{};
  ep.alpha = float(alpha);
  ep.activation = TCC_ACTIVATION_NONE;
  if (beta != 0) { // C's old values enter through the residual input
    residual.resize(size_t(m * n));
    for (int64_t i = 0; i < m; ++i)
      std::copy(c + i * ldc, c + i * ldc + n, residual.data() + i * n);
    ep.residual = residual.data();
    ep.ld_residual = n;
    ep.beta = float(beta);
  }
  tcc_sgemm_args args{};
  args.m = m;
  args.n = n;
  args.k = k;
  args.a = a;
  args.lda = lda;
  args.b = b;
  args.ldb = ldb;
  args.c = c;
  args.ldc = ldc;
  args.epilogue = &ep;
  tcc_parallel par = runtime::default_thread_pool().c_parallel();
  tcc_kernel_status st = tcc_sgemm(&args, &par);
  TCC_CHECK(st == TCC_KERNEL_OK, "internal error: tcc_sgemm failed with status ",
            int(st));
}

template <class T>
void gemm(int64_t m, int64_t n, int64_t k, double alpha, const T *a,
          int64_t lda, const T *b, int64_t ldb, double beta, T *c,
          int64_t ldc) {
  if constexpr (std::is_same<T, float>::value) {
    if (m > 0 && n > 0 && k > 0)
      return sgemm(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  }
  using Acc = std::conditional_t<std::is_same<T, double>::value, double,
                                 std::conditional_t<std::is_integral<T>::value,
                                                    T, float>>;
  constexpr int64_t kRows = 16;
  int64_t rowBlocks = (m + kRows - 1) / kRows;
  parallelFor(0, rowBlocks, 1, [&](int64_t rb0, int64_t rb1) {
    std::vector<Acc> acc(static_cast<size_t>(kRows * kBlockN));
    for (int64_t rb = rb0; rb < rb1; ++rb) {
      int64_t i0 = rb * kRows, i1 = std::min(m, i0 + kRows);
      for (int64_t j0 = 0; j0 < n; j0 += kBlockN) {
        int64_t nb = std::min(kBlockN, n - j0);
        std::fill(acc.begin(), acc.end(), Acc(0));
        for (int64_t k0 = 0; k0 < k; k0 += kBlockK)
          block<T, Acc>(i0, i1, k0, std::min(k, k0 + kBlockK), j0, nb, a, lda,
                        b, ldb, acc.data());
        for (int64_t i = i0; i < i1; ++i) {
          T *ci = c + i * ldc + j0;
          const Acc *ai = acc.data() + (i - i0) * nb;
          for (int64_t j = 0; j < nb; ++j) {
            double v = alpha * double(ai[j]);
            if (beta != 0)
              v += beta * double(ci[j]);
            ci[j] = T(v);
          }
        }
      }
    }
  });
}

#define TCC_INSTANTIATE_GEMM(T)                                                \
  template void gemm<T>(int64_t, int64_t, int64_t, double, const T *,         \
                        int64_t, const T *, int64_t, double, T *, int64_t);
TCC_INSTANTIATE_GEMM(float)
TCC_INSTANTIATE_GEMM(double)
TCC_INSTANTIATE_GEMM(Half)
TCC_INSTANTIATE_GEMM(BFloat16)
TCC_INSTANTIATE_GEMM(int64_t)
TCC_INSTANTIATE_GEMM(int32_t)
TCC_INSTANTIATE_GEMM(int16_t)
TCC_INSTANTIATE_GEMM(int8_t)
TCC_INSTANTIATE_GEMM(uint8_t)
#undef TCC_INSTANTIATE_GEMM

} // namespace detail
} // namespace tcc
