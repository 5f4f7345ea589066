//===- InterpreterRegistry.h - tcc op -> eager call, per op ---------------===//
//
// Every tcc op has an interpreter mapping: a function that runs it with
// eager ops. The mappings are grouped by the eager family of the op they
// call, as the frontend groups its ops (lib/Interpreter/Ops/<Family>.cpp:
// Copy, Views, Unary, Binary, Reduction, Linalg, NN, Quantization, plus
// Constant, which calls no eager op), and each family registers them from
// register<Family>Interpreters, called once from InterpreterRegistry.cpp
// (no static self-registration).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_JIT_LIB_INTERPRETERREGISTRY_H
#define TCC_JIT_LIB_INTERPRETERREGISTRY_H

#include "tcc/tcc.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tcc {
namespace jit {

/// Values the interpreter has computed so far, by SSA value.
class InterpretContext {
public:
  virtual ~InterpretContext() = default;
  /// The tensor of `v`; an undefined tensor for a null value (an absent
  /// optional operand).
  virtual Tensor operator()(mlir::Value v) const = 0;
  std::vector<Tensor> operator()(mlir::ValueRange values) const {
    std::vector<Tensor> out;
    for (mlir::Value v : values)
      out.push_back((*this)(v));
    return out;
  }
};

/// Runs one tcc op with eager ops; returns its result.
using InterpretFn =
    std::function<Tensor(mlir::Operation *, const InterpretContext &)>;

class InterpreterRegistry {
public:
  /// The tcc op OpTy runs through `fn(OpTy, values)`.
  template <class OpTy, class F> void interpret(F fn) {
    add(OpTy::getOperationName(),
        [fn](mlir::Operation *op, const InterpretContext &values) {
          return fn(llvm::cast<OpTy>(op), values);
        });
  }

  /// The mapping of the tcc op named `tccOp`, or null.
  const InterpretFn *find(std::string_view tccOp) const;
  const std::map<std::string, InterpretFn, std::less<>> &interpreters() const {
    return interpreters_;
  }

private:
  void add(llvm::StringRef tccOp, InterpretFn fn);

  std::map<std::string, InterpretFn, std::less<>> interpreters_;
};

/// The table, built on first use from every family's register function.
const InterpreterRegistry &interpreterRegistry();

// One per op family (lib/Interpreter/Ops/<Family>.cpp).
void registerConstantInterpreters(InterpreterRegistry &registry);
void registerCopyInterpreters(InterpreterRegistry &registry);
void registerViewInterpreters(InterpreterRegistry &registry);
void registerUnaryInterpreters(InterpreterRegistry &registry);
void registerBinaryInterpreters(InterpreterRegistry &registry);
void registerReductionInterpreters(InterpreterRegistry &registry);
void registerLinalgInterpreters(InterpreterRegistry &registry);
void registerNNInterpreters(InterpreterRegistry &registry);
void registerQuantizationInterpreters(InterpreterRegistry &registry);

} // namespace jit
} // namespace tcc

#endif // TCC_JIT_LIB_INTERPRETERREGISTRY_H
