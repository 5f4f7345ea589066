//===- CudaDriver.cpp - the CUDA driver API, opened at run time -----------===//

#include "CudaDriver.h"

#include <dlfcn.h>

#include <cstring>

namespace tcc {
namespace cuda {
namespace {

// `symbol`; for cuEventElapsedTime_v2 (CUDA 12.8), an older driver's
// cuEventElapsedTime, which has the same signature.
void *lookup(void *library, const char *symbol) {
  void *address = dlsym(library, symbol);
  if (!address && std::strcmp(symbol, "cuEventElapsedTime_v2") == 0)
    address = dlsym(library, "cuEventElapsedTime");
  return address;
}

} // namespace

std::string Driver::open(const char *path) {
  library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *error = dlerror();
    return std::string("no CUDA driver: cannot load ") + path + " (" +
           (error ? error : "dlopen failed") + ")";
  }
#define TCC_CUDA_LOAD(name, symbol)                                            \
  name = reinterpret_cast<decltype(name)>(lookup(library, symbol));            \
  if (!name) {                                                                 \
    close();                                                                   \
    return std::string("the CUDA driver ") + path + " lacks " + symbol +       \
           " (a driver older than CUDA 12?)";                                  \
  }
  TCC_CUDA_DRIVER_FUNCTIONS(TCC_CUDA_LOAD)
#undef TCC_CUDA_LOAD
  CUresult result = cuInit(0);
  if (result == CUDA_SUCCESS)
    return "";
  std::string name = errorName(result);
  close();
  // The toolkit's stub libcuda answers every call with this error.
  if (result == CUDA_ERROR_STUB_LIBRARY)
    return std::string("no CUDA driver: ") + path +
           " is the CUDA toolkit's stub library (CUDA_ERROR_STUB_LIBRARY, "
           "error 34)";
  if (result == CUDA_ERROR_NO_DEVICE)
    return "no CUDA GPU: the driver finds no device (" + name + ")";
  return "the CUDA driver failed to initialize: " + name;
}

void Driver::close() {
  if (library)
    dlclose(library);
  *this = Driver();
}

std::string Driver::errorName(CUresult result) const {
  const char *name = nullptr;
  if (cuGetErrorName && cuGetErrorName(result, &name) == CUDA_SUCCESS && name)
    return name;
  return "CUDA error " + std::to_string(int(result));
}

} // namespace cuda
} // namespace tcc
