//===- OverloadTest.cpp - libtorch calls pick libtorch's overload ---------===//
//
// C++ overload resolution can bind a libtorch-style call to the wrong
// overload without a diagnostic: a braced list `{0}` converts to `bool`
// (a standard conversion) before it converts to IntArrayRef (a
// user-defined one), an `int` converts to `bool`, `0` to a null pointer or
// an optional. Each trap found is fixed in the header and checked here
// against the explicit overload; calls that were audited and already pick
// libtorch's overload are checked too, so a later overload cannot steal
// them.
//
// Overload sets audited (Tensor methods, tcc:: free functions in
// Functions.h, Factories.h, Ops/{Indexing,Loss,NN}.h, nn::functional):
//   var, std        TRAP: `t.std({0})`, `t.var({0})`, `std(t, {0})` took the
//                   `bool unbiased` overload and reduced over everything
//                   (unbiased = false), and `t.var({})` value-initialized
//                   the flag to false. Fixed: the bool overload is a
//                   template on exactly `bool` (braced lists never deduce a
//                   template parameter) plus a no-argument overload; `t.var(1)`
//                   was already dim 1 (an integral template).
//   sum, mean       `sum(1)`, `sum({0})`: IntArrayRef (ScalarType is an enum
//                   class, so neither `0` nor `{0}` reaches the dtype overload);
//                   `sum({})` is ambiguous, a compile error, not a silent pick.
//   prod, max, min, all, any, softmax, log_softmax, squeeze, unsqueeze,
//   flatten, transpose, select, narrow, chunk, unbind, gather, index_select:
//                   a single int64_t dim; `{0}` is dim 0; `max(0)` is the
//                   (values, indices) overload, not max(Tensor) (0 does not
//                   convert to Tensor: its constructor is explicit).
//   argmax, argmin  optional<int64_t>: `argmax(0)` is dim 0, not nullopt.
//   amax, amin, logsumexp, permute, view, reshape, expand: IntArrayRef (an int
//                   converts through ArrayRef's one-element constructor).
//   norm            `norm(2, 1)` is p = 2 over dim 1; `norm({1})` is p = 1, as in
//                   libtorch (p comes first there too).
//   split           `split({2})` takes split_size 2 as libtorch does; with one
//                   size the result is the same as split_with_sizes would give
//                   where that is valid.
//   clamp           optional<Scalar>: `clamp(0)` is min = 0, `clamp({}, 1)` max.
//   add/sub/mul/div/pow/eq.../operators, masked_fill, scatter, fill_, where:
//                   Tensor versus Scalar; literals (int, double, bool, size_t,
//                   unsigned, char, float) take the Scalar overload, never an
//                   ambiguity; `where(c, 0.0, t)` and `where(c, t, 0)` exist.
//   to, copy_, requires_grad_, expand(size, implicit): bool flags as in
//                   libtorch (same signatures, same conversions).
//   arange, zeros/ones/full/rand*, randint, eye, tensor: `randint(10, {3})`
//                   is (high, size); `arange(0, 6, 2)` is (start, end, step).
//   nn::functional options: implicit constructors as in libtorch
//                   (SoftmaxFuncOptions(dim), LayerNormFuncOptions(shape)).
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include <cmath>
#include <tuple>
#include <type_traits>

using namespace tcc;

