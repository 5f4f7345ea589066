//===- RuntimeDtype.h - Eager scalar types <-> runtime dtypes ---*- C++ -*-===//
//
// The one mapping between the eager library's ScalarType and the runtime's
// tcc_dtype_t, for everything that hands tensors between the two (.npy
// files, tcc::jit::compile, the tcc tool, the conformance suite).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_RUNTIMEDTYPE_H
#define TCC_FRONTEND_RUNTIMEDTYPE_H

#include "tcc/Frontend/ScalarType.h"
#include "tcc/runtime/tcc_runtime.h"

#include <optional>

namespace tcc {

/// The runtime's dtype for `t`; none for eager types artifacts lack.
std::optional<tcc_dtype_t> to_runtime_dtype(ScalarType t);
/// The eager scalar type for `t`; none for a value that is no dtype.
std::optional<ScalarType> from_runtime_dtype(tcc_dtype_t t);

} // namespace tcc

#endif // TCC_FRONTEND_RUNTIMEDTYPE_H
