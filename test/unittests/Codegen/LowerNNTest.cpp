//===- LowerNNTest.cpp - Matmul, linear, conv2d, pooling vs float64 -------===//
//
// Contractions reassociate their float sums, so they are bounded absolutely
// (K products of values in [-1, 1]: measured maxima in the comments, with
// TCC_PRINT_ERRORS=1). Integer contractions wrap and are exact; max pooling
// is exact; f16/bf16 accumulate in f32 and round once.
//
//===----------------------------------------------------------------------===//

#include "KernelTestHarness.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

using namespace tcc_test;

namespace {

class LowerNNTest : public ::testing::Test {
protected:
  std::unique_ptr<mlir::MLIRContext> context = makeContext();
};

std::string pair(int64_t a, int64_t b) {
  return "array<i64: " + std::to_string(a) + ", " + std::to_string(b) + ">";
}

std::string unique(const std::string &base,
                   const std::vector<KernelCase> &cases) {
  return base + "_" + std::to_string(cases.size());
}

/// Measured absolute maxima (f32): matmul and linear 1.2e-7, conv2d 7.2e-7,
/// average pools 6e-8; f64 conv2d 8.9e-16.
Tolerance contractionTolerance(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return {2e-6, 1e-6};
  case DType::F64:
    return {1e-14, 1e-15};
  case DType::F16:
    return {2e-6, 0x1p-10 + 1e-6};
  case DType::BF16:
    return {2e-6, 0x1p-7 + 1e-6};
  default:
    return {};
  }
}

double lowFor(DType dtype) {
  return isUnsigned(dtype) ? 0 : isFloat(dtype) ? -1 : -5;
}
double highFor(DType dtype) {
  return isFloat(dtype) ? 1 : dtype == DType::UI8 ? 60 : 5;
}

//===----------------------------------------------------------------------===//
// matmul / linear
//===----------------------------------------------------------------------===//

TEST_F(LowerNNTest, MatmulBroadcastsBatchDims) {
  const std::pair<std::vector<int64_t>, std::vector<int64_t>> shapes[] = {
      {{3, 4}, {4, 5}},
      {{2, 3, 4}, {4, 5}},
      {{1, 3, 7}, {2, 7, 1}},
      {{1, 1}, {1, 1}}};
  std::vector<KernelCase> cases;
  for (DType dtype : {DType::F32, DType::F64, DType::BF16, DType::I32,
                      DType::I8, DType::UI8}) {
    for (const auto &[sa, sb] : shapes) {
      if (dtype != DType::F32 && sa.size() != 3)
        continue;
      Tensor a = random(dtype, sa, lowFor(dtype), highFor(dtype), cases.size());
      Tensor b =
          random(dtype, sb, lowFor(dtype), highFor(dtype), cases.size() + 1);
      // Result: broadcast batch dims, then [m, n].
      std::vector<int64_t> batchA(sa.begin(), sa.end() - 2),
          batchB(sb.begin(), sb.end() - 2);
      std::vector<int64_t> batch =
          batchA.size() >= batchB.size() ? batchA : batchB;
      for (size_t i = 0; i < std::min(batchA.size(), batchB.size()); ++i) {
        int64_t &d = batch[batch.size() - 1 - i];
        d = std::max(batchA[batchA.size() - 1 - i],
                     batchB[batchB.size() - 1 - i]);
      }
      int64_t m = sa[sa.size() - 2], k = sa.back(), n = sb.back();
      std::vector<int64_t> shape = batch;
      shape.insert(shape.end(), {m, n});
      auto operandAt = [](const Tensor &t, const std::vector<int64_t> &out,
                          int64_t row, int64_t col) {
        std::vector<int64_t> at;
        size_t offset = out.size() - 2 - (t.shape.size() - 2);
        for (size_t d = 0; d + 2 < t.shape.size(); ++d)
          at.push_back(t.shape[d] == 1 ? 0 : out[offset + d]);
        at.insert(at.end(), {row, col});
        return t.at(at);
      };
      Tensor want = generate(dtype, shape, [&](const std::vector<int64_t> &i) {
        double sum = 0;
        int64_t row = i[i.size() - 2], col = i.back();
        for (int64_t kk = 0; kk < k; ++kk)
          sum += operandAt(a, i, row, kk) * operandAt(b, i, kk, col);
        return sum;
      });
      std::string fn = unique(std::string("matmul_") + mlirName(dtype), cases);
      KernelCase c{fn,
                   singleOpFunction(fn, {a, b}, want,
                                    "tcc.matmul %a0, %a1 : (" + a.type() +
                                        ", " + b.type() + ") -> " +
                                        want.type()),
                   {a, b},
                   {want},
                   contractionTolerance(dtype)};
      // Products of values up to 60 wrap in ui8 (the reference wraps too).
      cases.push_back(std::move(c));
    }
  }
  runCases(*context, cases);
}

