//===- Copy.cpp - clone, contiguous, detach, to, copy_, fill_ -------------===//
//
// Copies trace to the values they produce: clone, contiguous and detach are
// the input itself, `to` a tcc.cast, and copy_/fill_ (in value form) the
// new contents of self.
//
//===----------------------------------------------------------------------===//

#include "TraceContext.h"
#include "TraceRegistry.h"

namespace tcc {
namespace jit {

namespace {
using Values = std::vector<mlir::Value>;
} // namespace

void registerCopyTraces(TraceRegistry &r) {
  for (const char *op : {"clone", "contiguous", "detach"})
    r.trace(op, [](TraceContext &c) -> Values { return {c.in(0)}; });
  r.trace("to", [](TraceContext &c) -> Values {
    return {c.inAs(0, c.output().dtype())};
  });
  // Value forms of copy_ and fill_/zero_: the new contents of self.
  r.trace("copy", [](TraceContext &c) -> Values {
    return {c.broadcastTo(c.inAs(1, c.output().dtype()), c.output().sizes())};
  });
  r.trace("fill", [](TraceContext &c) -> Values {
    return {
        c.splat(c.scalarAttr("value"), c.output().dtype(), c.output().sizes())};
  });
}

} // namespace jit
} // namespace tcc
