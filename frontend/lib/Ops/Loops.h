//===- Loops.h - Typed elementwise loops over a TensorIterator ------------===//
//
// unaryKernel<Out, In>(iter, f), binaryKernel<Out, A, B>(iter, f) and
// ternaryKernel: the contiguous case (and a scalar operand broadcast over a
// contiguous one) runs a plain loop that the compiler vectorizes, compiled
// three times (portable, AVX2, AVX-512) for float and double and chosen at
// run time (Isa.h). Other strides run a generic strided loop.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_LIB_OPS_LOOPS_H
#define TCC_LIB_OPS_LOOPS_H

#include "Isa.h"
#include "TensorIterator.h"

#include <type_traits>

namespace tcc {
namespace detail {

template <class T>
constexpr bool kIsaVariants =
    std::is_same<T, float>::value || std::is_same<T, double>::value;

// The same loop body under three target attributes. The functor is inlined
// into each, so it is vectorized for that ISA.
#define TCC_UNARY_BODY                                                         \
  for (int64_t i = 0; i < n; ++i)                                              \
    o[i] = f(a[i]);
template <class O, class A, class F>
void unaryContigPortable(O *__restrict o, const A *__restrict a, int64_t n,
                         const F &f) {
  TCC_UNARY_BODY
}
#if TCC_HAVE_ISA_VARIANTS
template <class O, class A, class F>
TCC_TARGET_AVX2 void unaryContigAvx2(O *__restrict o, const A *__restrict a,
                                     int64_t n, const F &f) {
  TCC_UNARY_BODY
}
template <class O, class A, class F>
TCC_TARGET_AVX512 void unaryContigAvx512(O *__restrict o,
                                         const A *__restrict a, int64_t n,
                                         const F &f) {
  TCC_UNARY_BODY
}
#endif
#undef TCC_UNARY_BODY

#define TCC_BINARY_BODY                                                        \
  for (int64_t i = 0; i < n; ++i)                                              \
    o[i] = f(a[i], b[i]);
template <class O, class A, class B, class F>
void binaryContigPortable(O *__restrict o, const A *a, const B *b, int64_t n,
                          const F &f) {
  TCC_BINARY_BODY
}
#if TCC_HAVE_ISA_VARIANTS
template <class O, class A, class B, class F>
TCC_TARGET_AVX2 void binaryContigAvx2(O *__restrict o, const A *a, const B *b,
                                      int64_t n, const F &f) {
  TCC_BINARY_BODY
}
template <class O, class A, class B, class F>
TCC_TARGET_AVX512 void binaryContigAvx512(O *__restrict o, const A *a,
                                          const B *b, int64_t n, const F &f) {
  TCC_BINARY_BODY
}
#endif
#undef TCC_BINARY_BODY

template <class O, class A, class F>
inline void unaryContig(O *o, const A *a, int64_t n, const F &f) {
#if TCC_HAVE_ISA_VARIANTS
  if constexpr (kIsaVariants<O> || kIsaVariants<A>) {
    switch (activeIsa()) {
    case Isa::Avx512:
      return unaryContigAvx512(o, a, n, f);
    case Isa::Avx2:
      return unaryContigAvx2(o, a, n, f);
    case Isa::Neon: // AArch64's level: never active in x86 builds
    case Isa::Portable:
      break;
    }
  }
#endif
  unaryContigPortable(o, a, n, f);
}

template <class O, class A, class B, class F>
inline void binaryContig(O *o, const A *a, const B *b, int64_t n, const F &f) {
#if TCC_HAVE_ISA_VARIANTS
  if constexpr (kIsaVariants<O> || kIsaVariants<A>) {
    switch (activeIsa()) {
    case Isa::Avx512:
      return binaryContigAvx512(o, a, b, n, f);
    case Isa::Avx2:
      return binaryContigAvx2(o, a, b, n, f);
    case Isa::Neon: // AArch64's level: never active in x86 builds
    case Isa::Portable:
      break;
    }
  }
#endif
  binaryContigPortable(o, a, b, n, f);
}

template <class T> inline T load(const char *p) {
  return *reinterpret_cast<const T *>(p);
}

template <class O, class A, class F>
void unaryKernel(TensorIterator &it, const F &f) {
  it.forEach([&f](char **d, const int64_t *s, int64_t n) {
    O *o = reinterpret_cast<O *>(d[0]);
    if (s[0] == sizeof(O) && s[1] == sizeof(A)) {
      unaryContig(o, reinterpret_cast<const A *>(d[1]), n, f);
    } else if (s[0] == sizeof(O) && s[1] == 0) {
      O v = f(load<A>(d[1]));
      for (int64_t i = 0; i < n; ++i)
        o[i] = v;
    } else {
      for (int64_t i = 0; i < n; ++i)
        *reinterpret_cast<O *>(d[0] + i * s[0]) = f(load<A>(d[1] + i * s[1]));
    }
  });
}

template <class O, class A, class B, class F>
void binaryKernel(TensorIterator &it, const F &f) {
  it.forEach([&f](char **d, const int64_t *s, int64_t n) {
    O *o = reinterpret_cast<O *>(d[0]);
    if (s[0] == sizeof(O)) {
      if (s[1] == sizeof(A) && s[2] == sizeof(B))
        return binaryContig(o, reinterpret_cast<const A *>(d[1]),
                            reinterpret_cast<const B *>(d[2]), n, f);
      if (s[1] == 0 && s[2] == sizeof(B)) {
        A a0 = load<A>(d[1]);
        return unaryContig(o, reinterpret_cast<const B *>(d[2]), n,
                           [a0, &f](B b) { return f(a0, b); });
      }
      if (s[1] == sizeof(A) && s[2] == 0) {
        B b0 = load<B>(d[2]);
        return unaryContig(o, reinterpret_cast<const A *>(d[1]), n,
                           [b0, &f](A a) { return f(a, b0); });
      }
    }
    for (int64_t i = 0; i < n; ++i)
      *reinterpret_cast<O *>(d[0] + i * s[0]) =
          f(load<A>(d[1] + i * s[1]), load<B>(d[2] + i * s[2]));
  });
}

#define TCC_TERNARY_BODY                                                       \
  for (int64_t i = 0; i < n; ++i)                                              \
    o[i] = f(a[i], b[i], c[i]);
template <class O, class A, class B, class C, class F>
void ternaryContigPortable(O *__restrict o, const A *a, const B *b,
                           const C *c, int64_t n, const F &f) {
  TCC_TERNARY_BODY
}
#if TCC_HAVE_ISA_VARIANTS
template <class O, class A, class B, class C, class F>
TCC_TARGET_AVX2 void ternaryContigAvx2(O *__restrict o, const A *a,
                                       const B *b, const C *c, int64_t n,
                                       const F &f) {
  TCC_TERNARY_BODY
}
template <class O, class A, class B, class C, class F>
TCC_TARGET_AVX512 void ternaryContigAvx512(O *__restrict o, const A *a,
                                           const B *b, const C *c, int64_t n,
                                           const F &f) {
  TCC_TERNARY_BODY
}
#endif
#undef TCC_TERNARY_BODY

template <class O, class A, class B, class C, class F>
inline void ternaryContig(O *o, const A *a, const B *b, const C *c, int64_t n,
                          const F &f) {
#if TCC_HAVE_ISA_VARIANTS
  if constexpr (kIsaVariants<O> || kIsaVariants<B>) {
    switch (activeIsa()) {
    case Isa::Avx512:
      return ternaryContigAvx512(o, a, b, c, n, f);
    case Isa::Avx2:
      return ternaryContigAvx2(o, a, b, c, n, f);
    case Isa::Neon: // AArch64's level: never active in x86 builds
    case Isa::Portable:
      break;
    }
  }
#endif
  ternaryContigPortable(o, a, b, c, n, f);
}

/// Contiguous operands, or one of the last two broadcast as a scalar (as in
/// where(mask, grad, 0) of relu's backward), run vectorized loops.
template <class O, class A, class B, class C, class F>
void ternaryKernel(TensorIterator &it, const F &f) {
  it.forEach([&f](char **d, const int64_t *s, int64_t n) {
    O *o = reinterpret_cast<O *>(d[0]);
    const A *a = reinterpret_cast<const A *>(d[1]);
    const B *b = reinterpret_cast<const B *>(d[2]);
    const C *c = reinterpret_cast<const C *>(d[3]);
    if (s[0] == sizeof(O) && s[1] == sizeof(A)) {
      if (s[2] == sizeof(B) && s[3] == sizeof(C))
        return ternaryContig(o, a, b, c, n, f);
      if (s[2] == sizeof(B) && s[3] == 0) {
        C c0 = *c;
        return binaryContig(o, a, b, n,
                            [c0, &f](A x, B y) { return f(x, y, c0); });
      }
      if (s[2] == 0 && s[3] == sizeof(C)) {
        B b0 = *b;
        return binaryContig(o, a, c, n,
                            [b0, &f](A x, C z) { return f(x, b0, z); });
      }
    }
    for (int64_t i = 0; i < n; ++i)
      *reinterpret_cast<O *>(d[0] + i * s[0]) =
          f(load<A>(d[1] + i * s[1]), load<B>(d[2] + i * s[2]),
            load<C>(d[3] + i * s[3]));
  });
}

} // namespace detail
} // namespace tcc

#endif // TCC_LIB_OPS_LOOPS_H
