//===- EmbeddingTest.cpp - embedding, one_hot -----------------------------===//

#include "TestSupport.h"

using namespace tcc;

TEST(EmbeddingTest, LooksUpRows) {
  Tensor w = arange(12, kFloat).view({4, 3});
  Tensor idx = tensor({{0, 2}, {3, 3}});
  EXPECT_TENSOR(embedding(w, idx), {2, 2, 3},
                {0, 1, 2, 6, 7, 8, 9, 10, 11, 9, 10, 11});
  EXPECT_TENSOR(embedding(w, tensor({1}).to(kInt)), {1, 3}, {3, 4, 5});
  EXPECT_TENSOR(embedding(w, tensor(2)), {3}, {6, 7, 8});
}

TEST(EmbeddingTest, WeightGradient) {
  Tensor w = test::leaf({4, 2});
  Tensor idx = tensor({0, 2, 2, 3, 2});
  (embedding(w, idx) * 2).sum().backward();
  // Each row's gradient is 2 per occurrence.
  EXPECT_TENSOR(w.grad(), {4, 2}, {2, 2, 0, 0, 6, 6, 2, 2});
  // The padding row gets none; frequency scaling divides by the count.
  Tensor w2 = test::leaf({4, 2});
  embedding(w2, idx, /*padding_idx=*/2).sum().backward();
  EXPECT_TENSOR(w2.grad(), {4, 2}, {1, 1, 0, 0, 0, 0, 1, 1});
  Tensor w3 = test::leaf({4, 2});
  embedding(w3, idx, -1, /*scale_grad_by_freq=*/true).sum().backward();
  EXPECT_TENSOR(w3.grad(), {4, 2}, {1, 1, 0, 0, 1, 1, 1, 1});
  EXPECT_EQ(embedding(w, idx).grad_fn()->name(), "EmbeddingBackward0");
}

TEST(EmbeddingTest, Gradcheck) {
  manual_seed(41);
  Tensor idx = tensor({{1, 0, 1}, {4, 2, 1}});
  EXPECT_TRUE(test::gradcheck(
      [&](const std::vector<Tensor> &in) { return embedding(in[0], idx); },
      {test::leaf({5, 3})}));
  EXPECT_TRUE(test::gradgradcheck(
      [&](const std::vector<Tensor> &in) {
        Tensor e = embedding(in[0], idx);
        return e * e;
      },
      {test::leaf({5, 3})}));
}

TEST(EmbeddingTest, Errors) {
  Tensor w = ones({4, 3});
  EXPECT_ERROR_CONTAINS(embedding(w, tensor({4})),
                        "embedding(): index 4 is out of range for a table of 4 "
                        "rows");
  EXPECT_ERROR_CONTAINS(embedding(w, tensor({-1})), "index -1 is out of range");
  EXPECT_ERROR_CONTAINS(embedding(w, tensor({1.0})),
                        "expected indices of dtype Long or Int, but got Float");
  EXPECT_ERROR_CONTAINS(embedding(ones({4}), tensor({1})),
                        "'weight' must be 2-D");
  EXPECT_ERROR_CONTAINS(embedding(w, tensor({1}), 4), "padding_idx must be -1");
}

TEST(EmbeddingTest, OneHot) {
  EXPECT_TENSOR(one_hot(tensor({0, 2, 1})), {3, 3},
                {1, 0, 0, 0, 0, 1, 0, 1, 0});
  Tensor h = one_hot(tensor({{1}, {0}}), 4);
  EXPECT_TENSOR(h, {2, 1, 4}, {0, 1, 0, 0, 1, 0, 0, 0});
  EXPECT_EQ(h.dtype(), kLong);
  EXPECT_EQ(one_hot(zeros({0}, kLong), 3).sizes().vec(),
            std::vector<int64_t>({0, 3}));
  EXPECT_EQ(test::errorOf([] { one_hot(tensor({-1})); }),
            "Class values must be non-negative.");
  EXPECT_EQ(test::errorOf([] { one_hot(tensor({3}), 3); }),
            "Class values must be smaller than num_classes.");
  EXPECT_EQ(test::errorOf([] { one_hot(zeros({0}, kLong)); }),
            "Can not infer total number of classes from empty tensor.");
  EXPECT_ERROR_CONTAINS(one_hot(tensor({1.0})), "one_hot is only applicable to "
                                                "index tensor");
}
