//===- RecurrentTest.cpp - LSTM, GRU, attention against naive references --===//

#include "TestSupport.h"

#include "tcc/nn.h"

#include <cmath>

using namespace tcc;
using tcc::test::values;

namespace {

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

/// Row-major [rows, cols] matrix times vector, plus bias.
std::vector<double> affine(const std::vector<double> &w,
                           const std::vector<double> &b,
                           const std::vector<double> &x, size_t rows) {
  std::vector<double> y(rows, 0);
  size_t cols = x.size();
  for (size_t r = 0; r < rows; ++r) {
    y[r] = b.empty() ? 0 : b[r];
    for (size_t c = 0; c < cols; ++c)
      y[r] += w[r * cols + c] * x[c];
  }
  return y;
}

void copyParameters(const nn::Module &from, nn::Module &to) {
  NoGradGuard g;
  auto src = from.named_parameters();
  for (auto &p : to.named_parameters())
    p.value().copy_(src[p.key()]);
}

} // namespace

TEST(LSTMTest, MatchesAScalarReference) {
  manual_seed(8);
  nn::LSTM lstm(nn::LSTMOptions(3, 2));
  lstm->to(kDouble);
  EXPECT_EQ(lstm->named_parameters().keys(),
            (std::vector<std::string>{"weight_ih_l0", "weight_hh_l0",
                                      "bias_ih_l0", "bias_hh_l0"}));
  Tensor x = randn({4, 1, 3}, kDouble); // seq 4, batch 1
  auto [out, state] = lstm(x);
  auto wih = values(lstm->named_parameters()["weight_ih_l0"]);
  auto whh = values(lstm->named_parameters()["weight_hh_l0"]);
  auto bih = values(lstm->named_parameters()["bias_ih_l0"]);
  auto bhh = values(lstm->named_parameters()["bias_hh_l0"]);
  std::vector<double> h(2, 0), c(2, 0), xs = values(x), outs;
  for (int t = 0; t < 4; ++t) {
    std::vector<double> xt(xs.begin() + 3 * t, xs.begin() + 3 * t + 3);
    auto gi = affine(wih, bih, xt, 8), gh = affine(whh, bhh, h, 8);
    for (int j = 0; j < 2; ++j) {
      double i = sigmoid(gi[j] + gh[j]), f = sigmoid(gi[2 + j] + gh[2 + j]);
      double g = std::tanh(gi[4 + j] + gh[4 + j]);
      double o = sigmoid(gi[6 + j] + gh[6 + j]);
      c[j] = f * c[j] + i * g;
      h[j] = o * std::tanh(c[j]);
    }
    outs.insert(outs.end(), h.begin(), h.end());
  }
  EXPECT_TENSOR(out, {4, 1, 2}, outs, 1e-12);
  EXPECT_TENSOR(std::get<0>(state), {1, 1, 2}, h, 1e-12);
  EXPECT_TENSOR(std::get<1>(state), {1, 1, 2}, c, 1e-12);
}

