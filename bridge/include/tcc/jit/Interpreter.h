//===- Interpreter.h - Running tcc modules with the eager ops ---*- C++ -*-===//
//
// The reference interpreter: executes any function of a tcc module on CPU
// tensors by calling the eager ops (the reference semantics of the
// dialect). Library tcc_interpreter (CMake target tcc::interpreter), which
// tcc::jit links; it knows nothing of tracing or compiling. Like
// <tcc/jit.h>, this header includes nothing from MLIR or LLVM.
//
//   auto y = tcc::jit::Interpreter::load("model.ir").run({x});
//
//===----------------------------------------------------------------------===//

#ifndef TCC_JIT_INTERPRETER_H
#define TCC_JIT_INTERPRETER_H

#include "tcc/tcc.h"

#include <memory>
#include <string>
#include <vector>

namespace tcc {
namespace jit {

/// Thrown when a program cannot be traced, a module cannot be loaded, or the
/// interpreter is given inputs that do not fit the function.
class JitError : public Error {
public:
  using Error::Error;
};

/// One argument or result of a function: its name, dtype and shape.
struct TensorSpec {
  std::string name;
  ScalarType dtype = kFloat;
  std::vector<int64_t> shape;
};

struct Signature {
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;
};

/// The state an Interpreter and a TracedGraph share: an MLIR context and
/// module (defined in the implementation).
struct ModuleState;

class TracedGraph;

/// How Interpreter::load reads a file.
struct LoadOptions {
  /// Whether MLIR bytecode is read. It is by default, as files a program
  /// saved itself (TracedGraph::save_bytecode); but MLIR's bytecode reader
  /// is not hardened against corrupted files, so set this false for files
  /// from elsewhere (the tools refuse bytecode unless --allow-bytecode).
  bool allowBytecode = true;
};

/// Executes functions of a tcc module on CPU tensors with the eager ops.
class Interpreter {
public:
  /// Loads a module from a file (MLIR text or bytecode), verifying it.
  static Interpreter load(const std::string &path,
                          const LoadOptions &options = {});
  /// Parses a module from MLIR text; `bufferName` appears in diagnostics.
  static Interpreter parse(const std::string &text,
                           const std::string &bufferName = "<string>");
  /// Runs a traced graph's module (defined in <tcc/jit.h>).
  explicit Interpreter(const TracedGraph &graph);

  Interpreter(const Interpreter &) = default;
  Interpreter &operator=(const Interpreter &) = default;
  ~Interpreter();

  /// The names of the module's functions.
  std::vector<std::string> functions() const;
  /// The entry function: the module's only public function with a body (the
  /// rule of every tool, tcc/IR/EntryFunction.h); several are an error.
  std::string entry() const;
  Signature signature(const std::string &function) const;
  Signature signature() const { return signature(entry()); }

  /// Runs `function` on `inputs` (checked against its signature) and
  /// returns its results.
  std::vector<Tensor> run(const std::string &function,
                          const std::vector<Tensor> &inputs) const;
  std::vector<Tensor> run(const std::vector<Tensor> &inputs) const {
    return run(entry(), inputs);
  }

private:
  explicit Interpreter(std::shared_ptr<const ModuleState> state);
  std::shared_ptr<const ModuleState> state_;
};

} // namespace jit
} // namespace tcc

#endif // TCC_JIT_INTERPRETER_H
