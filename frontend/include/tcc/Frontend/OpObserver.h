//===- OpObserver.h - Watching every op call (for the tracer) ---*- C++ -*-===//
//
// Every public op reports itself once through `record` (lib/Autograd/Record.h)
// to the observer installed on the current thread, if any: op name, input
// tensors, attributes and outputs. The tracer in tcc::jit implements this
// interface; it contains nothing from MLIR.
//
// Composite ops report themselves, not the ops they are built from (a
// RecordPauseGuard hides inner calls). In-place ops report in value form:
// the name of the out-of-place op ("add" for add_), inputs as they were
// before, and the modified tensor as output, with `inplace` set.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_OPOBSERVER_H
#define TCC_FRONTEND_OPOBSERVER_H

#include "tcc/Frontend/OpRegistry.h"
#include "tcc/Frontend/Tensor.h"

#include <string>
#include <variant>
#include <vector>

namespace tcc {
namespace detail {

/// An op attribute: what the schema lists besides tensors. std::monostate
/// stands for None (an optional argument not given).
using AttrValue =
    std::variant<std::monostate, bool, int64_t, double, std::vector<int64_t>,
                 std::vector<double>, std::string, ScalarType>;

struct Attr {
  const char *name;
  AttrValue value;
};
using AttrList = std::vector<Attr>;

/// An attribute value from a Scalar (int64, double or bool).
AttrValue scalarAttr(const Scalar &s);

struct OpCall {
  const OpDef &op;
  TensorList inputs;
  const AttrList &attrs;
  TensorList outputs;
  bool inplace;
};

class OpObserver {
public:
  virtual ~OpObserver();
  /// After the op ran (outputs hold their values).
  virtual void onOp(const OpCall &call) = 0;
  /// A data-dependent read (`item()`, `data_ptr()`) of `t`.
  virtual void onDataRead(const Tensor &t, const char *what) {}
};

/// The observer of this thread (null when none).
OpObserver *currentObserver();
/// Installs `observer` on this thread and returns the previous one.
OpObserver *setObserver(OpObserver *observer);

/// Whether op calls are reported right now (an observer is installed and
/// recording is not paused).
bool isRecording();

/// Hides op calls made inside its scope from the observer.
class RecordPauseGuard {
public:
  RecordPauseGuard();
  ~RecordPauseGuard();
  RecordPauseGuard(const RecordPauseGuard &) = delete;
  RecordPauseGuard &operator=(const RecordPauseGuard &) = delete;

private:
  bool wasPaused_;
};

} // namespace detail
} // namespace tcc

#endif // TCC_FRONTEND_OPOBSERVER_H
