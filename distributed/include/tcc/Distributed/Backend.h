//===- Backend.h - Process-group backends chosen by name --------*- C++ -*-===//
//
// init_process_group("mpi") finds the factory registered under that name.
// Built-in backends register themselves on first use (BuiltinBackends.cpp);
// a program or library adds its own with register_backend before
// init_process_group.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DISTRIBUTED_BACKEND_H
#define TCC_DISTRIBUTED_BACKEND_H

#include "tcc/Distributed/ProcessGroup.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tcc {
namespace distributed {

/// Creates the world group of a backend. `options.timeout` is resolved
/// (never zero) when the factory runs.
using BackendFactory =
    std::function<std::shared_ptr<ProcessGroup>(const InitOptions &options)>;

/// Throws when `name` is taken.
void register_backend(const std::string &name, BackendFactory factory);
bool is_backend_registered(const std::string &name);
/// Sorted names.
std::vector<std::string> registered_backends();
/// Throws naming the registered backends when `name` is not one of them.
BackendFactory backend_factory(const std::string &name);

} // namespace distributed
} // namespace tcc

#endif // TCC_DISTRIBUTED_BACKEND_H
