// Uses the installed <tcc/jit.h>: traces nn::Linear + relu, compiles it in
// process and checks the compiled result against eager; and links the
// installed ONNX importer (<tcc/onnx.h>), whose error names a missing file.
#include <tcc/jit.h>
#include <tcc/nn.h>
#include <tcc/onnx.h>

#include <iostream>

struct LinearRelu {
  tcc::nn::Linear fc = tcc::nn::Linear(8, 4);
  tcc::Tensor forward(const tcc::Tensor &x) { return tcc::relu(fc->forward(x)); }
};

int main() {
  tcc::manual_seed(0);
  LinearRelu model;
  tcc::Tensor x = tcc::randn({3, 8});
  tcc::jit::CompileOptions options;
  options.fallback = false; // a failed compile throws instead of running eagerly
  auto compiled = tcc::jit::compile(model, {x}, options);
  tcc::Tensor expected = model.forward(x);
  tcc::Tensor got = compiled({x})[0];
  bool ok = compiled.is_compiled() && got.sizes().equals(expected.sizes()) &&
            tcc::allclose(got, expected, 1e-5, 1e-6) &&
            expected.gt(0).any().item<bool>(); // relu left something nonzero
  std::cout << "compiled=" << compiled.is_compiled()
            << " max|diff|=" << (got - expected).abs().max().item<float>() << "\n";
  try {
    tcc::onnx::import("no-such-model.onnx");
    ok = false;
  } catch (const tcc::onnx::ImportError &e) {
    std::string what = e.what();
    ok = ok && what.find("no-such-model.onnx") != std::string::npos;
    std::cout << "onnx: " << what << "\n";
  }
  return ok ? 0 : 1;
}
