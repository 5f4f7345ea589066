//===- OpRegistry.h - The table of eager ops --------------------*- C++ -*-===//
//
// Every public op has one OpDef next to its kernel and backward formula
// (lib/Ops/*.cpp). Each op family registers its OpDefs explicitly from a
// `register<Family>Ops` function listed in OpRegistry.cpp (static libraries
// drop self-registering objects), so the bridge can enumerate every op and
// key its trace and interpreter mappings by the op's name.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_OPREGISTRY_H
#define TCC_FRONTEND_OPREGISTRY_H

#include <string_view>
#include <vector>

namespace tcc {
namespace detail {

struct OpDef {
  /// Name the tracer and interpreter key on: "add", "sum", "matmul".
  const char *name;
  /// PyTorch-style schema, e.g. "add(Tensor self, Tensor other, Scalar
  /// alpha=1) -> Tensor"; attribute names in it are the names recorded.
  const char *schema;
  /// grad_fn name of its backward node ("AddBackward0"), or "" if the op is
  /// not differentiable or is a composite differentiated through its parts.
  const char *backward;
};

/// Every registered op, in registration order.
const std::vector<const OpDef *> &registeredOps();
/// The op with this name, or null.
const OpDef *findOp(std::string_view name);

/// Called by each family's register function.
void registerOp(const OpDef &op);

} // namespace detail
} // namespace tcc

#endif // TCC_FRONTEND_OPREGISTRY_H
