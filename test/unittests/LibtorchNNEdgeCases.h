//===- LibtorchNNEdgeCases.h - libtorch's NN ops at the edges ---*- C++ -*-===//
//
// The cases of Frontend/LibtorchNNEdgeValues.inc (recorded from Debian's
// PyTorch 1.13 by Frontend/record_libtorch_edges.py): normalization,
// pooling, losses, matmul and convolution, each on ordinary f32 operands
// with one edge value (NaN, +-inf, -0, a subnormal, the largest finite
// float) put at one place, or an operand made all of edge values. The
// eager test (LibtorchEdgeValuesTest) and the compiled and interpreted
// test (Conformance/EdgeValueConformanceTest) hold tcc to the same
// records with the same rule, nnAgrees.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_UNITTESTS_LIBTORCHNNEDGECASES_H
#define TCC_TEST_UNITTESTS_LIBTORCHNNEDGECASES_H

#include "tcc/tcc.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace tcc {
namespace test {

struct NNEdgeCase {
  std::string op, label;
  std::vector<std::vector<int64_t>> shapes;
  std::vector<std::vector<float>> operands;
  std::vector<float> result;
};

/// The floats whose bit patterns `hex` lists.
inline std::vector<float> decodeF32(const std::string &hex) {
  std::vector<float> out;
  std::istringstream in(hex);
  std::string word;
  while (in >> word) {
    uint32_t bits = uint32_t(std::stoul(word, nullptr, 16));
    float f;
    std::memcpy(&f, &bits, sizeof f);
    out.push_back(f);
  }
  return out;
}

inline std::vector<std::string> splitOn(const std::string &text, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, sep))
    parts.push_back(part);
  return parts;
}

