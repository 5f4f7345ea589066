//===- Functions.h - Ops as free functions ----------------------*- C++ -*-===//
//
// `tcc::exp(x)`, `tcc::matmul(a, b)`, ... as in libtorch. Each is also a
// Tensor method where libtorch has one.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_FUNCTIONS_H
#define TCC_FRONTEND_FUNCTIONS_H

#include "tcc/Frontend/Tensor.h"

#include <string>

namespace tcc {

// Arithmetic (broadcasting, PyTorch type promotion; `/` is true division).
Tensor add(const Tensor &self, const Tensor &other, const Scalar &alpha = 1);
Tensor add(const Tensor &self, const Scalar &other, const Scalar &alpha = 1);
Tensor sub(const Tensor &self, const Tensor &other, const Scalar &alpha = 1);
Tensor sub(const Tensor &self, const Scalar &other, const Scalar &alpha = 1);
Tensor rsub(const Tensor &self, const Scalar &other, const Scalar &alpha = 1);
Tensor mul(const Tensor &self, const Tensor &other);
Tensor mul(const Tensor &self, const Scalar &other);
Tensor div(const Tensor &self, const Tensor &other);
Tensor div(const Tensor &self, const Scalar &other);
Tensor div(const Scalar &self, const Tensor &other);
/// Writes into `out` (resized if it has no elements and a different shape).
Tensor &add_out(Tensor &out, const Tensor &self, const Tensor &other,
                const Scalar &alpha = 1);
Tensor &sub_out(Tensor &out, const Tensor &self, const Tensor &other,
                const Scalar &alpha = 1);
Tensor &mul_out(Tensor &out, const Tensor &self, const Tensor &other);
Tensor &div_out(Tensor &out, const Tensor &self, const Tensor &other);
Tensor pow(const Tensor &self, const Tensor &exponent);
Tensor pow(const Tensor &self, const Scalar &exponent);
Tensor pow(const Scalar &self, const Tensor &exponent);
Tensor maximum(const Tensor &self, const Tensor &other);
Tensor minimum(const Tensor &self, const Tensor &other);

// Comparisons and logic (results are bool).
Tensor eq(const Tensor &self, const Tensor &other);
Tensor eq(const Tensor &self, const Scalar &other);
Tensor ne(const Tensor &self, const Tensor &other);
Tensor ne(const Tensor &self, const Scalar &other);
Tensor lt(const Tensor &self, const Tensor &other);
Tensor lt(const Tensor &self, const Scalar &other);
Tensor le(const Tensor &self, const Tensor &other);
Tensor le(const Tensor &self, const Scalar &other);
Tensor gt(const Tensor &self, const Tensor &other);
Tensor gt(const Tensor &self, const Scalar &other);
Tensor ge(const Tensor &self, const Tensor &other);
Tensor ge(const Tensor &self, const Scalar &other);
Tensor logical_and(const Tensor &self, const Tensor &other);
Tensor logical_or(const Tensor &self, const Tensor &other);
Tensor logical_xor(const Tensor &self, const Tensor &other);
Tensor logical_not(const Tensor &self);
/// Elements of `self` where `condition`, else of `other`.
Tensor where(const Tensor &condition, const Tensor &self, const Tensor &other);
Tensor where(const Tensor &condition, const Scalar &self, const Tensor &other);
Tensor where(const Tensor &condition, const Tensor &self, const Scalar &other);
Tensor where(const Tensor &condition, const Scalar &self, const Scalar &other);

// Unary.
Tensor neg(const Tensor &self);
Tensor abs(const Tensor &self);
Tensor exp(const Tensor &self);
Tensor log(const Tensor &self);
Tensor log1p(const Tensor &self);
Tensor sqrt(const Tensor &self);
Tensor rsqrt(const Tensor &self);
Tensor reciprocal(const Tensor &self);
Tensor square(const Tensor &self);
Tensor sin(const Tensor &self);
Tensor cos(const Tensor &self);
Tensor tanh(const Tensor &self);
Tensor sigmoid(const Tensor &self);
Tensor relu(const Tensor &self);
/// approximate: "none" (erf form) or "tanh".
Tensor gelu(const Tensor &self, const std::string &approximate = "none");
Tensor silu(const Tensor &self);
Tensor erf(const Tensor &self);
Tensor sign(const Tensor &self);
Tensor floor(const Tensor &self);
Tensor ceil(const Tensor &self);
/// Rounds half to even, as PyTorch does.
Tensor round(const Tensor &self);
Tensor clamp(const Tensor &self, std::optional<Scalar> min = std::nullopt,
             std::optional<Scalar> max = std::nullopt);
Tensor clamp_min(const Tensor &self, const Scalar &min);
Tensor clamp_max(const Tensor &self, const Scalar &max);

// Reductions.
Tensor sum(const Tensor &self, std::optional<ScalarType> dtype = std::nullopt);
Tensor sum(const Tensor &self, IntArrayRef dim, bool keepdim = false,
           std::optional<ScalarType> dtype = std::nullopt);
Tensor mean(const Tensor &self, std::optional<ScalarType> dtype = std::nullopt);
Tensor mean(const Tensor &self, IntArrayRef dim, bool keepdim = false,
            std::optional<ScalarType> dtype = std::nullopt);
Tensor prod(const Tensor &self, std::optional<ScalarType> dtype = std::nullopt);
Tensor prod(const Tensor &self, int64_t dim, bool keepdim = false,
            std::optional<ScalarType> dtype = std::nullopt);
Tensor max(const Tensor &self);
std::tuple<Tensor, Tensor> max(const Tensor &self, int64_t dim,
                               bool keepdim = false);
Tensor min(const Tensor &self);
std::tuple<Tensor, Tensor> min(const Tensor &self, int64_t dim,
                               bool keepdim = false);
Tensor amax(const Tensor &self, IntArrayRef dim = {}, bool keepdim = false);
Tensor amin(const Tensor &self, IntArrayRef dim = {}, bool keepdim = false);
Tensor argmax(const Tensor &self, std::optional<int64_t> dim = std::nullopt,
              bool keepdim = false);
Tensor argmin(const Tensor &self, std::optional<int64_t> dim = std::nullopt,
              bool keepdim = false);
/// Variance with `correction` (1: unbiased, 0: population).
Tensor var(const Tensor &self, std::optional<IntArrayRef> dim,
           std::optional<int64_t> correction, bool keepdim = false);
/// Over all elements; `unbiased` takes a bool only, so that `var(t, {0})`
/// reduces over dim 0 (a braced list cannot deduce B).
inline Tensor var(const Tensor &self) { return var(self, std::nullopt, 1); }
template <class B, std::enable_if_t<std::is_same_v<B, bool>, int> = 0>
Tensor var(const Tensor &self, B unbiased) {
  return var(self, std::nullopt, int64_t(unbiased ? 1 : 0));
}
Tensor var(const Tensor &self, IntArrayRef dim, bool unbiased = true,
           bool keepdim = false);
Tensor std(const Tensor &self, std::optional<IntArrayRef> dim,
           std::optional<int64_t> correction, bool keepdim = false);
inline Tensor std(const Tensor &self) { return std(self, std::nullopt, 1); }
template <class B, std::enable_if_t<std::is_same_v<B, bool>, int> = 0>
Tensor std(const Tensor &self, B unbiased) {
  return std(self, std::nullopt, int64_t(unbiased ? 1 : 0));
}
Tensor std(const Tensor &self, IntArrayRef dim, bool unbiased = true,
           bool keepdim = false);
/// `var(t, 1)` and `std(t, 1)` reduce over dim 1, as in libtorch.
template <class Int, class = std::enable_if_t<std::is_integral_v<Int> &&
                                              !std::is_same_v<Int, bool>>>
Tensor var(const Tensor &self, Int dim, bool unbiased = true,
           bool keepdim = false) {
  int64_t d = dim;
  return var(self, IntArrayRef(d), unbiased, keepdim);
}
template <class Int, class = std::enable_if_t<std::is_integral_v<Int> &&
                                              !std::is_same_v<Int, bool>>>
Tensor std(const Tensor &self, Int dim, bool unbiased = true,
           bool keepdim = false) {
  int64_t d = dim;
  return std(self, IntArrayRef(d), unbiased, keepdim);
}
/// p-norm over all elements or over `dim` (p = inf, -inf, 0 included).
Tensor norm(const Tensor &self, const Scalar &p = 2);
Tensor norm(const Tensor &self, const Scalar &p, IntArrayRef dim,
            bool keepdim = false);
Tensor all(const Tensor &self);
Tensor all(const Tensor &self, int64_t dim, bool keepdim = false);
Tensor any(const Tensor &self);
Tensor any(const Tensor &self, int64_t dim, bool keepdim = false);
Tensor logsumexp(const Tensor &self, IntArrayRef dim, bool keepdim = false);
Tensor softmax(const Tensor &self, int64_t dim,
               std::optional<ScalarType> dtype = std::nullopt);
Tensor log_softmax(const Tensor &self, int64_t dim,
                   std::optional<ScalarType> dtype = std::nullopt);
bool equal(const Tensor &self, const Tensor &other);
bool allclose(const Tensor &self, const Tensor &other, double rtol = 1e-5,
              double atol = 1e-8, bool equal_nan = false);
Tensor isclose(const Tensor &self, const Tensor &other, double rtol = 1e-5,
               double atol = 1e-8, bool equal_nan = false);
Tensor isnan(const Tensor &self);

// Linear algebra (operands must share a dtype).
/// torch.matmul: dot, mv, mm, and batched matmul with broadcast batch dims.
Tensor matmul(const Tensor &self, const Tensor &other);
Tensor mm(const Tensor &self, const Tensor &mat2);
Tensor bmm(const Tensor &self, const Tensor &mat2);
Tensor dot(const Tensor &self, const Tensor &other);
Tensor mv(const Tensor &self, const Tensor &vec);
/// beta * self + alpha * (mat1 @ mat2).
Tensor addmm(const Tensor &self, const Tensor &mat1, const Tensor &mat2,
             const Scalar &beta = 1, const Scalar &alpha = 1);

// Shape (views where possible).
Tensor reshape(const Tensor &self, IntArrayRef shape);
Tensor flatten(const Tensor &self, int64_t start_dim = 0, int64_t end_dim = -1);
Tensor unflatten(const Tensor &self, int64_t dim, IntArrayRef sizes);
Tensor transpose(const Tensor &self, int64_t dim0, int64_t dim1);
Tensor permute(const Tensor &self, IntArrayRef dims);
Tensor movedim(const Tensor &self, int64_t source, int64_t destination);
Tensor t(const Tensor &self);
Tensor squeeze(const Tensor &self);
Tensor squeeze(const Tensor &self, int64_t dim);
Tensor unsqueeze(const Tensor &self, int64_t dim);
Tensor select(const Tensor &self, int64_t dim, int64_t index);
Tensor narrow(const Tensor &self, int64_t dim, int64_t start, int64_t length);
Tensor slice(const Tensor &self, int64_t dim = 0,
             std::optional<int64_t> start = std::nullopt,
             std::optional<int64_t> end = std::nullopt, int64_t step = 1);
Tensor as_strided(const Tensor &self, IntArrayRef size, IntArrayRef stride,
                  std::optional<int64_t> storage_offset = std::nullopt);
Tensor diagonal(const Tensor &self, int64_t offset = 0, int64_t dim1 = 0,
                int64_t dim2 = 1);
Tensor clone(const Tensor &self);
Tensor detach(const Tensor &self);
Tensor broadcast_to(const Tensor &self, IntArrayRef size);
std::vector<int64_t> broadcast_shapes(IntArrayRef a, IntArrayRef b);

// Threads of the intra-op pool that eager CPU ops use.
void set_num_threads(int num_threads);
int get_num_threads();

} // namespace tcc

#endif // TCC_FRONTEND_FUNCTIONS_H
