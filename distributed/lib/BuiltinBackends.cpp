//===- BuiltinBackends.cpp - Backend names and their factories ------------===//

#include "BuiltinBackends.h"

namespace tcc {
namespace distributed {

std::vector<std::pair<std::string, BackendFactory>> builtinBackends() {
  return {{"mpi", createProcessGroupMPI}};
}

} // namespace distributed
} // namespace tcc
