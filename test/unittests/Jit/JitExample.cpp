//===- JitExample.cpp - Traced example programs for the lit tests ---------===//
//
//   tcc-jit-example NAME OUT [PREFIX]
//
// Traces the example program NAME (seeded, so the weights are the same on
// every run) and writes its IR to OUT: MLIR text, or bytecode when OUT ends
// in .mlirbc; '-' prints the text. With PREFIX it also writes each example
// input to PREFIX.<input name>.npy and each eager output to
// PREFIX.<output name>.npy, so that `tcc run-ir` can be compared with eager
// execution byte for byte.
//
//===----------------------------------------------------------------------===//

#include "TestModels.h"

#include "tcc/jit.h"

#include <cstdio>
#include <functional>
#include <iostream>
#include <map>

using namespace tcc;
using namespace tcc::testmodels;

namespace {

struct Example {
  /// Traces the program (its example inputs made inside) and returns the
  /// graph, the inputs and the eager outputs.
  std::function<jit::TracedGraph(std::vector<Tensor> &, std::vector<Tensor> &)>
      run;
  const char *summary;
};

template <class M>
jit::TracedGraph traceModel(M &model, std::vector<Tensor> inputs,
                            std::vector<Tensor> &in, std::vector<Tensor> &out,
                            jit::TraceOptions options = {}) {
  in = inputs;
  out = jit::detail::callModel(model, inputs);
  return jit::trace(model, inputs, options);
}

const std::map<std::string, Example> &examples() {
  static const std::map<std::string, Example> table = {
      {"add-relu",
       {[](auto &in, auto &out) {
          auto f = [](const Tensor &x, const Tensor &y) {
            return (x + y).relu();
          };
          return traceModel(f, {randn({2, 3}), randn({3})}, in, out);
        },
        "relu(x + y) with broadcasting"}},
      {"promote",
       {[](auto &in, auto &out) {
          auto f = [](const Tensor &i, const Tensor &x) {
            return (i * 2.5 + x) > x.to(kDouble);
          };
          return traceModel(f, {randint(-3, 3, {4}).to(kInt), randn({4})}, in,
                            out);
        },
        "type promotion: int * float scalar + float, compared with a double"}},
      {"inplace",
       {[](auto &in, auto &out) {
          auto f = [](const Tensor &x) {
            Tensor y = x.clone();
            y.mul_(2).add_(1).relu_();
            return y;
          };
          return traceModel(f, {randn({3})}, in, out);
        },
        "in-place ops recorded in value form"}},
      {"matvec",
       {[](auto &in, auto &out) {
          auto f = [](const Tensor &a, const Tensor &v) { return a.matmul(v); };
          return traceModel(f, {randn({3, 4}), randn({4})}, in, out);
        },
        "matrix @ vector through tcc.matmul and reshapes"}},
      {"named",
       {[](auto &in, auto &out) {
          auto f = [](const Tensor &x) {
            return std::make_tuple(x.softmax(-1), x.argmax(-1));
          };
          jit::TraceOptions o;
          o.input_names = {"logits"};
          o.output_names = {"probs", "label"};
          return traceModel(f, {randn({2, 5})}, in, out, o);
        },
        "user-given input and output names, two outputs"}},
      {"mlp",
       {[](auto &in, auto &out) {
          static Mlp m;
          return traceModel(m, {randn({4, 1, 8, 8})}, in, out);
        },
        "a three-layer MLP"}},
      {"digits-cnn",
       {[](auto &in, auto &out) {
          static DigitsCnn m;
          return traceModel(m, {randn({2, 1, 8, 8})}, in, out);
        },
        "conv, batch norm, pooling and a linear classifier on 8x8 images"}},
      {"resnet-block",
       {[](auto &in, auto &out) {
          static ResBlock m;
          return traceModel(m, {randn({1, 8, 6, 6})}, in, out);
        },
        "a residual block with batch norm"}},
      {"encoder-layer",
       {[](auto &in, auto &out) {
          static EncoderLayer m;
          return traceModel(m, {randn({2, 5, 16}), causalMask(5)}, in, out);
        },
        "a transformer encoder layer (attention written out)"}},
  };
  return table;
}

int usage(FILE *to) {
  std::fprintf(to, "usage: tcc-jit-example NAME OUT [PREFIX]\n\nexamples:\n");
  for (const auto &[name, e] : examples())
    std::fprintf(to, "  %-14s %s\n", name.c_str(), e.summary);
  return to == stdout ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 2 && std::string(argv[1]) == "--help")
    return usage(stdout);
  if (argc < 3 || argc > 4)
    return usage(stderr);
  auto it = examples().find(argv[1]);
  if (it == examples().end()) {
    std::fprintf(stderr, "tcc-jit-example: unknown example '%s'\n", argv[1]);
    return usage(stderr);
  }
  try {
    manual_seed(42);
    std::vector<Tensor> inputs, outputs;
    jit::TracedGraph graph = it->second.run(inputs, outputs);
    std::string out = argv[2];
    if (out == "-")
      std::cout << graph.str();
    else if (out.size() > 7 && out.substr(out.size() - 7) == ".mlirbc")
      graph.save_bytecode(out);
    else
      graph.save(out);
    if (argc == 4) {
      std::string prefix = argv[3];
      jit::Signature sig = graph.signature();
      for (size_t i = 0; i < inputs.size(); ++i)
        save_npy(prefix + "." + sig.inputs[i].name + ".npy", inputs[i]);
      for (size_t i = 0; i < outputs.size(); ++i)
        save_npy(prefix + "." + sig.outputs[i].name + ".npy", outputs[i]);
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "tcc-jit-example: %s\n", e.what());
    return 1;
  }
  return 0;
}
