//===- EdgeValueConformanceTest.cpp - NN ops at the edges: all three ------===//
//
// The eager library gives libtorch 1.13's answers on the NN edge cases
// (LibtorchNNEdgeCases.h: normalization, pooling, losses, matmul,
// convolution with NaN, +-inf, -0, subnormals, FLT_MAX in their operands;
// LibtorchEdgeValuesTest). Here each op's cases are traced as one program,
// run by the reference interpreter and compiled at -O0 and -O2, and every
// result must agree with the eager one by the same rule (nnAgrees): NaN
// where eager has NaN, infinities and zeros with their signs. The losses
// and training-mode batch_norm do not trace (training graphs are eager
// only), which EagerOnlyOpsStillRefuseToTrace checks, so that they join
// here once they do.
//
//===----------------------------------------------------------------------===//

#include "../LibtorchNNEdgeCases.h"
#include "ConformanceSupport.h"

#include "tcc/jit.h"

#include <gtest/gtest.h>

#include <set>

namespace tcc {
namespace conformance {
namespace {

using test::NNEdgeCase;

/// The recorded cases of each op, in the recording's order.
std::map<std::string, std::vector<NNEdgeCase>> casesByOp() {
  std::map<std::string, std::vector<NNEdgeCase>> byOp;
  for (const NNEdgeCase &c : test::nnEdgeCases())
    byOp[c.op].push_back(c);
  return byOp;
}

/// The recorded ops that jit::trace refuses: losses and batch_norm with
/// batch statistics, parts of training graphs.
const std::set<std::string> kEagerOnly = {"batch_norm_train",
                                          "binary_cross_entropy",
                                          "binary_cross_entropy_with_logits",
                                          "cross_entropy",
                                          "cross_entropy_none",
                                          "l1_loss",
                                          "mse_loss",
                                          "mse_loss_none",
                                          "nll_loss",
                                          "smooth_l1_loss"};

std::vector<std::string> tracedOpNames() {
  std::vector<std::string> names;
  for (const auto &[op, cases] : casesByOp())
    if (!kEagerOnly.count(op))
      names.push_back(op);
  return names;
}

Tensor operandTensor(const NNEdgeCase &c, size_t i) {
  Tensor t =
      empty({int64_t(c.operands[i].size())}, TensorOptions().dtype(kFloat));
  std::copy(c.operands[i].begin(), c.operands[i].end(), t.data_ptr<float>());
  return t.reshape(c.shapes[i]);
}

/// `got` against eager's `want`, element by element; "" or the failures.
std::string compare(const std::string &who, const NNEdgeCase &c,
                    const Tensor &got, const Tensor &want) {
  if (got.sizes() != want.sizes() || got.scalar_type() != want.scalar_type())
    return who + " " + c.label + ": shape or dtype differs from eager's\n";
  Tensor g = got.contiguous().to(kFloat), w = want.contiguous().to(kFloat);
  const float *gp = g.data_ptr<float>(), *wp = w.data_ptr<float>();
  bool zeroSignFree = test::zeroSignIsFree(c);
  std::string failures;
  for (int64_t i = 0; i < g.numel(); ++i)
    if (!test::nnAgrees(gp[i], wp[i], zeroSignFree))
      failures += who + " " + c.label + ", result " + std::to_string(i) + ": " +
                  std::to_string(gp[i]) + ", eager " + std::to_string(wp[i]) +
                  "\n";
  return failures;
}

std::vector<Tensor> operandsOf(const NNEdgeCase &c) {
  std::vector<Tensor> operands;
  for (size_t i = 0; i < c.operands.size(); ++i)
    operands.push_back(operandTensor(c, i));
  return operands;
}

TEST(EdgeValueConformanceCoverage, EagerOnlyOpsStillRefuseToTrace) {
  for (const std::string &name : kEagerOnly) {
    auto cases = casesByOp();
    ASSERT_TRUE(cases.count(name)) << name << " is not recorded";
    const test::NNEdgeOp &op = test::nnEdgeOps().at(name);
    std::function<Tensor(const std::vector<Tensor> &)> program = op;
    jit::TraceOptions options;
    options.print_warnings = false;
    EXPECT_THROW(
        jit::trace(program, operandsOf(cases.at(name).front()), options),
        jit::JitError)
        << name << " traces now: check it here (drop it from kEagerOnly)";
  }
}

class EdgeValueConformance : public ::testing::TestWithParam<std::string> {};

TEST_P(EdgeValueConformance, InterpretedAndCompiledAgreeWithEager) {
  const std::vector<NNEdgeCase> cases = casesByOp().at(GetParam());
  const test::NNEdgeOp &op = test::nnEdgeOps().at(GetParam());
  // One program holds every case of the op: its operands in order, one
  // result per case.
  std::vector<size_t> first;
  std::vector<Tensor> inputs;
  for (const NNEdgeCase &c : cases) {
    first.push_back(inputs.size());
    for (const Tensor &t : operandsOf(c))
      inputs.push_back(t);
  }
  std::function<std::vector<Tensor>(const std::vector<Tensor> &)> program =
      [&](const std::vector<Tensor> &in) {
        std::vector<Tensor> out;
        for (size_t k = 0; k < cases.size(); ++k)
          out.push_back(op({in.begin() + first[k],
                            in.begin() + first[k] + cases[k].operands.size()}));
        return out;
      };
  std::vector<Tensor> eager = program(inputs);
  jit::TraceOptions options;
  options.print_warnings = false;
  options.strict = true;
  std::string ir = jit::trace(program, inputs, options).str();

  std::vector<Tensor> interpreted;
  ASSERT_EQ(runInterpreter(ir, inputs, &interpreted), "") << ir;
  ASSERT_EQ(interpreted.size(), cases.size());
  std::string failures;
  for (size_t k = 0; k < cases.size(); ++k)
    failures += compare("interpreter", cases[k], interpreted[k], eager[k]);
  for (int optLevel : {0, 2}) {
    std::string level = "-O" + std::to_string(optLevel);
    std::vector<uint8_t> bytes;
    ASSERT_EQ(compileIR(ir, optLevel, &bytes), "") << level << "\n" << ir;
    std::vector<Tensor> compiled;
    ASSERT_EQ(runArtifact(bytes, inputs, &compiled), "") << level;
    ASSERT_EQ(compiled.size(), cases.size());
    for (size_t k = 0; k < cases.size(); ++k)
      failures += compare("compiled " + level, cases[k], compiled[k], eager[k]);
  }
  EXPECT_EQ(failures, "");
}

INSTANTIATE_TEST_SUITE_P(NNOps, EdgeValueConformance,
                         ::testing::ValuesIn(tracedOpNames()),
                         [](const ::testing::TestParamInfo<std::string> &info) {
                           return info.param;
                         });

} // namespace
} // namespace conformance
} // namespace tcc