TEST_F(LowerNNTest, LinearWithAndWithoutBias) {
  std::vector<KernelCase> cases;
  for (DType dtype :
       {DType::F32, DType::F64, DType::BF16, DType::F16, DType::I64}) {
    for (const std::vector<int64_t> &shape :
         {std::vector<int64_t>{5, 4}, {2, 3, 4}, {4}}) {
      for (bool withBias : {true, false}) {
        if (dtype != DType::F32 && shape.size() != 2)
          continue;
        Tensor x =
            random(dtype, shape, lowFor(dtype), highFor(dtype), cases.size());
        Tensor w = random(dtype, {3, 4}, lowFor(dtype), highFor(dtype),
                          cases.size() + 1);
        Tensor b =
            random(dtype, {3}, lowFor(dtype), highFor(dtype), cases.size() + 2);
        std::vector<int64_t> outShape = shape;
        outShape.back() = 3;
        Tensor want =
            generate(dtype, outShape, [&](const std::vector<int64_t> &i) {
              std::vector<int64_t> at = i;
              double sum = withBias ? b.values[i.back()] : 0;
              for (int64_t k = 0; k < 4; ++k) {
                at.back() = k;
                sum += x.at(at) * w.at({i.back(), k});
              }
              return sum;
            });
        std::vector<Tensor> inputs = {x, w};
        std::string op = "tcc.linear %a0, %a1";
        std::string types = x.type() + ", " + w.type();
        if (withBias) {
          inputs.push_back(b);
          op += ", %a2";
          types += ", " + b.type();
        }
        std::string fn =
            unique(std::string("linear_") + mlirName(dtype), cases);
        KernelCase c{
            fn,
            singleOpFunction(fn, inputs, want,
                             op + " : (" + types + ") -> " + want.type()),
            inputs,
            {want},
            contractionTolerance(dtype)};
        c.expectedTiles = shape.size() == 2 && dtype == DType::F32 ? 5 : 0;
        cases.push_back(std::move(c));
      }
    }
  }
  runCases(*context, cases);
}

//===----------------------------------------------------------------------===//
// conv2d
//===----------------------------------------------------------------------===//

struct ConvCase {
  int64_t n, c, h, w, o, k[2], stride[2], padding[2], dilation[2], groups;
  bool nhwc, bias;
};

int64_t windowOutput(int64_t size, int64_t k, int64_t s, int64_t p, int64_t d,
                     bool ceilMode) {
  int64_t numerator = size + 2 * p - d * (k - 1) - 1 + (ceilMode ? s - 1 : 0);
  int64_t out = numerator / s + 1;
  if (ceilMode && (out - 1) * s >= size + p)
    --out;
  return out;
}