TEST(LSTMTest, LayersDirectionsBatchFirstAndGradients) {
  nn::LSTM lstm(nn::LSTMOptions(3, 4).num_layers(2).bidirectional(true));
  EXPECT_EQ(lstm->parameters().size(), 16u);
  EXPECT_TRUE(lstm->named_parameters().contains("weight_hh_l1_reverse"));
  EXPECT_EQ(lstm->named_parameters()["weight_ih_l1"].sizes(),
            IntArrayRef({16, 8}));
  Tensor x = randn({5, 2, 3});
  auto [out, state] = lstm(x);
  EXPECT_EQ(out.sizes(), IntArrayRef({5, 2, 8}));
  EXPECT_EQ(std::get<0>(state).sizes(), IntArrayRef({4, 2, 4}));
  // The reverse direction's last output (at t = 0) is its final state.
  EXPECT_TRUE(out[0].narrow(1, 4, 4).allclose(std::get<0>(state)[3]));

  nn::LSTM bf(nn::LSTMOptions(3, 4).batch_first(true));
  nn::LSTM tf(nn::LSTMOptions(3, 4));
  copyParameters(*bf, *tf);
  Tensor seqFirst = randn({5, 2, 3});
  auto [a, sa] = tf(seqFirst);
  auto [b, sb] = bf(seqFirst.transpose(0, 1));
  EXPECT_TRUE(b.transpose(0, 1).allclose(a));
  EXPECT_TRUE(std::get<1>(sb).allclose(std::get<1>(sa)));
  auto [u, su] = tf(seqFirst.select(1, 0)); // unbatched [seq, feature]
  EXPECT_TRUE(u.allclose(a.select(1, 0)));
  EXPECT_EQ(std::get<0>(su).sizes(), IntArrayRef({1, 4}));

  nn::LSTM small(nn::LSTMOptions(2, 2));
  small->to(kDouble);
  Tensor h0 = tcc::test::leaf({1, 1, 2}), c0 = tcc::test::leaf({1, 1, 2});
  EXPECT_TRUE(tcc::test::gradcheck(
      [&](const std::vector<Tensor> &in) {
        auto r = small(in[0], std::make_tuple(in[1], in[2]));
        return std::get<0>(r) + std::get<1>(std::get<1>(r)).sum();
      },
      {tcc::test::leaf({3, 1, 2}), h0, c0}));
  EXPECT_ERROR_CONTAINS(
      tf(randn({5, 2, 4})),
      "input.size(-1) must be equal to input_size. Expected 3, got 4");
  EXPECT_ERROR_CONTAINS(
      tf(seqFirst, std::make_tuple(zeros({1, 3, 4}), zeros({1, 3, 4}))),
      "Expected hidden[0] size (1, 2, 4)");
}

TEST(GRUTest, MatchesAScalarReference) {
  manual_seed(9);
  nn::GRU gru(nn::GRUOptions(2, 3));
  gru->to(kDouble);
  Tensor x = randn({3, 1, 2}, kDouble);
  Tensor h0 = randn({1, 1, 3}, kDouble);
  auto [out, hn] = gru(x, h0);
  auto p = gru->named_parameters();
  auto wih = values(p["weight_ih_l0"]), whh = values(p["weight_hh_l0"]);
  auto bih = values(p["bias_ih_l0"]), bhh = values(p["bias_hh_l0"]);
  std::vector<double> h = values(h0), xs = values(x), outs;
  for (int t = 0; t < 3; ++t) {
    std::vector<double> xt(xs.begin() + 2 * t, xs.begin() + 2 * t + 2);
    auto gi = affine(wih, bih, xt, 9), gh = affine(whh, bhh, h, 9);
    std::vector<double> next(3);
    for (int j = 0; j < 3; ++j) {
      double r = sigmoid(gi[j] + gh[j]), z = sigmoid(gi[3 + j] + gh[3 + j]);
      double n = std::tanh(gi[6 + j] + r * gh[6 + j]);
      next[j] = (1 - z) * n + z * h[j];
    }
    h = next;
    outs.insert(outs.end(), h.begin(), h.end());
  }
  EXPECT_TENSOR(out, {3, 1, 3}, outs, 1e-12);
  EXPECT_TENSOR(hn, {1, 1, 3}, h, 1e-12);
  nn::GRU deep(
      nn::GRUOptions(2, 3).num_layers(3).bidirectional(true).bias(false));
  EXPECT_EQ(deep->parameters().size(), 12u);
  EXPECT_EQ(std::get<1>(deep(randn({4, 5, 2}))).sizes(),
            IntArrayRef({6, 5, 3}));
}

