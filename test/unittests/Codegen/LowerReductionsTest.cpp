//===- LowerReductionsTest.cpp - Reductions, softmax, norms vs float64 ----===//
//
// Tolerances: float sums reassociate (fastmath<reassoc>), so sums, means
// and norms are bounded absolutely by about n * eps * max|x| (inputs in
// [-1, 1] or [-4, 4]); max, min, argmax and argmin are exact; f16/bf16
// accumulate in f32 and round once (one ulp of theirs). Measured maxima
// (TCC_PRINT_ERRORS=1) are in the comments.
//
//===----------------------------------------------------------------------===//

#include "KernelTestHarness.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

using namespace tcc_test;

namespace {

class LowerReductionsTest : public ::testing::Test {
protected:
  std::unique_ptr<mlir::MLIRContext> context = makeContext();
};

std::string dimsAttr(const std::vector<int64_t> &dims) {
  std::ostringstream os;
  os << "array<i64: ";
  for (size_t i = 0; i < dims.size(); ++i)
    os << (i ? ", " : "") << dims[i];
  os << ">";
  return os.str();
}

std::string unique(const std::string &base,
                   const std::vector<KernelCase> &cases) {
  return base + "_" + std::to_string(cases.size());
}

/// Reduces `x` over `dims` (may be negative) into the result's shape.
Tensor reduceRef(
    const Tensor &x, std::vector<int64_t> dims, bool keepdim, DType dtype,
    double init, const std::function<double(double, double)> &combine,
    const std::function<double(double, int64_t)> &finish =
        [](double v, int64_t) { return v; }) {
  int64_t rank = x.shape.size();
  std::vector<bool> reduced(rank, false);
  for (int64_t &d : dims)
    reduced[d < 0 ? d + rank : d] = true;
  std::vector<int64_t> shape;
  int64_t count = 1;
  for (int64_t d = 0; d < rank; ++d) {
    if (reduced[d])
      count *= x.shape[d];
    if (!reduced[d])
      shape.push_back(x.shape[d]);
    else if (keepdim)
      shape.push_back(1);
  }
  Tensor out = zeros(dtype, shape);
  std::vector<double> acc(out.numel(), init);
  for (const auto &index : indices(x.shape)) {
    std::vector<int64_t> at;
    for (int64_t d = 0; d < rank; ++d)
      if (!reduced[d])
        at.push_back(index[d]);
      else if (keepdim)
        at.push_back(0);
    double &a = acc[out.flat(at)];
    a = combine(a, x.at(index));
  }
  for (size_t i = 0; i < acc.size(); ++i)
    out.values[i] = finish(acc[i], count);
  return out;
}

double nanMax(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
}
double nanMin(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b);
}

//===----------------------------------------------------------------------===//
// reduce_*
//===----------------------------------------------------------------------===//

struct ReduceCase {
  std::vector<int64_t> shape, dims;
  bool keepdim;
  int64_t tiles; // expected tile count, 0: not checked
};

