//===- BuiltinBackends.h - The backends this build of tcc contains -*- C++ -*-//

#ifndef TCC_DISTRIBUTED_LIB_BUILTINBACKENDS_H
#define TCC_DISTRIBUTED_LIB_BUILTINBACKENDS_H

#include "tcc/Distributed/Backend.h"

#include <string>
#include <utility>
#include <vector>

namespace tcc {
namespace distributed {

/// Name and factory of each backend compiled into this library; the
/// registry starts with them (explicit, so a static library never drops a
/// backend whose registration nothing references).
std::vector<std::pair<std::string, BackendFactory>> builtinBackends();

/// One per backend folder.
std::shared_ptr<ProcessGroup> createProcessGroupMPI(const InitOptions &options);

} // namespace distributed
} // namespace tcc

#endif // TCC_DISTRIBUTED_LIB_BUILTINBACKENDS_H