namespace {

// --- Compile-time: which overload a literal picks --------------------------

// `0` is never a Tensor (no null-handle conversion), so Tensor/Scalar pairs
// take the Scalar overload and `max(0)` is the dim overload.
static_assert(!std::is_convertible_v<int, Tensor>);
static_assert(!std::is_convertible_v<std::nullptr_t, Tensor>);
// Nor an engaged optional<Tensor> (`weight` of the losses): `0` there does
// not compile rather than meaning "no weight" or a null tensor.
static_assert(!std::is_convertible_v<int, std::optional<Tensor>>);
static_assert(std::is_same_v<decltype(std::declval<const Tensor &>().max(0)),
                             std::tuple<Tensor, Tensor>>);
static_assert(std::is_same_v<decltype(std::declval<const Tensor &>().min(0)),
                             std::tuple<Tensor, Tensor>>);
// A dim is never a dtype.
static_assert(!std::is_convertible_v<int, ScalarType>);
static_assert(!std::is_convertible_v<int, std::optional<ScalarType>>);
// Scalar takes every arithmetic literal type, so `t / v.size()` compiles.
static_assert(std::is_convertible_v<size_t, Scalar>);
static_assert(std::is_convertible_v<unsigned, Scalar>);
static_assert(std::is_convertible_v<float, Scalar>);

/// 3x4 float64, values 0..11 with a non-linear twist so rows and columns
/// differ in spread.
Tensor grid() {
  Tensor t = arange(12, kDouble).reshape({3, 4});
  return t * t / 7.0;
}

// --- Fixed traps ---------------------------------------------------------------

TEST(OverloadTest, StdVarBracedDimIsADim) {
  Tensor t = grid();
  // Over dim 0: one value per column (shape [4]), unbiased.
  Tensor s0 = t.std({0});
  EXPECT_EQ(s0.sizes(), IntArrayRef({4}));
  EXPECT_TRUE(s0.allclose(t.std(IntArrayRef{0}, true, false)));
  Tensor v0 = t.var({0});
  EXPECT_EQ(v0.sizes(), IntArrayRef({4}));
  EXPECT_TRUE(v0.allclose(t.var(IntArrayRef{0}, true, false)));
  // Column 0 is {0, 16, 64} / 7: mean 80/21, unbiased variance by hand.
  double a = 0, b = 16 / 7.0, c = 64 / 7.0, m = (a + b + c) / 3;
  double var0 = ((a - m) * (a - m) + (b - m) * (b - m) + (c - m) * (c - m)) / 2;
  EXPECT_NEAR(v0[0].item<double>(), var0, 1e-12);
  EXPECT_NEAR(s0[0].item<double>(), std::sqrt(var0), 1e-12);
  // Over dim 1, and through the free functions.
  EXPECT_EQ(t.std({1}).sizes(), IntArrayRef({3}));
  EXPECT_TRUE(t.var({1}).allclose(t.var(IntArrayRef{1}, true, false)));
  EXPECT_TRUE(tcc::std(t, {0}).allclose(t.std(IntArrayRef{0}, true, false)));
  EXPECT_TRUE(tcc::var(t, {1}).allclose(t.var(IntArrayRef{1}, true, false)));
  // An empty list is no dims: everything, unbiased (it was `false`).
  EXPECT_TRUE(t.var({}).allclose(t.var()));
  EXPECT_TRUE(t.std({}).allclose(t.std(true)));
  // Several dims, and dims with flags, as before.
  EXPECT_EQ(t.var({0, 1}).dim(), 0);
  EXPECT_EQ(t.std({0}, false, true).sizes(), IntArrayRef({1, 4}));
}

TEST(OverloadTest, StdVarFlagAndDefaultStillReduceEverything) {
  Tensor t = grid();
  Tensor all = t.reshape({12});
  EXPECT_TRUE(t.var().allclose(all.var(IntArrayRef{0}, true, false)));
  EXPECT_TRUE(t.var(true).allclose(t.var()));
  EXPECT_TRUE(t.var(false).allclose(all.var(IntArrayRef{0}, false, false)));
  EXPECT_TRUE(t.std(false).allclose(all.std(IntArrayRef{0}, false, false)));
  EXPECT_TRUE(tcc::std(t).allclose(t.std()));
  EXPECT_TRUE(tcc::var(t, false).allclose(t.var(false)));
  bool unbiased = false; // a bool variable is still the flag
  EXPECT_TRUE(t.std(unbiased).allclose(t.std(false)));
  // An integer is a dim (libtorch's `t.var(1)`), never the flag.
  EXPECT_EQ(t.var(1).sizes(), IntArrayRef({3}));
  EXPECT_EQ(tcc::std(t, 0).sizes(), IntArrayRef({4}));
}

// --- Audited calls that already pick libtorch's overload ----------------------

TEST(OverloadTest, DimArgumentsAreDims) {
  Tensor t = grid();
  EXPECT_EQ(t.sum(1).sizes(), IntArrayRef({3}));
  EXPECT_EQ(t.sum({0}).sizes(), IntArrayRef({4}));
  EXPECT_EQ(t.mean(0).sizes(), IntArrayRef({4}));
  EXPECT_EQ(t.mean({1}, true).sizes(), IntArrayRef({3, 1}));
  EXPECT_EQ(t.prod({1}).sizes(), IntArrayRef({3}));
  EXPECT_EQ(std::get<0>(t.max(0)).sizes(), IntArrayRef({4}));
  EXPECT_EQ(t.argmax(0).sizes(), IntArrayRef({4})); // 0 is a dim, not nullopt
  EXPECT_EQ(t.argmax(0, true).sizes(), IntArrayRef({1, 4}));
  EXPECT_EQ(t.amax(1).sizes(), IntArrayRef({3}));
  EXPECT_EQ(t.logsumexp(1).sizes(), IntArrayRef({3}));
  EXPECT_EQ((t > 3).all(0).sizes(), IntArrayRef({4}));
  EXPECT_EQ((t > 3).any({1}).sizes(), IntArrayRef({3}));
  EXPECT_TRUE(t.norm(2, 1).allclose(t.norm(2, IntArrayRef{1})));
  EXPECT_EQ(t.norm(2, 1).sizes(), IntArrayRef({3}));
  EXPECT_TRUE(t.softmax(0).sum(0).allclose(ones({4}, kDouble)));
  EXPECT_EQ(t.flatten(1).sizes(), IntArrayRef({3, 4}));
  EXPECT_EQ(t.view(-1).sizes(), IntArrayRef({12}));
  // A braced list is a shape, {} included, never view(dtype)'s ScalarType.
  EXPECT_EQ(t.sum().view({}).dim(), 0);
  EXPECT_EQ(t.view({12}).sizes(), IntArrayRef({12}));
  EXPECT_EQ(t.view(kLong).dtype(), kLong);
  EXPECT_EQ(tcc::sum(t, 1).sizes(), IntArrayRef({3}));
  EXPECT_EQ(tcc::argmax(t, 1, true).sizes(), IntArrayRef({3, 1}));
}

TEST(OverloadTest, ScalarLiteralsTakeTheScalarOverload) {
  Tensor t = tensor({-2.0, 0.5, 3.0});
  EXPECT_TENSOR(t.add(1), {3}, {-1, 1.5, 4});
  EXPECT_TENSOR(t.pow(2), {3}, {4, 0.25, 9});
  EXPECT_TENSOR(t / size_t(2), {3}, {-1, 0.25, 1.5});
  EXPECT_TENSOR(t.clamp(0), {3}, {0, 0.5, 3});   // min, not max or none
  EXPECT_TENSOR(t.clamp({}, 1), {3}, {-2, 0.5, 1});
  Tensor c = tensor({true, false, true});
  EXPECT_TENSOR(where(c, 0.0, t), {3}, {0, 0.5, 0});
  EXPECT_TENSOR(where(c, t, 0), {3}, {-2, 0, 3});
  EXPECT_TENSOR(t.masked_fill(c, 0), {3}, {0, 0.5, 0});
}

} // namespace
