//===- ImportTable.h - runtime functions the code may call ------*- C++ -*-===//

#ifndef TCC_RUNTIME_LIB_EXECUTOR_IMPORTTABLE_H
#define TCC_RUNTIME_LIB_EXECUTOR_IMPORTTABLE_H

#include <string>

namespace tcc {
namespace runtime {
namespace detail {

// The address of the runtime function `name` that compiled code may import
// (see `imports` in the schema), or nullptr when the runtime has none.
void *findImport(const std::string &name);

} // namespace detail
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_LIB_EXECUTOR_IMPORTTABLE_H