TEST_F(LowerNNTest, Conv2dAttributesGroupsAndLayouts) {
  const ConvCase convs[] = {
      {2, 3, 7, 6, 4, {3, 3}, {1, 1}, {0, 0}, {1, 1}, 1, false, true},
      {2, 3, 7, 6, 4, {3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, false, false},
      {1, 4, 9, 8, 6, {3, 2}, {2, 3}, {2, 1}, {2, 1}, 2, false, true},
      {2,
       4,
       5,
       5,
       4,
       {3, 3},
       {1, 1},
       {1, 1},
       {1, 1},
       4,
       false,
       true}, // depthwise
      {2, 3, 7, 6, 4, {3, 3}, {2, 1}, {1, 0}, {1, 2}, 1, true, true},
      {1, 6, 6, 7, 4, {1, 3}, {1, 2}, {0, 1}, {1, 1}, 2, true, false},
      {1, 1, 1, 1, 1, {1, 1}, {1, 1}, {0, 0}, {1, 1}, 1, false, true},
  };
  std::vector<KernelCase> cases;
  for (DType dtype : {DType::F32, DType::F64, DType::BF16}) {
    for (const ConvCase &cv : convs) {
      if (dtype != DType::F32 && &cv != &convs[2] && &cv != &convs[4])
        continue;
      int64_t oh = windowOutput(cv.h, cv.k[0], cv.stride[0], cv.padding[0],
                                cv.dilation[0], false);
      int64_t ow = windowOutput(cv.w, cv.k[1], cv.stride[1], cv.padding[1],
                                cv.dilation[1], false);
      int64_t cg = cv.c / cv.groups, og = cv.o / cv.groups;
      std::vector<int64_t> xShape =
          cv.nhwc ? std::vector<int64_t>{cv.n, cv.h, cv.w, cv.c}
                  : std::vector<int64_t>{cv.n, cv.c, cv.h, cv.w};
      std::vector<int64_t> wShape =
          cv.nhwc ? std::vector<int64_t>{cv.o, cv.k[0], cv.k[1], cg}
                  : std::vector<int64_t>{cv.o, cg, cv.k[0], cv.k[1]};
      std::vector<int64_t> yShape =
          cv.nhwc ? std::vector<int64_t>{cv.n, oh, ow, cv.o}
                  : std::vector<int64_t>{cv.n, cv.o, oh, ow};
      Tensor x = random(dtype, xShape, -1, 1, cases.size());
      Tensor w = random(dtype, wShape, -1, 1, cases.size() + 1);
      Tensor b = random(dtype, {cv.o}, -1, 1, cases.size() + 2);
      auto image = [&](int64_t n, int64_t c, int64_t h, int64_t ww) {
        if (h < 0 || h >= cv.h || ww < 0 || ww >= cv.w)
          return 0.0;
        return cv.nhwc ? x.at({n, h, ww, c}) : x.at({n, c, h, ww});
      };
      Tensor want = generate(dtype, yShape, [&](const std::vector<int64_t> &i) {
        int64_t n = i[0], o = cv.nhwc ? i[3] : i[1], y0 = cv.nhwc ? i[1] : i[2],
                x0 = cv.nhwc ? i[2] : i[3];
        double sum = cv.bias ? b.values[o] : 0;
        int64_t g = o / og;
        for (int64_t c = 0; c < cg; ++c)
          for (int64_t kh = 0; kh < cv.k[0]; ++kh)
            for (int64_t kw = 0; kw < cv.k[1]; ++kw) {
              double weight =
                  cv.nhwc ? w.at({o, kh, kw, c}) : w.at({o, c, kh, kw});
              sum += weight * image(n, g * cg + c,
                                    y0 * cv.stride[0] - cv.padding[0] +
                                        kh * cv.dilation[0],
                                    x0 * cv.stride[1] - cv.padding[1] +
                                        kw * cv.dilation[1]);
            }
        return sum;
      });
      std::vector<Tensor> inputs = {x, w};
      std::string operands = "%a0, %a1", types = x.type() + ", " + w.type();
      if (cv.bias) {
        inputs.push_back(b);
        operands += ", %a2";
        types += ", " + b.type();
      }
      std::ostringstream op;
      op << "tcc.conv2d " << operands
         << " {stride = " << pair(cv.stride[0], cv.stride[1])
         << ", padding = " << pair(cv.padding[0], cv.padding[1])
         << ", dilation = " << pair(cv.dilation[0], cv.dilation[1])
         << ", groups = " << cv.groups << " : i64"
         << (cv.nhwc ? ", layout = #tcc.layout<nhwc>" : "") << "} : (" << types
         << ") -> " << want.type();
      std::string fn = unique(std::string("conv2d_") + mlirName(dtype), cases);
      KernelCase c{fn,
                   singleOpFunction(fn, inputs, want, op.str()),
                   inputs,
                   {want},
                   contractionTolerance(dtype)};
      c.expectedTiles = leadingTiles(want.shape);
      cases.push_back(std::move(c));
    }
  }
  runCases(*context, cases);
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

struct PoolCase {
  int64_t n, c, h, w, k[2], stride[2], padding[2], dilation[2];
  bool ceilMode, nhwc;
};

const PoolCase kPools[] = {
    {2, 3, 6, 6, {2, 2}, {2, 2}, {0, 0}, {1, 1}, false, false},
    {1, 2, 7, 5, {3, 3}, {2, 2}, {1, 1}, {1, 1}, false, false},
    {1, 2, 7, 6, {3, 2}, {2, 2}, {1, 1}, {1, 1}, true, false}, // ceil: partial
                                                               // windows
    {2, 2, 8, 7, {2, 3}, {3, 2}, {1, 1}, {2, 1}, true, true},  // dilation (max
                                                               // only)
    {1, 1, 1, 1, {1, 1}, {1, 1}, {0, 0}, {1, 1}, false, false},
};

/// The four output dims of a pool in its layout.
std::vector<int64_t> poolShape(const PoolCase &p, int64_t oh, int64_t ow) {
  return p.nhwc ? std::vector<int64_t>{p.n, oh, ow, p.c}
                : std::vector<int64_t>{p.n, p.c, oh, ow};
}

TEST_F(LowerNNTest, MaxPoolIgnoresPaddingAndPropagatesNaN) {
  std::vector<KernelCase> cases;
  // ui8/i8 (quantized tensors) take every geometry: their windows are a
  // parallel loop nest of their own (LowerNN.cpp, maxOfTaps).
  for (DType dtype :
       {DType::F32, DType::F64, DType::BF16, DType::I8, DType::UI8}) {
    for (const PoolCase &p : kPools) {
      if (isFloat(dtype) && dtype != DType::F32 && &p != &kPools[2])
        continue;
      int64_t oh = windowOutput(p.h, p.k[0], p.stride[0], p.padding[0],
                                p.dilation[0], p.ceilMode);
      int64_t ow = windowOutput(p.w, p.k[1], p.stride[1], p.padding[1],
                                p.dilation[1], p.ceilMode);
      std::vector<int64_t> xShape =
          p.nhwc ? std::vector<int64_t>{p.n, p.h, p.w, p.c}
                 : std::vector<int64_t>{p.n, p.c, p.h, p.w};
      // Negative values: a padded position reading 0 would win (u8: the
      // lowest values, 0 and 1, where the padding reads 0).
      Tensor x = dtype == DType::UI8 ? random(dtype, xShape, 0, 1, cases.size())
                 : dtype == DType::I8
                     ? random(dtype, xShape, -128, -120, cases.size())
                     : random(dtype, xShape, -5, -1, cases.size());
      if (x.numel() > 10 && isFloat(dtype))
        x.values[10] = NAN;
      Tensor want = generate(
          dtype, poolShape(p, oh, ow), [&](const std::vector<int64_t> &i) {
            int64_t n = i[0], c = p.nhwc ? i[3] : i[1],
                    y0 = p.nhwc ? i[1] : i[2], x0 = p.nhwc ? i[2] : i[3];
            double best = -INFINITY;
            for (int64_t kh = 0; kh < p.k[0]; ++kh)
              for (int64_t kw = 0; kw < p.k[1]; ++kw) {
                int64_t h =
                    y0 * p.stride[0] - p.padding[0] + kh * p.dilation[0];
                int64_t w =
                    x0 * p.stride[1] - p.padding[1] + kw * p.dilation[1];
                if (h < 0 || h >= p.h || w < 0 || w >= p.w)
                  continue;
                double v = p.nhwc ? x.at({n, h, w, c}) : x.at({n, c, h, w});
                best =
                    std::isnan(v) || std::isnan(best) ? NAN : std::max(best, v);
              }
            return best;
          });
      std::ostringstream op;
      op << "tcc.max_pool2d %a0 {kernel_size = " << pair(p.k[0], p.k[1])
         << ", stride = " << pair(p.stride[0], p.stride[1])
         << ", padding = " << pair(p.padding[0], p.padding[1])
         << ", dilation = " << pair(p.dilation[0], p.dilation[1])
         << ", ceil_mode = " << (p.ceilMode ? "true" : "false")
         << (p.nhwc ? ", layout = #tcc.layout<nhwc>" : "") << "} : " << x.type()
         << " -> " << want.type();
      std::string fn =
          unique(std::string("max_pool2d_") + mlirName(dtype), cases);
      KernelCase c{fn, singleOpFunction(fn, {x}, want, op.str()), {x}, {want}};
      c.expectedTiles = leadingTiles(want.shape);
      cases.push_back(std::move(c));
    }
  }
  runCases(*context, cases);
}

TEST_F(LowerNNTest, AvgPoolDivisorsFollowATen) {
  struct Divisor {
    bool includePad;
    int64_t override; // 0: none
  };
  const Divisor divisors[] = {{true, 0}, {false, 0}, {true, 3}};
  std::vector<KernelCase> cases;
  for (DType dtype : {DType::F32, DType::F64, DType::BF16}) {
    for (const PoolCase &p : kPools) {
      for (const Divisor &d : divisors) {
        if (p.dilation[0] != 1 || p.dilation[1] != 1)
          continue; // avg_pool2d has no dilation
        if (dtype != DType::F32 && (&p != &kPools[2] || d.override))
          continue;
        int64_t oh =
            windowOutput(p.h, p.k[0], p.stride[0], p.padding[0], 1, p.ceilMode);
        int64_t ow =
            windowOutput(p.w, p.k[1], p.stride[1], p.padding[1], 1, p.ceilMode);
        std::vector<int64_t> xShape =
            p.nhwc ? std::vector<int64_t>{p.n, p.h, p.w, p.c}
                   : std::vector<int64_t>{p.n, p.c, p.h, p.w};
        Tensor x = random(dtype, xShape, -1, 1, cases.size());
        Tensor want = generate(
            dtype, poolShape(p, oh, ow), [&](const std::vector<int64_t> &i) {
              int64_t n = i[0], c = p.nhwc ? i[3] : i[1],
                      y0 = p.nhwc ? i[1] : i[2], x0 = p.nhwc ? i[2] : i[3];
              // ATen's avg_pool2d: the window clipped to the padded input, then
              // to the input.
              int64_t h0 = y0 * p.stride[0] - p.padding[0],
                      w0 = x0 * p.stride[1] - p.padding[1];
              int64_t h1 = std::min(h0 + p.k[0], p.h + p.padding[0]);
              int64_t w1 = std::min(w0 + p.k[1], p.w + p.padding[1]);
              int64_t poolSize = (h1 - h0) * (w1 - w0);
              h0 = std::max<int64_t>(h0, 0);
              w0 = std::max<int64_t>(w0, 0);
              h1 = std::min(h1, p.h);
              w1 = std::min(w1, p.w);
              double sum = 0;
              for (int64_t h = h0; h < h1; ++h)
                for (int64_t w = w0; w < w1; ++w)
                  sum += p.nhwc ? x.at({n, h, w, c}) : x.at({n, c, h, w});
              double divisor = d.override     ? d.override
                               : d.includePad ? poolSize
                                              : (h1 - h0) * (w1 - w0);
              return sum / divisor;
            });
        std::ostringstream op;
        op << "tcc.avg_pool2d %a0 {kernel_size = " << pair(p.k[0], p.k[1])
           << ", stride = " << pair(p.stride[0], p.stride[1])
           << ", padding = " << pair(p.padding[0], p.padding[1])
           << ", ceil_mode = " << (p.ceilMode ? "true" : "false")
           << ", count_include_pad = " << (d.includePad ? "true" : "false")
           << (d.override ? ", divisor_override = " +
                                std::to_string(d.override) + " : i64"
                          : "")
           << (p.nhwc ? ", layout = #tcc.layout<nhwc>" : "")
           << "} : " << x.type() << " -> " << want.type();
        std::string fn =
            unique(std::string("avg_pool2d_") + mlirName(dtype), cases);
        KernelCase c{fn,
                     singleOpFunction(fn, {x}, want, op.str()),
                     {x},
                     {want},
                     contractionTolerance(dtype)};
        c.expectedTiles = leadingTiles(want.shape);
        cases.push_back(std::move(c));
      }
    }
  }
  runCases(*context, cases);
}

TEST_F(LowerNNTest, AdaptiveAvgPoolWindowsOfUnequalSize) {
  struct Adaptive {
    std::vector<int64_t> shape;
    int64_t out[2];
    bool nhwc;
  };
  const Adaptive pools[] = {
      {{2, 3, 7, 7}, {1, 1}, false}, // global
      {{1, 2, 5, 7}, {3, 4}, false}, // overlapping windows
      {{2, 6, 4, 3}, {4, 2}, false}, // upsampling rows
      {{1, 5, 7, 2}, {2, 3}, true}};
  std::vector<KernelCase> cases;
  for (DType dtype : {DType::F32, DType::F64, DType::BF16}) {
    for (const Adaptive &a : pools) {
      if (dtype != DType::F32 && &a != &pools[1])
        continue;
      Tensor x = random(dtype, a.shape, -1, 1, cases.size());
      int64_t hDim = a.nhwc ? 1 : 2, wDim = a.nhwc ? 2 : 3;
      std::vector<int64_t> outShape = a.shape;
      outShape[hDim] = a.out[0];
      outShape[wDim] = a.out[1];
      int64_t H = a.shape[hDim], W = a.shape[wDim];
      Tensor want =
          generate(dtype, outShape, [&](const std::vector<int64_t> &i) {
            int64_t h0 = i[hDim] * H / a.out[0],
                    h1 = ((i[hDim] + 1) * H + a.out[0] - 1) / a.out[0];
            int64_t w0 = i[wDim] * W / a.out[1],
                    w1 = ((i[wDim] + 1) * W + a.out[1] - 1) / a.out[1];
            double sum = 0;
            std::vector<int64_t> at = i;
            for (at[hDim] = h0; at[hDim] < h1; ++at[hDim])
              for (at[wDim] = w0; at[wDim] < w1; ++at[wDim])
                sum += x.at(at);
            return sum / ((h1 - h0) * (w1 - w0));
          });
      std::string fn =
          unique(std::string("adaptive_avg_pool2d_") + mlirName(dtype), cases);
      KernelCase c{
          fn,
          singleOpFunction(fn, {x}, want,
                           "tcc.adaptive_avg_pool2d %a0 {output_size = " +
                               pair(a.out[0], a.out[1]) +
                               (a.nhwc ? ", layout = #tcc.layout<nhwc>" : "") +
                               "} : " + x.type() + " -> " + want.type()),
          {x},
          {want},
          contractionTolerance(dtype)};
      c.expectedTiles = leadingTiles(want.shape);
      cases.push_back(std::move(c));
    }
  }
  runCases(*context, cases);
}

} // namespace