TEST_F(LowerReductionsTest, ReductionsOverDimSetsMatchFloat64) {
  const ReduceCase shapes[] = {
      {{3, 5, 4}, {-1}, false, 3},      // innermost, rows tile
      {{3, 5, 4}, {0}, false, 5},       // outermost: the kept dims tile
      {{3, 5, 4}, {1}, true, 3},        // middle, keepdim
      {{3, 5, 4}, {2, 0}, true, 0},     // several, unsorted
      {{2, 1, 7}, {0, 1, 2}, false, 1}, // everything to a scalar
      {{1}, {0}, true, 0},              // size 1
  };
  struct Op {
    const char *name;
    double init;
    double (*combine)(double, double);
  };
  const Op ops[] = {
      {"reduce_sum", 0, [](double a, double b) { return a + b; }},
      {"reduce_mean", 0, [](double a, double b) { return a + b; }},
      {"reduce_prod", 1, [](double a, double b) { return a * b; }},
      {"reduce_max", -INFINITY, nanMax},
      {"reduce_min", INFINITY, nanMin}};
  std::vector<KernelCase> cases;
  for (const Op &op : ops) {
    std::string name = op.name;
    bool isMean = name == "reduce_mean", isProd = name == "reduce_prod";
    bool isMaxMin = name == "reduce_max" || name == "reduce_min";
    std::vector<DType> dtypes = {DType::F32, DType::F64, DType::BF16,
                                 DType::F16};
    if (!isMean)
      dtypes.insert(dtypes.end(),
                    {DType::I64, DType::I32, DType::I8, DType::UI8});
    if (isMaxMin)
      dtypes.push_back(DType::Bool);
    for (DType dtype : dtypes) {
      for (const ReduceCase &shape : shapes) {
        // Only f32 sees every dim set; the others the first two and size 1.
        if (dtype != DType::F32 && &shape != &shapes[0] &&
            &shape != &shapes[1] && &shape != &shapes[5])
          continue;
        Tensor x =
            isProd ? random(dtype, shape.shape, isFloat(dtype) ? 0.5 : 1,
                            isFloat(dtype) ? 1.5 : 2, cases.size())
                   : random(dtype, shape.shape,
                            isUnsigned(dtype) ? 0 : (isFloat(dtype) ? -1 : -9),
                            dtype == DType::Bool ? 1 : (isFloat(dtype) ? 1 : 9),
                            cases.size());
        if (dtype == DType::UI8 && isMaxMin)
          x.values[0] = 200; // above 127: unsigned order
        if (isFloat(dtype) && isMaxMin && x.numel() > 20) {
          x.values[7] = NAN; // poisons one output
          x.values[3] = INFINITY;
        }
        Tensor want =
            reduceRef(x, shape.dims, shape.keepdim, dtype, op.init, op.combine,
                      [&](double v, int64_t n) { return isMean ? v / n : v; });
        std::string fn =
            unique(std::string(op.name) + "_" + mlirName(dtype), cases);
        KernelCase c{
            fn,
            singleOpFunction(
                fn, {x}, want,
                "tcc." + name + " %a0 {dims = " + dimsAttr(shape.dims) +
                    ", keepdim = " + (shape.keepdim ? "true" : "false") +
                    "} : " + x.type() + " -> " + want.type()),
            {x},
            {want}};
        // Sums of up to 60 values in [-1, 1]: 2.4e-7 absolute measured (f32).
        if (isFloat(dtype) && !isMaxMin)
          c.tolerance = dtype == DType::F64 ? Tolerance{1e-14, 1e-15}
                                            : Tolerance{3e-6, 2e-6};
        if (isHalf(dtype))
          c.tolerance.rel += dtype == DType::F16 ? 0x1p-10 : 0x1p-7;
        c.expectedTiles = dtype == DType::F32 ? shape.tiles : 0;
        cases.push_back(std::move(c));
      }
    }
  }
  runCases(*context, cases);
}

//===----------------------------------------------------------------------===//
// argmax / argmin
//===----------------------------------------------------------------------===//

/// The first index of the maximum (or minimum) along `dim`; NaN wins.
Tensor argRef(const Tensor &x, int64_t dim, bool keepdim, bool isMax) {
  int64_t rank = x.shape.size();
  dim = dim < 0 ? dim + rank : dim;
  std::vector<int64_t> shape = x.shape;
  if (keepdim)
    shape[dim] = 1;
  else
    shape.erase(shape.begin() + dim);
  return generate(DType::I64, shape, [&](const std::vector<int64_t> &out) {
    std::vector<int64_t> at = out;
    if (!keepdim)
      at.insert(at.begin() + dim, 0);
    int64_t best = 0;
    double bestValue = NAN;
    for (int64_t i = 0; i < x.shape[dim]; ++i) {
      at[dim] = i;
      double v = x.at(at);
      if (std::isnan(bestValue) && i > 0)
        break; // a NaN won
      bool better =
          i == 0 || std::isnan(v) || (isMax ? v > bestValue : v < bestValue);
      if (better) {
        best = i;
        bestValue = v;
      }
    }
    return static_cast<double>(best);
  });
}

