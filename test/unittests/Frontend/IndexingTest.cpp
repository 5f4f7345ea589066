//===- IndexingTest.cpp - cat, stack, split, gather, scatter, pad, ... ----===//

#include "TestSupport.h"

#include <cmath>

using namespace tcc;

TEST(IndexingTest, CatAndStack) {
  Tensor a = tensor({{1, 2}, {3, 4}}), b = tensor({{5, 6}});
  EXPECT_TENSOR(cat({a, b}), {3, 2}, {1, 2, 3, 4, 5, 6});
  EXPECT_TENSOR(cat({a, a.t()}, 1), {2, 4}, {1, 2, 1, 3, 3, 4, 2, 4});
  EXPECT_TENSOR(cat({a, b}, -2), {3, 2}, {1, 2, 3, 4, 5, 6});
  // Types promote; 1-D empty tensors are skipped.
  Tensor c = cat({a, tensor({{0.5, 1.5}}), zeros({0})});
  EXPECT_EQ(c.dtype(), kFloat);
  EXPECT_TENSOR(c, {3, 2}, {1, 2, 3, 4, 0.5, 1.5});
  EXPECT_TENSOR(stack({tensor({1, 2}), tensor({3, 4})}), {2, 2}, {1, 2, 3, 4});
  EXPECT_TENSOR(stack({tensor({1, 2}), tensor({3, 4})}, 1), {2, 2},
                {1, 3, 2, 4});
  EXPECT_TENSOR(stack({tensor({1, 2}), tensor({3, 4})}, -1), {2, 2},
                {1, 3, 2, 4});
}

TEST(IndexingTest, CatErrors) {
  EXPECT_EQ(test::errorOf([] {
              cat({ones({2, 3}), ones({2, 4})});
            }),
            "Sizes of tensors must match except in dimension 0. Expected size "
            "3 but got size 4 for tensor number 1 in the list.");
  EXPECT_EQ(test::errorOf([] {
              cat({ones({2, 3}), ones({2})});
            }),
            "Tensors must have same number of dimensions: got 2 and 1");
  EXPECT_EQ(test::errorOf([] {
              cat({ones({2}), ones({})});
            }),
            "zero-dimensional tensor (at position 1) cannot be concatenated");
  EXPECT_EQ(test::errorOf([] { cat(std::vector<Tensor>{}); }),
            "torch.cat(): expected a non-empty list of Tensors");
  EXPECT_EQ(test::errorOf([] {
              stack({ones({2, 3}), ones({3, 2})});
            }),
            "stack expects each tensor to be equal size, but got [2, 3] at "
            "entry 0 and [3, 2] at entry 1");
  EXPECT_ERROR_CONTAINS(cat({ones({2}), ones({2})}, 1),
                        "Dimension out of range");
}

TEST(IndexingTest, SplitChunkUnbind) {
  Tensor x = arange(10).view({5, 2});
  std::vector<Tensor> s = x.split(2);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_TENSOR(s[2], {1, 2}, {8, 9});
  // The pieces are views.
  EXPECT_TRUE(s[1].is_view());
  s = split(x, {1, 4});
  ASSERT_EQ(s.size(), 2u);
  EXPECT_TENSOR(s[1], {4, 2}, {2, 3, 4, 5, 6, 7, 8, 9});
  std::vector<Tensor> c = x.chunk(2, 1);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_TENSOR(c[1], {5, 1}, {1, 3, 5, 7, 9});
  EXPECT_EQ(x.chunk(3).size(), 3u);         // sizes 2, 2, 1
  EXPECT_EQ(arange(4).chunk(3).size(), 2u); // sizes 2, 2: fewer than asked
  EXPECT_EQ(zeros({0}).chunk(3).size(), 3u);
  std::vector<Tensor> u = x.unbind(1);
  ASSERT_EQ(u.size(), 2u);
  EXPECT_TENSOR(u[0], {5}, {0, 2, 4, 6, 8});
  EXPECT_ERROR_CONTAINS(
      x.split_with_sizes({2, 2}),
      "split_with_sizes expects split_sizes to sum exactly to "
      "5 (input tensor's size at dimension 0), but got "
      "split_sizes=[2, 2]");
  EXPECT_ERROR_CONTAINS(x.chunk(0), "chunk expects `chunks` to be greater than "
                                    "0, got: 0");
  EXPECT_ERROR_CONTAINS(x.split(0),
                        "split_size can only be 0 if dimension size "
                        "is 0");
}

