//===- CublasLt.cpp - cuBLASLt, opened at run time ------------------------===//

#include "CublasLt.h"

#include <dlfcn.h>

namespace tcc {
namespace cuda {

std::string CublasLt::open(const char *path) {
  library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *error = dlerror();
    return std::string("cannot load ") + path + " (" +
           (error ? error : "dlopen failed") + ")";
  }
#define TCC_CUBLASLT_LOAD(name)                                                \
  name = reinterpret_cast<decltype(name)>(dlsym(library, #name));              \
  if (!name) {                                                                 \
    close();                                                                   \
    return std::string(path) + " lacks " #name;                                \
  }
  TCC_CUBLASLT_FUNCTIONS(TCC_CUBLASLT_LOAD)
#undef TCC_CUBLASLT_LOAD
  return "";
}

void CublasLt::close() {
  if (library)
    dlclose(library);
  *this = CublasLt();
}

std::string CublasLt::statusName(cublasStatus_t status) const {
  const char *name =
      cublasLtGetStatusName ? cublasLtGetStatusName(status) : nullptr;
  return name ? name : "cuBLAS status " + std::to_string(int(status));
}

} // namespace cuda
} // namespace tcc