TEST_F(LowerReductionsTest, ArgmaxArgminTakeTheFirstIndex) {
  std::vector<KernelCase> cases;
  for (bool isMax : {true, false}) {
    for (DType dtype : {DType::F32, DType::F64, DType::BF16, DType::I64,
                        DType::I32, DType::I8, DType::UI8}) {
      for (auto [dim, keepdim] :
           {std::pair<int64_t, bool>{-1, false}, {0, true}, {1, false}}) {
        if (dtype != DType::F32 && dim == 1)
          continue;
        // Few distinct values: ties everywhere.
        Tensor x = random(dtype, {4, 6, 5}, isUnsigned(dtype) ? 0 : -2, 2,
                          cases.size());
        if (dtype == DType::UI8)
          x.values[2] = 250;
        if (isFloat(dtype)) {
          x.values[1] = NAN;
          x.values[4] = NAN; // the first NaN of its row wins
          x.values[10] = isMax ? INFINITY : -INFINITY;
        }
        Tensor want = argRef(x, dim, keepdim, isMax);
        std::string op = isMax ? "argmax" : "argmin";
        std::string fn = unique(op + "_" + mlirName(dtype), cases);
        KernelCase c{
            fn,
            singleOpFunction(
                fn, {x}, want,
                "tcc." + op + " %a0 {dim = " + std::to_string(dim) +
                    " : i64, keepdim = " + (keepdim ? "true" : "false") +
                    "} : " + x.type() + " -> " + want.type()),
            {x},
            {want}};
        c.expectedTiles = dim == -1 ? 4 : 0;
        cases.push_back(std::move(c));
      }
    }
  }
  // Every element equal to the initial value of the search (-inf, INT_MIN):
  // index 0.
  Tensor low =
      generate(DType::F32, {2, 3}, [](const auto &) { return -INFINITY; });
  Tensor zero = zeros(DType::I64, {2});
  cases.push_back({"argmax_all_neg_inf",
                   singleOpFunction("argmax_all_neg_inf", {low}, zero,
                                    "tcc.argmax %a0 {dim = 1 : i64} : " +
                                        low.type() + " -> " + zero.type()),
                   {low},
                   {zero}});
  runCases(*context, cases);
}

//===----------------------------------------------------------------------===//
// softmax / log_softmax
//===----------------------------------------------------------------------===//

Tensor softmaxRef(const Tensor &x, int64_t dim, bool isLog) {
  int64_t rank = x.shape.size();
  dim = dim < 0 ? dim + rank : dim;
  Tensor out = zeros(x.dtype, x.shape);
  for (const auto &index : indices(x.shape)) {
    std::vector<int64_t> at = index;
    double m = -INFINITY;
    bool nan = false;
    for (at[dim] = 0; at[dim] < x.shape[dim]; ++at[dim]) {
      nan |= std::isnan(x.at(at));
      m = std::max(m, x.at(at));
    }
    double sum = 0;
    for (at[dim] = 0; at[dim] < x.shape[dim]; ++at[dim])
      sum += std::exp(x.at(at) - m);
    double v = x.at(index) - m;
    out.values[out.flat(index)] = nan     ? NAN
                                  : isLog ? v - std::log(sum)
                                          : std::exp(v) / sum;
  }
  return out;
}

TEST_F(LowerReductionsTest, SoftmaxIsStableAlongEveryDim) {
  std::vector<KernelCase> cases;
  for (bool isLog : {false, true}) {
    for (DType dtype : {DType::F32, DType::F64, DType::BF16, DType::F16}) {
      for (int64_t dim : {-1, 0, 1}) {
        if (dtype != DType::F32 && dim != -1)
          continue;
        Tensor x = random(dtype, {3, 5, 7}, -4, 4, cases.size());
        // Large values (exp would overflow without the max shift), a -inf
        // entry (probability 0), and a NaN that poisons its row.
        x.values[0] = 1000;
        x.values[1] = roundTo(dtype, 996); // 999 rounds to 1000 in bf16
        x.values[8] = -INFINITY;
        x.values[40] = NAN;
        Tensor want = softmaxRef(x, dim, isLog);
        std::string op = isLog ? "log_softmax" : "softmax";
        std::string fn = unique(op + "_" + mlirName(dtype), cases);
        KernelCase c{fn,
                     singleOpFunction(fn, {x}, want,
                                      "tcc." + op +
                                          " %a0 {dim = " + std::to_string(dim) +
                                          " : i64} : " + x.type()),
                     {x},
                     {want}};
        // Measured: softmax f32 3.5e-7, f64 2.8e-16 relative; log_softmax
        // f32 6.1e-5 absolute at -1000 (6e-8 relative), f64 8.9e-16.
        if (dtype == DType::F64)
          c.tolerance = {2e-15, 1e-15};
        else
          c.tolerance = {1e-6, 5e-7};
        if (isHalf(dtype))
          c.tolerance.rel += dtype == DType::F16 ? 0x1p-10 : 0x1p-7;
        c.expectedTiles = dim == -1 ? 3 : 0;
        cases.push_back(std::move(c));
      }
    }
  }
  runCases(*context, cases);
}

//===----------------------------------------------------------------------===//
// layer_norm / batch_norm
//===----------------------------------------------------------------------===//

