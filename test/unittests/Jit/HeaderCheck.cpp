//===- HeaderCheck.cpp - <tcc/jit.h> compiles without MLIR ----------------===//
//
// Built with only the frontend's and the bridge's include folders on the
// path (no LLVM or MLIR): if <tcc/jit.h> pulled in an MLIR header, the
// build would fail here. The trace template is instantiated for the shapes
// of programs users write.

#include <tcc/jit.h>

#include <memory>

namespace {

struct Module {
  tcc::Tensor forward(const tcc::Tensor &x) { return x; }
};

[[maybe_unused]] void instantiate(const tcc::Tensor &x) {
  auto callable = [](const tcc::Tensor &a, const tcc::Tensor &b) {
    return std::make_tuple(a, b);
  };
  tcc::jit::trace(callable, {x, x}).save("a.ir");
  auto module = std::make_shared<Module>();
  tcc::jit::trace(module, {x}).save_bytecode("b.mlirbc");
  Module plain;
  tcc::jit::Interpreter(tcc::jit::trace(plain, {x})).run({x});
  // compile() holds modules by value, pointer or reference.
  tcc::jit::compile(plain, {x})({x});
  tcc::jit::compile(module, {x}).forward({x});
  tcc::jit::compile(Module(), {x}).is_compiled();
}

} // namespace
