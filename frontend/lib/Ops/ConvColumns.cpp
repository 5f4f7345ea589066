//===- ConvColumns.cpp - Batched im2col/col2im for the convolution GEMMs --===//
//
// Each tap (i, j) reads, along one output dim, a run of output positions
// [lo, hi) inside the input and zeros around it; those runs are worked out
// once per tap, so the inner loops are plain (vectorizable) copies and
// adds without a bounds test per element.
//
//===----------------------------------------------------------------------===//

#include "ConvColumns.h"
#include "Dispatch.h"

#include "../Core/Parallel.h"

#include "tcc/Frontend/Half.h"

#include <algorithm>

namespace tcc {
namespace detail {
namespace {

/// Elements one parallel task should at least touch.
constexpr int64_t kTaskElements = int64_t(1) << 15;

/// The output positions [lo, hi) of one dim whose input position
/// o * stride + offset lies in [0, size).
struct Span {
  int64_t lo, hi;
};

Span insideSpan(int64_t out, int64_t stride, int64_t offset, int64_t size) {
  // o * stride + offset >= 0  <=>  o >= ceil(-offset / stride).
  int64_t lo = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
  // o * stride + offset < size  <=>  o < ceil((size - offset) / stride).
  int64_t hi = size - offset <= 0 ? 0 : (size - offset + stride - 1) / stride;
  lo = std::min(lo, out);
  hi = std::max(lo, std::min(hi, out));
  return {lo, hi};
}

/// Where tap (i, j) reads: input row y * sh + offY, column x * sw + offX,
/// for output rows `ys` and columns `xs`.
struct Tap {
  int64_t offY, offX;
  Span ys, xs;
};

Tap tapOf(const ConvGeometry &g, int64_t i, int64_t j) {
  Tap t;
  t.offY = i * g.dh - g.ph;
  t.offX = j * g.dw - g.pw;
  t.ys = insideSpan(g.oh, g.sh, t.offY, g.h);
  t.xs = insideSpan(g.ow, g.sw, t.offX, g.w);
  return t;
}

int64_t grainFor(int64_t elementsPerItem) {
  return std::max<int64_t>(1, kTaskElements /
                                  std::max<int64_t>(1, elementsPerItem));
}

/// Whether output row y of a tap reads input row y + offY at columns
/// x + offX: unit strides and as many output as input columns. Then a tap's
/// rows follow each other in both planes, and its in-bounds elements form
/// one contiguous run, shifted by offY * w + offX (an element x < xs.lo or
/// x >= xs.hi inside that run wraps to a neighbouring row instead).
bool flatTaps(const ConvGeometry &g) {
  return g.sh == 1 && g.sw == 1 && g.ow == g.w;
}

/// The run [begin, end) of output positions of a flat tap, in the plane.
struct Run {
  int64_t begin, end;
};

Run flatRun(const ConvGeometry &g, const Tap &t) {
  if (t.ys.lo >= t.ys.hi || t.xs.lo >= t.xs.hi)
    return {0, 0};
  return {t.ys.lo * g.ow + t.xs.lo, (t.ys.hi - 1) * g.ow + t.xs.hi};
}

/// Zeroes the elements x < xs.lo and x >= xs.hi of rows [ys.lo, ys.hi)
/// of a P-element image: the ones a flat tap wraps. Column by column (a
/// strided loop), since rows hold only a few of them and a memset call per
/// row costs more than the stores.
template <class T> void zeroWrapped(T *image, int64_t ow, const Tap &t) {
  auto zeroColumn = [&](int64_t x) {
    for (int64_t y = t.ys.lo; y < t.ys.hi; ++y)
      image[y * ow + x] = T(0);
  };
  for (int64_t x = 0; x < t.xs.lo; ++x)
    zeroColumn(x);
  for (int64_t x = t.xs.hi; x < ow; ++x)
    zeroColumn(x);
}

/// std::fill without a library call for an empty range.
template <class T> void zeroRange(T *begin, T *end) {
  if (end > begin)
    std::fill(begin, end, T(0));
}

/// One image's P columns of one tap row from its input channel plane.
template <class T>
void im2colPlane(const T *plane, const ConvGeometry &g, const Tap &t, T *dst) {
  const int64_t ow = g.ow, sw = g.sw;
  if (flatTaps(g)) {
    const Run run = flatRun(g, t);
    if (run.begin == run.end) {
      zeroRange(dst, dst + g.oh * ow);
      return;
    }
    const int64_t shift = t.offY * g.w + t.offX;
    T *__restrict d = dst;
    zeroRange(d, d + run.begin);
    for (int64_t q = run.begin; q < run.end; ++q)
      d[q] = plane[q + shift];
    zeroRange(d + run.end, d + g.oh * ow);
    zeroWrapped(d, ow, t);
    return;
  }
  std::fill(dst, dst + t.ys.lo * ow, T(0));
  for (int64_t y = t.ys.lo; y < t.ys.hi; ++y) {
    T *__restrict d = dst + y * ow;
    const T *__restrict src = plane + (y * g.sh + t.offY) * g.w;
    std::fill(d, d + t.xs.lo, T(0));
    if (sw == 1) {
      for (int64_t x = t.xs.lo; x < t.xs.hi; ++x)
        d[x] = src[x + t.offX];
    } else {
      for (int64_t x = t.xs.lo; x < t.xs.hi; ++x)
        d[x] = src[x * sw + t.offX];
    }
    std::fill(d + t.xs.hi, d + ow, T(0));
  }
  std::fill(dst + t.ys.hi * ow, dst + g.oh * ow, T(0));
}

/// plane += the input-shaped adjoint of one image's columns of one tap.
/// The flat path first zeroes the wrapping elements of `src` (which the
/// caller must allow: it is scratch), then adds one contiguous run.
template <class T>
void col2imPlane(T *src, const ConvGeometry &g, const Tap &t, T *plane) {
  using M = opmath_t<T>;
  const int64_t ow = g.ow, sw = g.sw;
  if (flatTaps(g)) {
    const Run run = flatRun(g, t);
    zeroWrapped(src, ow, t);
    const int64_t shift = t.offY * g.w + t.offX;
    const T *__restrict s = src;
    T *__restrict d = plane;
    for (int64_t q = run.begin; q < run.end; ++q)
      d[q + shift] = T(M(d[q + shift]) + M(s[q]));
    return;
  }
  for (int64_t y = t.ys.lo; y < t.ys.hi; ++y) {
    const T *__restrict s = src + y * ow;
    T *__restrict d = plane + (y * g.sh + t.offY) * g.w;
    if (sw == 1) {
      for (int64_t x = t.xs.lo; x < t.xs.hi; ++x)
        d[x + t.offX] = T(M(d[x + t.offX]) + M(s[x]));
    } else {
      for (int64_t x = t.xs.lo; x < t.xs.hi; ++x)
        d[x * sw + t.offX] = T(M(d[x * sw + t.offX]) + M(s[x]));
    }
  }
}

} // namespace

int64_t columnsChunk(const ConvGeometry &g, int64_t budget) {
  int64_t perImage = std::max<int64_t>(1, g.columnRows() * g.pixels());
  return std::max<int64_t>(1, std::min(g.n, budget / perImage));
}

template <class T>
void im2colBatch(const T *x, const ConvGeometry &g, int64_t first,
                 int64_t count, T *columns) {
  const int64_t pixels = g.pixels(), ld = count * pixels;
  const int64_t taps = g.kh * g.kw, planeSize = g.h * g.w;
  parallelFor(0, g.columnRows(), grainFor(ld), [&](int64_t r0, int64_t r1) {
    for (int64_t row = r0; row < r1; ++row) {
      const int64_t c = row / taps, i = row % taps / g.kw, j = row % g.kw;
      const Tap t = tapOf(g, i, j);
      for (int64_t s = 0; s < count; ++s)
        im2colPlane(x + ((first + s) * g.c + c) * planeSize, g, t,
                    columns + row * ld + s * pixels);
    }
  });
}

template <class T>
void col2imBatch(T *columns, const ConvGeometry &g, int64_t first,
                 int64_t count, T *x) {
  const int64_t pixels = g.pixels(), ld = count * pixels;
  const int64_t taps = g.kh * g.kw, planeSize = g.h * g.w;
  parallelFor(0, count * g.c, grainFor(taps * pixels),
              [&](int64_t p0, int64_t p1) {
                for (int64_t item = p0; item < p1; ++item) {
                  const int64_t s = item / g.c, c = item % g.c;
                  T *plane = x + ((first + s) * g.c + c) * planeSize;
                  std::fill(plane, plane + planeSize, T(0));
                  for (int64_t i = 0; i < g.kh; ++i)
                    for (int64_t j = 0; j < g.kw; ++j) {
                      const int64_t row = (c * g.kh + i) * g.kw + j;
                      col2imPlane(columns + row * ld + s * pixels, g,
                                  tapOf(g, i, j), plane);
                    }
                }
              });
}

template <class T>
const T *gatherPlanes(const T *src, int64_t rows, int64_t pixels, int64_t first,
                      int64_t count, T *dst) {
  if (count == 1)
    return src + first * rows * pixels;
  const int64_t ld = count * pixels;
  parallelFor(0, rows, grainFor(ld), [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r)
      for (int64_t s = 0; s < count; ++s) {
        const T *from = src + ((first + s) * rows + r) * pixels;
        std::copy(from, from + pixels, dst + r * ld + s * pixels);
      }
  });
  return dst;
}

template <class T>
void scatterPlanes(const T *src, const T *bias, int64_t rows, int64_t pixels,
                   int64_t first, int64_t count, T *dst) {
  using M = opmath_t<T>;
  const int64_t ld = count * pixels;
  parallelFor(0, count * rows, grainFor(pixels), [&](int64_t b, int64_t e) {
    for (int64_t item = b; item < e; ++item) {
      const int64_t s = item / rows, r = item % rows;
      const T *__restrict from = src + r * ld + s * pixels;
      T *__restrict to = dst + ((first + s) * rows + r) * pixels;
      if (bias) {
        const M add = M(bias[r]);
        for (int64_t p = 0; p < pixels; ++p)
          to[p] = T(M(from[p]) + add);
      } else {
        std::copy(from, from + pixels, to);
      }
    }
  });
}

#define TCC_INSTANTIATE_CONV_COLUMNS(T)                                        \
  template void im2colBatch<T>(const T *, const ConvGeometry &, int64_t,       \
                               int64_t, T *);                                  \
  template void col2imBatch<T>(T *, const ConvGeometry &, int64_t, int64_t,    \
                               T *);                                           \
  template const T *gatherPlanes<T>(const T *, int64_t, int64_t, int64_t,      \
                                    int64_t, T *);                             \
  template void scatterPlanes<T>(const T *, const T *, int64_t, int64_t,       \
                                 int64_t, int64_t, T *);
TCC_INSTANTIATE_CONV_COLUMNS(float)
TCC_INSTANTIATE_CONV_COLUMNS(double)
TCC_INSTANTIATE_CONV_COLUMNS(Half)
TCC_INSTANTIATE_CONV_COLUMNS(BFloat16)
#undef TCC_INSTANTIATE_CONV_COLUMNS

} // namespace detail
} // namespace tcc
