//===- Tracer.h - The op observer that records a traced function ----------===//
//
// Maps every tensor the program touches, by TensorImpl identity, to the SSA
// value holding it. The tensors are kept alive until tracing ends so that no
// address is reused for another tensor. Each entry remembers its storage's
// version counter: a tensor whose storage changed behind the tracer's back
// (an in-place op through a view, a write through data_ptr) is stale and
// using it fails the trace instead of silently using the old value.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_JIT_LIB_TRACER_H
#define TCC_JIT_LIB_TRACER_H

#include "ModuleState.h"

#include "tcc/Frontend/OpObserver.h"
#include "tcc/jit.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace tcc {
namespace jit {

class Tracer final : public tcc::detail::OpObserver {
public:
  Tracer(const std::vector<Tensor> &inputs, const TraceOptions &options);

  void nameConstant(const std::string &name, const Tensor &tensor);
  void onOp(const tcc::detail::OpCall &call) override;
  void onDataRead(const Tensor &t, const char *what) override;
  /// Adds the return and the argument/result names, verifies the module and
  /// hands it over.
  std::shared_ptr<ModuleState> finish(const std::vector<Tensor> &outputs);
  const std::vector<std::string> &warnings() const { return warnings_; }

  // --- For TraceContext ------------------------------------------------------
  /// The value of `t`; `checkVersion` off for inputs of an in-place op that
  /// share its output's storage (they were just written).
  mlir::Value valueOf(const Tensor &t, bool checkVersion);
  /// A tcc.constant with `value`, placed with the other constants.
  mlir::Value constantOp(mlir::ElementsAttr value);
  mlir::OpBuilder &builder() { return builder_; }
  mlir::MLIRContext *context() { return state_->context.get(); }
  mlir::Location location() const { return location_; }
  [[noreturn]] void fail(const std::string &why) const;

private:
  struct Entry {
    Tensor tensor; // keeps the TensorImpl (and its address) alive
    mlir::Value value;
    uint32_t version; // storage version when the value was recorded
    std::string producer;
  };
  void setValue(const Tensor &t, mlir::Value v, const std::string &producer);
  std::string constantName(const Tensor &t);

  TraceOptions options_;
  std::shared_ptr<ModuleState> state_;
  mlir::func::FuncOp function_;
  mlir::OpBuilder builder_;      // appends ops to the function body
  mlir::OpBuilder constBuilder_; // constants, at the top in first-use order
  mlir::Location location_;
  std::unordered_map<const TensorImpl *, Entry> values_;
  std::unordered_map<const TensorImpl *, std::pair<std::string, Tensor>> names_;
  std::vector<std::string> inputNames_;
  const char *currentOp_ = nullptr;
  int64_t opCount_ = 0;
  int64_t unnamedConstants_ = 0;
  std::vector<std::string> warnings_;
};

} // namespace jit
} // namespace tcc

#endif // TCC_JIT_LIB_TRACER_H
