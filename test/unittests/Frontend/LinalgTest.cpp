//===- LinalgTest.cpp - mm, bmm, addmm, matmul ----------------------------===//

#include "TestSupport.h"

using namespace tcc;

namespace {

/// Naive reference product of [n, k] and [k, m] in double.
std::vector<double> naiveMm(const Tensor &a, const Tensor &b) {
  std::vector<double> x = test::values(a), y = test::values(b);
  int64_t n = a.size(0), k = a.size(1), m = b.size(1);
  std::vector<double> out(size_t(n * m), 0.0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < m; ++j)
      for (int64_t p = 0; p < k; ++p)
        out[size_t(i * m + j)] += x[size_t(i * k + p)] * y[size_t(p * m + j)];
  return out;
}

TEST(LinalgTest, MmHandComputed) {
  Tensor a = tensor({{1.0, 2.0}, {3.0, 4.0}});
  Tensor b = tensor({{5.0, 6.0}, {7.0, 8.0}});
  EXPECT_TENSOR(a.mm(b), {2, 2}, {19, 22, 43, 50});
  EXPECT_TENSOR(a.t().mm(b), {2, 2}, {26, 30, 38, 44});
  EXPECT_TENSOR(tensor({{1, 2}}).mm(tensor({{3}, {4}})), {1, 1}, {11});
  EXPECT_TENSOR(a.to(kDouble).mm(b.to(kDouble)), {2, 2}, {19, 22, 43, 50});
  EXPECT_TENSOR(a.to(kHalf).mm(b.to(kHalf)), {2, 2}, {19, 22, 43, 50});
}

TEST(LinalgTest, MmMatchesNaiveReference) {
  manual_seed(3);
  for (auto dt : {kFloat, kDouble}) {
    Tensor a = randn({37, 300}, dt), b = randn({300, 530}, dt);
    double tol = dt == kFloat ? 1e-4 : 1e-10;
    EXPECT_TENSOR(a.mm(b), {37, 530}, naiveMm(a, b), tol);
  }
}

TEST(LinalgTest, BmmAddmmDotMv) {
  Tensor a = arange(8, kFloat).view({2, 2, 2});
  Tensor b = ones({2, 2, 3});
  EXPECT_TENSOR(a.bmm(b), {2, 2, 3}, {1, 1, 1, 5, 5, 5, 9, 9, 9, 13, 13, 13});
  Tensor bias = tensor({1.0, 2.0});
  Tensor m = tensor({{1.0, 2.0}, {3.0, 4.0}});
  EXPECT_TENSOR(addmm(bias, m, m), {2, 2}, {8, 12, 16, 24});
  EXPECT_TENSOR(addmm(bias, m, m, 0.5, 2), {2, 2}, {14.5, 21, 30.5, 45});
  EXPECT_TENSOR(tensor({1.0, 2.0, 3.0}).dot(tensor({4.0, 5.0, 6.0})), {}, {32});
  EXPECT_TENSOR(m.mv(tensor({1.0, 1.0})), {2}, {3, 7});
}

TEST(LinalgTest, MatmulShapes) {
  Tensor v = ones({3}), m = ones({3, 4}), b3 = ones({2, 5, 3}), b4 = ones({7, 1, 4, 2});
  EXPECT_EQ(matmul(v, v).dim(), 0);
  EXPECT_EQ(matmul(v, m).sizes().vec(), std::vector<int64_t>({4}));
  EXPECT_EQ(matmul(m.t(), v).sizes().vec(), std::vector<int64_t>({4}));
  EXPECT_EQ(matmul(b3, m).sizes().vec(), std::vector<int64_t>({2, 5, 4}));
  EXPECT_EQ(matmul(b3, v).sizes().vec(), std::vector<int64_t>({2, 5}));
  EXPECT_EQ(matmul(v, ones({2, 3, 4})).sizes().vec(), std::vector<int64_t>({2, 4}));
  EXPECT_EQ(matmul(ones({2, 1, 5, 3}), ones({3, 3, 4})).sizes().vec(),
            std::vector<int64_t>({2, 3, 5, 4}));
  EXPECT_EQ(matmul(ones({5, 3}), b4.transpose(-1, -2).transpose(-1, -2).narrow(2, 0, 3))
                .sizes().vec(), std::vector<int64_t>({7, 1, 5, 2}));
  Tensor a = arange(12, kFloat).view({2, 2, 3});
  Tensor w = arange(6, kFloat).view({3, 2});
  EXPECT_TENSOR(matmul(a, w), {2, 2, 2}, {10, 13, 28, 40, 46, 67, 64, 94});
  EXPECT_TENSOR(matmul(a, w.unsqueeze(0).expand({2, 3, 2})), {2, 2, 2}, {10, 13, 28, 40, 46, 67, 64, 94});
}

TEST(LinalgTest, Errors) {
  EXPECT_EQ(test::errorOf([] { ones({2, 3}).mm(ones({4, 5})); }),
            "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
  EXPECT_EQ(test::errorOf([] { ones({2, 3}).mm(ones({3, 5}, kDouble)); }),
            "expected mat1 and mat2 to have the same dtype, but got: float != double");
  EXPECT_ERROR_CONTAINS(matmul(ones({2, 3}), ones({2, 3})), "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)");
  EXPECT_ERROR_CONTAINS(ones({2, 2, 3}).bmm(ones({2, 4, 3})), "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4].");
  EXPECT_ERROR_CONTAINS(ones({3}).dot(ones({4})), "inconsistent tensor size");
  EXPECT_ERROR_CONTAINS(matmul(ones({3}), ones({})), "both arguments to matmul need to be at least 1D");
  EXPECT_ERROR_CONTAINS(matmul(ones({2, 2, 3}), ones({4, 3, 2})), "The size of tensor a (2) must match the size of tensor b (4)");
}

} // namespace