TEST_F(LowerReductionsTest, LayerNormOverTrailingDims) {
  std::vector<KernelCase> cases;
  for (DType dtype : {DType::F32, DType::F64, DType::BF16}) {
    for (int64_t normalized : {1, 2}) {
      for (bool affine : {true, false}) {
        std::vector<int64_t> shape = {3, 4, 6};
        std::vector<int64_t> trailing(shape.end() - normalized, shape.end());
        Tensor x = random(dtype, shape, -4, 4, cases.size());
        Tensor w = random(dtype, trailing, 0.5, 2, cases.size() + 1);
        Tensor b = random(dtype, trailing, -1, 1, cases.size() + 2);
        double eps = 1e-3;
        Tensor want = zeros(dtype, shape);
        int64_t inner = 1;
        for (int64_t d : trailing)
          inner *= d;
        for (int64_t row = 0; row < x.numel() / inner; ++row) {
          double mean = 0, var = 0;
          for (int64_t i = 0; i < inner; ++i)
            mean += x.values[row * inner + i];
          mean /= inner;
          for (int64_t i = 0; i < inner; ++i)
            var += std::pow(x.values[row * inner + i] - mean, 2);
          var /= inner;
          for (int64_t i = 0; i < inner; ++i) {
            double y =
                (x.values[row * inner + i] - mean) / std::sqrt(var + eps);
            want.values[row * inner + i] =
                affine ? y * w.values[i] + b.values[i] : y;
          }
        }
        std::string fn =
            unique(std::string("layer_norm_") + mlirName(dtype), cases);
        std::vector<Tensor> inputs = {x};
        std::string op = "tcc.layer_norm %a0";
        std::string types = x.type();
        if (affine) {
          inputs.insert(inputs.end(), {w, b});
          op += " weight %a1 bias %a2";
          types += ", " + w.type() + ", " + b.type();
        }
        op += " {normalized_shape = " + dimsAttr(trailing) +
              ", eps = 1.000000e-03 : f64} : (" + types + ") -> " + want.type();
        KernelCase c{
            fn, singleOpFunction(fn, inputs, want, op), inputs, {want}};
        // Measured 4.8e-7 (f32), 8.9e-16 (f64) absolute.
        c.tolerance = dtype == DType::F64 ? Tolerance{2e-15, 2e-15}
                                          : Tolerance{2e-6, 1e-6};
        if (isHalf(dtype))
          c.tolerance.rel += 0x1p-7;
        c.expectedTiles = 3;
        cases.push_back(std::move(c));
      }
    }
  }
  runCases(*context, cases);
}

TEST_F(LowerReductionsTest, BatchNormUsesRunningStatistics) {
  std::vector<KernelCase> cases;
  for (DType dtype : {DType::F32, DType::F64, DType::BF16, DType::F16}) {
    for (const std::vector<int64_t> &shape :
         {std::vector<int64_t>{2, 3, 4, 5}, {5, 3}, {1, 3, 1}}) {
      if (dtype != DType::F32 && shape.size() != 4)
        continue;
      Tensor x = random(dtype, shape, -3, 3, cases.size());
      Tensor w = random(dtype, {3}, 0.5, 2, cases.size() + 1);
      Tensor b = random(dtype, {3}, -1, 1, cases.size() + 2);
      Tensor mean = random(dtype, {3}, -1, 1, cases.size() + 3);
      Tensor var = random(dtype, {3}, 0.1, 2, cases.size() + 4);
      Tensor want = generate(dtype, shape, [&](const std::vector<int64_t> &i) {
        int64_t c = i[1];
        return (x.at(i) - mean.values[c]) / std::sqrt(var.values[c] + 1e-5) *
                   w.values[c] +
               b.values[c];
      });
      std::string fn =
          unique(std::string("batch_norm_") + mlirName(dtype), cases);
      KernelCase c{fn,
                   singleOpFunction(fn, {x, w, b, mean, var}, want,
                                    "tcc.batch_norm %a0, %a1, %a2, %a3, %a4 "
                                    "{eps = 1.000000e-05 : f64} : (" +
                                        x.type() + ", " + w.type() + ", " +
                                        b.type() + ", " + mean.type() + ", " +
                                        var.type() + ") -> " + want.type()),
                   {x, w, b, mean, var},
                   {want}};
      // x * alpha + beta rounds differently from (x - mean) / std * w + b:
      // 9.5e-7 absolute measured (f32), 8.9e-16 (f64).
      c.tolerance =
          dtype == DType::F64 ? Tolerance{1e-14, 1e-15} : Tolerance{2e-6, 1e-6};
      if (isHalf(dtype))
        c.tolerance.rel += dtype == DType::F16 ? 0x1p-10 : 0x1p-7;
      c.expectedTiles = leadingTiles(want.shape);
      cases.push_back(std::move(c));
    }
  }
  runCases(*context, cases);
}

} // namespace