/// The recorded text, as static data: a function of 494 calls builds
/// slowly under the sanitizers (GCC's ASan instruments every temporary).
struct NNEdgeRecord {
  const char *op, *label, *shapes, *operands, *result;
};
inline constexpr NNEdgeRecord kNNEdgeRecords[] = {
#define TCC_EDGE_NN(op, label, shapes, operands, result)                       \
  {#op, label, shapes, operands, result},
#include "Frontend/LibtorchNNEdgeValues.inc"
#undef TCC_EDGE_NN
};

inline std::vector<NNEdgeCase> nnEdgeCases() {
  std::vector<NNEdgeCase> all;
  for (const NNEdgeRecord &r : kNNEdgeRecords) {
    NNEdgeCase c{r.op, r.label, {}, {}, decodeF32(r.result)};
    for (const std::string &shape : splitOn(r.shapes, ';')) {
      std::vector<int64_t> dims;
      for (const std::string &d : splitOn(shape, 'x'))
        dims.push_back(std::stoll(d));
      c.shapes.push_back(dims);
    }
    for (const std::string &operand : splitOn(r.operands, ';'))
      c.operands.push_back(decodeF32(operand));
    all.push_back(c);
  }
  return all;
}

/// Whether a zero result of `c` may have either sign: in a sum of products
/// of subnormals (matmul, linear, convolution) the exact result is a tiny
/// nonzero value, and whether it rounds to +0 or -0 depends on whether each
/// product is rounded first (libtorch's kernels, tcc's portable ones) or
/// fused into the sum (tcc's FMA kernels). Both are IEEE evaluations.
inline bool zeroSignIsFree(const NNEdgeCase &c) {
  static const char *const sumsOfProducts[] = {
      "linear", "mm", "mv", "bmm", "conv1d", "conv2d", "conv2d_stride2"};
  bool sums = false;
  for (const char *op : sumsOfProducts)
    sums |= c.op == op;
  if (!sums)
    return false;
  for (const std::vector<float> &operand : c.operands)
    for (float x : operand)
      if (x != 0 && std::fabs(x) < 0x1p-126f)
        return true;
  return false;
}

/// Whether tcc's `got` is libtorch's `want` for these ops: any NaN matches
/// any NaN, infinities exactly, zeros with their sign (either sign where
/// `zeroSignFree`), other values within 1e-5 relative (the sums run in
/// other orders; the norms and losses use approximations) plus the
/// smallest normal float (a subnormal result may flush to zero).
inline bool nnAgrees(float got, float want, bool zeroSignFree = false) {
  if (std::isnan(want) || std::isnan(got))
    return std::isnan(want) && std::isnan(got);
  if (want == 0 && got == 0)
    return zeroSignFree || std::signbit(got) == std::signbit(want);
  if (std::isinf(want) || std::isinf(got))
    return got == want;
  return std::fabs(double(got) - want) <= 0x1p-126 + 1e-5 * std::fabs(want);
}

using NNEdgeOp = std::function<Tensor(const std::vector<Tensor> &)>;

/// tcc's eager op for each op the recorder uses, with its arguments
/// (record_libtorch_edges.py's NN table). Class targets come as floats.
inline const std::map<std::string, NNEdgeOp> &nnEdgeOps() {
  using V = std::vector<Tensor>;
  static const std::map<std::string, NNEdgeOp> table = {
      {"linear", [](const V &x) { return linear(x[0], x[1], x[2]); }},
      {"mm", [](const V &x) { return mm(x[0], x[1]); }},
      {"mv", [](const V &x) { return x[0].mv(x[1]); }},
      {"bmm", [](const V &x) { return bmm(x[0], x[1]); }},
      {"conv1d", [](const V &x) { return conv1d(x[0], x[1], x[2], 1, 1); }},
      {"conv2d", [](const V &x) { return conv2d(x[0], x[1], x[2], 1, 1); }},
      {"conv2d_stride2",
       [](const V &x) { return conv2d(x[0], x[1], std::nullopt, 2); }},
      {"max_pool2d", [](const V &x) { return max_pool2d(x[0], 2); }},
      {"max_pool2d_pad", [](const V &x) { return max_pool2d(x[0], 3, 1, 1); }},
      {"avg_pool2d", [](const V &x) { return avg_pool2d(x[0], 2); }},
      {"avg_pool2d_pad", [](const V &x) { return avg_pool2d(x[0], 3, 1, 1); }},
      {"avg_pool2d_pad_exclude",
       [](const V &x) { return avg_pool2d(x[0], 3, 1, 1, false, false); }},
      {"adaptive_avg_pool2d",
       [](const V &x) {
         return adaptive_avg_pool2d(x[0], {2, 3});
       }},
      {"batch_norm_eval",
       [](const V &x) {
         return batch_norm(x[0], x[3], x[4], x[1], x[2], false, 0.1, 1e-5);
       }},
      {"batch_norm_train",
       [](const V &x) {
         return batch_norm(x[0], x[1], x[2], std::nullopt, std::nullopt, true,
                           0.1, 1e-5);
       }},
      {"layer_norm",
       [](const V &x) { return layer_norm(x[0], {5}, x[1], x[2]); }},
      {"mse_loss", [](const V &x) { return mse_loss(x[0], x[1]); }},
      {"mse_loss_none",
       [](const V &x) { return mse_loss(x[0], x[1], Reduction::None); }},
      {"l1_loss", [](const V &x) { return l1_loss(x[0], x[1]); }},
      {"smooth_l1_loss",
       [](const V &x) { return smooth_l1_loss(x[0], x[1], Reduction::None); }},
      {"binary_cross_entropy",
       [](const V &x) {
         return binary_cross_entropy(x[0], x[1], std::nullopt, Reduction::None);
       }},
      {"binary_cross_entropy_with_logits",
       [](const V &x) {
         return binary_cross_entropy_with_logits(x[0], x[1], std::nullopt,
                                                 std::nullopt, Reduction::None);
       }},
      {"nll_loss", [](const V &x) { return nll_loss(x[0], x[1].to(kLong)); }},
      {"cross_entropy",
       [](const V &x) { return cross_entropy_loss(x[0], x[1].to(kLong)); }},
      {"cross_entropy_none",
       [](const V &x) {
         return cross_entropy_loss(x[0], x[1].to(kLong), std::nullopt,
                                   Reduction::None);
       }},
  };
  return table;
}

} // namespace test
} // namespace tcc

#endif // TCC_TEST_UNITTESTS_LIBTORCHNNEDGECASES_H