TEST(MultiheadAttentionTest, MatchesAPerHeadReference) {
  manual_seed(10);
  const int64_t E = 4, H = 2, L = 3, S = 2, N = 1, D = E / H;
  nn::MultiheadAttention mha(E, H);
  mha->to(kDouble);
  EXPECT_EQ(mha->named_parameters().keys(),
            (std::vector<std::string>{"in_proj_weight", "in_proj_bias",
                                      "out_proj.weight", "out_proj.bias"}));
  EXPECT_TENSOR(mha->in_proj_bias, {3 * E}, std::vector<double>(12, 0.0));
  {
    NoGradGuard g;
    mha->in_proj_bias.uniform_(-1, 1);
    mha->out_proj->bias.uniform_(-1, 1);
  }
  Tensor q = randn({L, N, E}, kDouble), kv = randn({S, N, E}, kDouble);
  Tensor mask = tensor({{false, true}, {false, false}, {false, false}});
  auto [out, weights] = mha->forward(q, kv, kv, {}, true, mask);

  auto W = values(mha->in_proj_weight), B = values(mha->in_proj_bias);
  auto Wo = values(mha->out_proj->weight), Bo = values(mha->out_proj->bias);
  auto qs = values(q), ks = values(kv);
  auto part = [&](int which) {
    return std::make_pair(std::vector<double>(W.begin() + which * E * E,
                                              W.begin() + (which + 1) * E * E),
                          std::vector<double>(B.begin() + which * E,
                                              B.begin() + (which + 1) * E));
  };
  auto [Wq, Bq] = part(0);
  auto [Wk, Bk] = part(1);
  auto [Wv, Bv] = part(2);
  std::vector<double> expectedOut, expectedW(L * S, 0);
  for (int64_t l = 0; l < L; ++l) {
    std::vector<double> ql =
        affine(Wq, Bq, {qs.begin() + l * E, qs.begin() + (l + 1) * E}, E);
    std::vector<double> concat(E, 0);
    for (int64_t h = 0; h < H; ++h) {
      std::vector<double> scores(S);
      std::vector<std::vector<double>> vals(S);
      for (int64_t s = 0; s < S; ++s) {
        std::vector<double> x(ks.begin() + s * E, ks.begin() + (s + 1) * E);
        auto k = affine(Wk, Bk, x, E);
        vals[s] = affine(Wv, Bv, x, E);
        double dot = 0;
        for (int64_t d = 0; d < D; ++d)
          dot += ql[h * D + d] * k[h * D + d];
        scores[s] = (l == 0 && s == 1) ? -INFINITY : dot / std::sqrt(double(D));
      }
      double mx = std::max(scores[0], scores[1]), z = 0;
      for (double &sc : scores)
        z += (sc = std::exp(sc - mx));
      for (int64_t s = 0; s < S; ++s) {
        double p = scores[s] / z;
        expectedW[l * S + s] += p / H;
        for (int64_t d = 0; d < D; ++d)
          concat[h * D + d] += p * vals[s][h * D + d];
      }
    }
    auto o = affine(Wo, Bo, concat, E);
    expectedOut.insert(expectedOut.end(), o.begin(), o.end());
  }
  EXPECT_TENSOR(out, {L, N, E}, expectedOut, 1e-12);
  EXPECT_TENSOR(weights, {N, L, S}, expectedW, 1e-12);
  EXPECT_FALSE(std::get<1>(mha->forward(q, kv, kv, {}, false)).defined());
  Tensor padded = std::get<1>(mha(q, kv, kv, tensor({{false, true}})));
  EXPECT_TENSOR(padded.select(2, 1), {N, L}, {0, 0, 0});
  EXPECT_ERROR_CONTAINS(nn::MultiheadAttention(5, 2), "divisible by num_heads");
}

TEST(TransformerEncoderLayerTest, IsPostNormAttentionThenFeedForward) {
  manual_seed(12);
  nn::TransformerEncoderLayer layer(
      nn::TransformerEncoderLayerOptions(4, 2).dim_feedforward(8).dropout(0.1));
  EXPECT_EQ(
      layer->named_children().keys(),
      (std::vector<std::string>{"self_attn", "linear1", "dropout", "linear2",
                                "norm1", "norm2", "dropout1", "dropout2"}));
  layer->eval(); // dropout off: the output is a function of the parameters
  Tensor src = randn({3, 2, 4});
  Tensor attended = std::get<0>(layer->self_attn(src, src, src));
  Tensor x =
      layer_norm(src + attended, {4}, layer->norm1->weight, layer->norm1->bias);
  Tensor ff = layer->linear2(layer->linear1(x).relu());
  Tensor expected =
      layer_norm(x + ff, {4}, layer->norm2->weight, layer->norm2->bias);
  EXPECT_TRUE(layer(src).allclose(expected, 1e-5, 1e-6));
  nn::TransformerEncoderLayer gelu(
      nn::TransformerEncoderLayerOptions(4, 1).activation(kGELU));
  EXPECT_EQ(gelu(src).sizes(), src.sizes());
  layer->train();
  layer(src).sum().backward();
  EXPECT_TRUE(layer->self_attn->in_proj_weight.grad().defined());
}
