//===- Dtypes.h - Runtime dtypes <-> eager scalar types for the tool -------===//
//
// The subcommands that hand tensors between the runtime and the eager
// library (run-ir, bench --against-ir, compile --verify) share this one
// mapping.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TOOLS_TCC_DTYPES_H
#define TCC_TOOLS_TCC_DTYPES_H

#include "tcc/Frontend/ScalarType.h"
#include "tcc/runtime/tcc_runtime.h"

#include <optional>

namespace tcc {
namespace tool {

/// The runtime's dtype for `t`; none for eager types artifacts lack.
std::optional<tcc_dtype_t> runtimeDtypeOf(ScalarType t);
/// The eager scalar type for `t`; none for an unknown value.
std::optional<ScalarType> eagerDtypeOf(tcc_dtype_t t);

} // namespace tool
} // namespace tcc

#endif // TCC_TOOLS_TCC_DTYPES_H