TEST(IndexingTest, GatherScatter) {
  Tensor x = tensor({{1, 2, 3}, {4, 5, 6}});
  Tensor i = tensor({{2, 0}, {1, 1}});
  EXPECT_TENSOR(x.gather(1, i), {2, 2}, {3, 1, 5, 5});
  EXPECT_TENSOR(x.gather(0, tensor({{1, 0, 1}})), {1, 3}, {4, 2, 6});
  Tensor src = tensor({{10, 20}, {30, 40}});
  EXPECT_TENSOR(x.scatter(1, i, src), {2, 3}, {20, 2, 10, 4, 40, 6});
  EXPECT_TENSOR(x.scatter(1, i, -1), {2, 3}, {-1, 2, -1, 4, -1, 6});
  EXPECT_TENSOR(x.scatter_add(1, i, src), {2, 3}, {21, 2, 13, 4, 75, 6});
  EXPECT_TENSOR(x, {2, 3}, {1, 2, 3, 4, 5, 6}); // out of place
  Tensor y = x.clone();
  y.scatter_add_(0, tensor({{1, 1, 0}}), tensor({{100, 200, 300}}));
  EXPECT_TENSOR(y, {2, 3}, {1, 2, 303, 104, 205, 6});
  y.scatter_(1, tensor({{0}, {2}}), 0);
  EXPECT_TENSOR(y, {2, 3}, {0, 2, 303, 104, 205, 0});
  // An expanded (stride-0) index and a non-contiguous self.
  Tensor e = tensor({{1}, {0}}).expand({2, 3});
  EXPECT_TENSOR(x.t().contiguous().t().gather(0, e), {2, 3},
                {4, 5, 6, 1, 2, 3});
  EXPECT_TENSOR(zeros({2, 3}).scatter_add(0, e, ones({2, 3})), {2, 3},
                {1, 1, 1, 1, 1, 1});
}

TEST(IndexingTest, GatherScatterErrors) {
  Tensor x = ones({2, 3});
  EXPECT_EQ(test::errorOf([&] {
              x.gather(1, tensor({{5}, {0}}));
            }),
            "index 5 is out of bounds for dimension 1 with size 3");
  EXPECT_EQ(test::errorOf([&] {
              x.gather(1, tensor({{0}, {0}, {0}}));
            }),
            "Size does not match at dimension 0 expected index [3, 1] to be "
            "smaller than self [2, 3] apart from dimension 1");
  EXPECT_ERROR_CONTAINS(x.gather(1, tensor({0})),
                        "Index tensor must have the same number of dimensions");
  EXPECT_ERROR_CONTAINS(x.gather(1, tensor({{0.0}})),
                        "gather(): Expected dtype int64 for index");
  EXPECT_EQ(test::errorOf([&] {
              x.scatter(1, tensor({{0, 1, 2, 0}}), ones({1, 3}));
            }),
            "Expected index [1, 4] to be smaller than self [2, 3] apart from "
            "dimension 1 and to be smaller size than src [1, 3]");
  EXPECT_ERROR_CONTAINS(x.scatter(1, tensor({{0}}), ones({1, 1}, kDouble)),
                        "Expected self.dtype to be equal to src.dtype");
  EXPECT_ERROR_CONTAINS(
      x.scatter_add(1, tensor({{-1}}), ones({1, 1})),
      "index -1 is out of bounds for dimension 1 with size 3");
}

