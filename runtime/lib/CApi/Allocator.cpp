//===- Allocator.cpp - the system allocator -------------------------------===//

#include "tcc/runtime/tcc_runtime.h"

#include <cstdlib>

namespace {

void *systemAlloc(void *, size_t size, size_t alignment) {
  if (alignment < sizeof(void *))
    alignment = sizeof(void *);
  void *p = nullptr;
  if (posix_memalign(&p, alignment, size ? size : 1) != 0)
    return nullptr;
  return p;
}

void systemFree(void *, void *ptr) { std::free(ptr); }

} // namespace

extern "C" tcc_allocator_t tcc_allocator_system(void) {
  return tcc_allocator_t{nullptr, systemAlloc, systemFree};
}
