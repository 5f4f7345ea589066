//===- Init.cpp - nn::init ------------------------------------------------===//

#include "tcc/Frontend/nn/Init.h"

#include "tcc/Frontend/Check.h"
#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Functions.h"
#include "tcc/Frontend/GradMode.h"

#include <cmath>

namespace tcc {
namespace nn {
namespace init {
namespace {

int64_t fanFor(const Tensor &tensor, FanModeType mode) {
  auto [fanIn, fanOut] = _calculate_fan_in_and_fan_out(tensor);
  return std::holds_alternative<enumtype::kFanIn>(mode) ? fanIn : fanOut;
}

void checkDefined(const Tensor &t, const char *fn) {
  TCC_CHECK(t.defined(), "nn::init::", fn, ": the tensor is undefined");
}

} // namespace

double calculate_gain(NonlinearityType nonlinearity, double param) {
  if (std::holds_alternative<enumtype::kTanh>(nonlinearity))
    return 5.0 / 3.0;
  if (std::holds_alternative<enumtype::kReLU>(nonlinearity))
    return std::sqrt(2.0);
  if (std::holds_alternative<enumtype::kLeakyReLU>(nonlinearity))
    return std::sqrt(2.0 / (1 + param * param));
  return 1.0; // linear, conv*, sigmoid
}

std::tuple<int64_t, int64_t>
_calculate_fan_in_and_fan_out(const Tensor &tensor) {
  checkDefined(tensor, "_calculate_fan_in_and_fan_out");
  TCC_CHECK(tensor.dim() >= 2,
            "Fan in and fan out can not be computed for tensor with fewer "
            "than 2 dimensions (got ",
            tensor.dim(), "-D tensor of shape ", tensor.sizes(), ")");
  int64_t receptive = 1;
  for (int64_t d = 2; d < tensor.dim(); ++d)
    receptive *= tensor.size(d);
  return {tensor.size(1) * receptive, tensor.size(0) * receptive};
}

Tensor constant_(Tensor tensor, Scalar value) {
  checkDefined(tensor, "constant_");
  NoGradGuard noGrad;
  tensor.fill_(value);
  return tensor;
}

Tensor ones_(Tensor tensor) { return constant_(std::move(tensor), 1); }
Tensor zeros_(Tensor tensor) { return constant_(std::move(tensor), 0); }

Tensor eye_(Tensor matrix) {
  checkDefined(matrix, "eye_");
  TCC_CHECK(matrix.dim() == 2, "Only tensors with 2 dimensions are supported ",
            "by eye_ (got ", matrix.dim(), "-D)");
  NoGradGuard noGrad;
  matrix.copy_(eye(matrix.size(0), matrix.size(1), matrix.dtype()));
  return matrix;
}

Tensor dirac_(Tensor tensor) {
  checkDefined(tensor, "dirac_");
  TCC_CHECK(tensor.dim() >= 3 && tensor.dim() <= 5,
            "Only tensors with 3, 4, or 5 dimensions are supported by dirac_ "
            "(got ",
            tensor.dim(), "-D)");
  NoGradGuard noGrad;
  tensor.zero_();
  int64_t n = std::min(tensor.size(0), tensor.size(1));
  for (int64_t i = 0; i < n; ++i) {
    Tensor cell = tensor.select(0, i).select(0, i);
    while (cell.dim() > 0)
      cell = cell.select(0, cell.size(0) / 2);
    cell.fill_(1);
  }
  return tensor;
}

Tensor uniform_(Tensor tensor, double low, double high) {
  checkDefined(tensor, "uniform_");
  NoGradGuard noGrad;
  tensor.uniform_(low, high);
  return tensor;
}

Tensor normal_(Tensor tensor, double mean, double std) {
  checkDefined(tensor, "normal_");
  NoGradGuard noGrad;
  tensor.normal_(mean, std);
  return tensor;
}

Tensor xavier_uniform_(Tensor tensor, double gain) {
  auto [fanIn, fanOut] = _calculate_fan_in_and_fan_out(tensor);
  double std = gain * std::sqrt(2.0 / double(fanIn + fanOut));
  double a = std::sqrt(3.0) * std;
  return uniform_(std::move(tensor), -a, a);
}

Tensor xavier_normal_(Tensor tensor, double gain) {
  auto [fanIn, fanOut] = _calculate_fan_in_and_fan_out(tensor);
  double std = gain * std::sqrt(2.0 / double(fanIn + fanOut));
  return normal_(std::move(tensor), 0, std);
}

Tensor kaiming_uniform_(Tensor tensor, double a, FanModeType mode,
                        NonlinearityType nonlinearity) {
  double std =
      calculate_gain(nonlinearity, a) / std::sqrt(double(fanFor(tensor, mode)));
  double bound = std::sqrt(3.0) * std;
  return uniform_(std::move(tensor), -bound, bound);
}

Tensor kaiming_normal_(Tensor tensor, double a, FanModeType mode,
                       NonlinearityType nonlinearity) {
  double std =
      calculate_gain(nonlinearity, a) / std::sqrt(double(fanFor(tensor, mode)));
  return normal_(std::move(tensor), 0, std);
}

Tensor orthogonal_(Tensor tensor, double gain) {
  checkDefined(tensor, "orthogonal_");
  TCC_CHECK(tensor.dim() >= 2,
            "Only tensors with 2 or more dimensions are supported by "
            "orthogonal_ (got ",
            tensor.dim(), "-D)");
  NoGradGuard noGrad;
  int64_t rows = tensor.size(0), cols = tensor.numel() / rows;
  // Orthonormalize the rows of the taller orientation in float64.
  bool transpose = rows < cols;
  int64_t n = transpose ? rows : cols, m = transpose ? cols : rows;
  Tensor flat = randn({n, m}, kDouble);
  double *a = flat.data_ptr<double>();
  for (int64_t i = 0; i < n; ++i) {
    double *row = a + i * m;
    for (int pass = 0; pass < 2; ++pass) // re-orthogonalize for accuracy
      for (int64_t j = 0; j < i; ++j) {
        const double *prev = a + j * m;
        double dot = 0;
        for (int64_t k = 0; k < m; ++k)
          dot += row[k] * prev[k];
        for (int64_t k = 0; k < m; ++k)
          row[k] -= dot * prev[k];
      }
    double norm = 0;
    for (int64_t k = 0; k < m; ++k)
      norm += row[k] * row[k];
    norm = std::sqrt(norm);
    TCC_CHECK(norm > 0, "orthogonal_: degenerate random matrix");
    for (int64_t k = 0; k < m; ++k)
      row[k] /= norm;
  }
  Tensor q = transpose ? flat : flat.t();
  tensor.copy_((q * gain).reshape(tensor.sizes()));
  return tensor;
}

} // namespace init
} // namespace nn
} // namespace tcc