TEST(IndexingTest, ScatterReduce) {
  // Row 0 gets src 10 and 30 at column 2 and 20 at column 0; row 1 gets
  // 40 and 50 at column 1 and 60 at column 0.
  Tensor x = tensor({{1.0, 2, 3, 4}, {5.0, 6, 7, 8}});
  Tensor i = tensor({{2, 0, 2}, {1, 1, 0}});
  Tensor src = tensor({{10.0, 20, 30}, {40.0, 50, 60}});
  EXPECT_TENSOR(x.scatter_reduce(1, i, src, "sum"), {2, 4},
                {21, 2, 43, 4, 65, 96, 7, 8});
  EXPECT_TENSOR(x.scatter_reduce(1, i, src, "sum", false), {2, 4},
                {20, 2, 40, 4, 60, 90, 7, 8});
  EXPECT_TENSOR(x.scatter_reduce(1, i, src, "prod"), {2, 4},
                {20, 2, 900, 4, 300, 12000, 7, 8});
  EXPECT_TENSOR(x.scatter_reduce(1, i, src, "prod", false), {2, 4},
                {20, 2, 300, 4, 60, 2000, 7, 8});
  EXPECT_TENSOR(x.scatter_reduce(1, i, src, "mean"), {2, 4},
                {10.5, 2, 43.0 / 3, 4, 32.5, 32, 7, 8});
  EXPECT_TENSOR(x.scatter_reduce(1, i, src, "mean", false), {2, 4},
                {20, 2, 20, 4, 60, 45, 7, 8});
  EXPECT_TENSOR(x.scatter_reduce(1, i, -src, "amax"), {2, 4},
                {1, 2, 3, 4, 5, 6, 7, 8});
  EXPECT_TENSOR(x.scatter_reduce(1, i, -src, "amax", false), {2, 4},
                {-20, 2, -10, 4, -60, -40, 7, 8});
  EXPECT_TENSOR(x.scatter_reduce(1, i, src, "amin"), {2, 4},
                {1, 2, 3, 4, 5, 6, 7, 8});
  EXPECT_TENSOR(x.scatter_reduce(1, i, src, "amin", false), {2, 4},
                {20, 2, 10, 4, 60, 40, 7, 8});
  // Integer means round down (-7 / 2 = -3.5 -> -4); NaN wins amax.
  EXPECT_TENSOR(tensor({-3, 5}).scatter_reduce(0, tensor({0}), tensor({-4}),
                                               "mean"),
                {2}, {-4, 5});
  Tensor nan = tensor({std::nan(""), 1.0});
  Tensor m = tensor({0.0, 2.0}).scatter_reduce(0, tensor({0, 1}), nan, "amax");
  EXPECT_TRUE(std::isnan(m[0].item<double>()));
  EXPECT_EQ(m[1].item<double>(), 2.0);
  // The function form, and x unchanged.
  EXPECT_TENSOR(scatter_reduce(x, -1, i, src, "amax"), {2, 4},
                {20, 2, 30, 4, 60, 50, 7, 8});
  EXPECT_TENSOR(x, {2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
}

TEST(IndexingTest, ScatterReduceProdGradientWithZeros) {
  // d/dself and d/dsrc of a product are the products of the others, also
  // where a factor is 0 (libtorch computes them apart).
  Tensor self = tensor({0.0, 3.0}).requires_grad_();
  Tensor src = tensor({2.0, 0.0, 5.0}).requires_grad_();
  Tensor y = self.scatter_reduce(0, tensor({0, 1, 1}), src, "prod");
  EXPECT_TENSOR(y.detach(), {2}, {0, 0});
  y.sum().backward();
  // self[0] * src[0]: each is the other's gradient. self[1] * src[1] *
  // src[2] with src[1] = 0: only src[1]'s gradient is non-zero.
  EXPECT_TENSOR(self.grad(), {2}, {2, 0});
  EXPECT_TENSOR(src.grad(), {3}, {0, 15, 0});
}

TEST(IndexingTest, ScatterReduceErrors) {
  Tensor x = ones({2, 3});
  EXPECT_EQ(test::errorOf([&] {
              x.scatter_reduce(1, tensor({{0}}), ones({1, 1}), "max");
            }),
            "reduce argument must be either sum, prod, mean, amax or amin, "
            "got max");
  EXPECT_ERROR_CONTAINS(
      x.scatter_reduce(1, tensor({{3}}), ones({1, 1}), "sum"),
      "index 3 is out of bounds for dimension 1 with size 3");
  EXPECT_ERROR_CONTAINS(
      x.scatter_reduce(1, tensor({{-1}}), ones({1, 1}), "amin"),
      "index -1 is out of bounds for dimension 1 with size 3");
  EXPECT_ERROR_CONTAINS(
      x.scatter_reduce(1, tensor({{0}}), ones({1, 1}, kDouble), "sum"),
      "Expected self.dtype to be equal to src.dtype");
  EXPECT_ERROR_CONTAINS(
      x.scatter_reduce(1, tensor({{0.0}}), ones({1, 1}), "sum"),
      "Expected dtype int64 for index");
  EXPECT_ERROR_CONTAINS(
      x.scatter_reduce(1, tensor({0}), ones({1}), "sum"),
      "Index tensor must have the same number of dimensions");
}

TEST(IndexingTest, IndexSelectAndMaskedFill) {
  Tensor x = arange(12, kFloat).view({3, 4});
  EXPECT_TENSOR(x.index_select(0, tensor({2, 0, 2})), {3, 4},
                {8, 9, 10, 11, 0, 1, 2, 3, 8, 9, 10, 11});
  EXPECT_TENSOR(x.index_select(1, tensor({3, 1}).to(kInt)), {3, 2},
                {3, 1, 7, 5, 11, 9});
  EXPECT_TENSOR(x.t().index_select(0, tensor({1})), {1, 3}, {1, 5, 9});
  EXPECT_EQ(test::errorOf([&] { x.index_select(0, tensor({3})); }),
            "index_select(): index 3 is out of bounds for dimension 0 with "
            "size 3");
  EXPECT_TENSOR(tensor(5.0).index_select(0, tensor({0})), {}, {5});
  EXPECT_ERROR_CONTAINS(
      tensor(5.0).index_select(0, tensor({0, 0})),
      "Index to scalar can have only 1 value, got 2 value(s)");
  EXPECT_ERROR_CONTAINS(x.index_select(0, tensor({{0}})),
                        "Index is supposed to be a vector");
  EXPECT_ERROR_CONTAINS(x.index_select(0, tensor({0.0})),
                        "Expected dtype int32 or int64 for index");

  Tensor m = tensor({true, false, false, true});
  EXPECT_TENSOR(x.masked_fill(m, -1), {3, 4},
                {-1, 1, 2, -1, -1, 5, 6, -1, -1, 9, 10, -1});
  EXPECT_TENSOR(tensor({1, 2}).masked_fill(tensor({false, true}), 2.7), {2},
                {1, 2});
  EXPECT_TENSOR(
      tensor({1.0, 2.0}).masked_fill(tensor({true, false}), tensor(5.0)), {2},
      {5, 2});
  Tensor y = x.clone();
  y.masked_fill_(x > 9, 0);
  EXPECT_TENSOR(y, {3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0});
  EXPECT_ERROR_CONTAINS(x.masked_fill(ones({4}), 0),
                        "masked_fill_ only supports boolean masks, but got "
                        "mask with dtype Float");
  EXPECT_ERROR_CONTAINS(x.masked_fill(m, ones({1})),
                        "only supports a 0-dimensional value tensor");
  EXPECT_ERROR_CONTAINS(tensor({1.0}).masked_fill_(m, 0),
                        "masked_fill_: mask of size [4] cannot be broadcast to "
                        "self of size [1]");
}

TEST(IndexingTest, Pad) {
  Tensor x = tensor({{1, 2}, {3, 4}});
  EXPECT_TENSOR(constant_pad_nd(x, {1, 0}), {2, 3}, {0, 1, 2, 0, 3, 4});
  EXPECT_TENSOR(pad(x, {0, 1, 1, 0}, "constant", 9), {3, 3},
                {9, 9, 9, 1, 2, 9, 3, 4, 9});
  EXPECT_TENSOR(pad(x, {-1, 0}), {2, 1}, {2, 4}); // negative padding crops
  Tensor r = arange(3, kFloat).view({1, 3});
  EXPECT_TENSOR(pad(r, {2, 1}, "reflect"), {1, 6}, {2, 1, 0, 1, 2, 1});
  EXPECT_TENSOR(pad(r, {2, 1}, "replicate"), {1, 6}, {0, 0, 0, 1, 2, 2});
  EXPECT_TENSOR(pad(r, {2, 1}, "circular"), {1, 6}, {1, 2, 0, 1, 2, 0});
  EXPECT_TENSOR(pad(x.to(kFloat), {1, 1, 1, 0}, "replicate"), {3, 4},
                {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4});
  EXPECT_ERROR_CONTAINS(pad(x, {1}), "Padding length must be divisible by 2");
  EXPECT_ERROR_CONTAINS(pad(x, {1, 1, 1, 1, 1, 1}),
                        "Padding length should be "
                        "less than or equal to two "
                        "times the input dimension");
  EXPECT_ERROR_CONTAINS(pad(x, {-2, -1}),
                        "The input size 2, plus negative padding -2 and -1 "
                        "resulted in a negative output size");
  EXPECT_ERROR_CONTAINS(pad(r, {3, 0}, "reflect"),
                        "reflect padding: padding (3, 0) at dimension 1 of "
                        "input [1, 3] must be less than the dimension's size");
  EXPECT_ERROR_CONTAINS(pad(r, {1, 0}, "reflect", 1.0),
                        "doesn't take in value argument");
  EXPECT_ERROR_CONTAINS(pad(r, {1, 0}, "wrap"),
                        "Unrecognised padding mode wrap");
}

TEST(IndexingTest, Gradcheck) {
  manual_seed(51);
  EXPECT_TRUE(test::gradcheck(
      [](const std::vector<Tensor> &in) {
        return cat({in[0], in[1]}, 1);
      },
      {test::leaf({2, 3}), test::leaf({2, 2})}));
  EXPECT_TRUE(test::gradcheck(
      [](const std::vector<Tensor> &in) {
        return stack({in[0], in[1]}, 1);
      },
      {test::leaf({2, 3}), test::leaf({2, 3})}));
  EXPECT_TRUE(test::gradcheck(
      [](const std::vector<Tensor> &in) {
        std::vector<Tensor> p = in[0].split(2, 1);
        return p[0] * p[1] + in[0].chunk(2, 1)[0].sin();
      },
      {test::leaf({3, 4})}));
  Tensor idx = tensor({{2, 0, 2}, {1, 1, 0}});
  EXPECT_TRUE(test::gradcheck(
      [&](const std::vector<Tensor> &in) { return in[0].gather(1, idx); },
      {test::leaf({2, 4})}));
  Tensor sidx = tensor({{2, 0}, {1, 3}}); // distinct per row: scatter is exact
  EXPECT_TRUE(test::gradcheck(
      [&](const std::vector<Tensor> &in) {
        return in[0].scatter(1, sidx, in[1]);
      },
      {test::leaf({2, 4}), test::leaf({2, 2})}));
  EXPECT_TRUE(test::gradcheck(
      [&](const std::vector<Tensor> &in) {
        return in[0].scatter_add(1, idx, in[1]);
      },
      {test::leaf({2, 4}), test::leaf({2, 3})}));
  EXPECT_TRUE(test::gradcheck(
      [&](const std::vector<Tensor> &in) {
        return in[0].scatter(1, sidx, 2.0);
      },
      {test::leaf({2, 4})}));
  EXPECT_TRUE(test::gradcheck(
      [](const std::vector<Tensor> &in) {
        return in[0].index_select(1, tensor({3, 0, 3}));
      },
      {test::leaf({2, 4})}));
  Tensor mask = tensor({{true, false, true}, {false, false, true}});
  EXPECT_TRUE(test::gradcheck(
      [&](const std::vector<Tensor> &in) {
        return in[0].masked_fill(mask, in[1]);
      },
      {test::leaf({2, 3}), test::leaf({})}));
  EXPECT_TRUE(test::gradcheck(
      [&](const std::vector<Tensor> &in) {
        Tensor y = in[0].masked_fill(mask.unsqueeze(0), -2.0); // broadcasts
        std::vector<Tensor> rows = y.unbind(1);
        return rows[0] * rows[1];
      },
      {test::leaf({2, 2, 3})}));
  for (const char *mode : {"constant", "reflect", "replicate", "circular"})
    EXPECT_TRUE(test::gradcheck(
        [&](const std::vector<Tensor> &in) {
          return pad(in[0], {2, 1, 1, 2}, mode);
        },
        {test::leaf({2, 3, 3})}))
        << mode;
  EXPECT_TRUE(test::gradcheck(
      [](const std::vector<Tensor> &in) {
        return pad(in[0], {-1, 2});
      },
      {test::leaf({2, 3})}));
}

TEST(IndexingTest, Gradgradcheck) {
  manual_seed(52);
  Tensor idx = tensor({{2, 0, 2}, {1, 1, 0}});
  EXPECT_TRUE(test::gradgradcheck(
      [&](const std::vector<Tensor> &in) {
        Tensor g = in[0].gather(1, idx);
        return g * g;
      },
      {test::leaf({2, 4})}));
  EXPECT_TRUE(test::gradgradcheck(
      [](const std::vector<Tensor> &in) {
        Tensor c = cat({in[0], in[0] * in[0]});
        return c * c;
      },
      {test::leaf({2, 2})}));
  EXPECT_TRUE(test::gradgradcheck(
      [](const std::vector<Tensor> &in) {
        Tensor p = pad(in[0], {1, 1}, "reflect");
        return p * p;
      },
      {test::leaf({2, 3})}));
}

TEST(IndexingTest, InPlaceScatterWithAutograd) {
  Tensor a = test::leaf({2, 3});
  Tensor src = test::leaf({2, 1});
  Tensor y = a * 1;
  y.scatter_(1, tensor({{2}, {0}}), src);
  (y * y).sum().backward();
  Tensor ga = 2 * a.detach().scatter(1, tensor({{2}, {0}}), 0.0);
  EXPECT_TRUE(a.grad().allclose(ga));
  EXPECT_TRUE(src.grad().allclose(2 * src.detach()));
}
