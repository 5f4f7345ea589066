//===- Allocator.cpp - the system allocator -------------------------------===//

#include "tcc/runtime/tcc_runtime.h"

#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace {

// Blocks this large (model copies with their weights, big arenas) start on
// a 2 MiB boundary and ask for transparent huge pages: streamed weights then
// miss the TLB 512x less often, which matters most on VMs, where nested
// paging makes each page walk costly (figures: docs/performance.md,
// "Measurements behind choices in the code").
// TCC_HUGE_PAGES=0 turns the advice off (e.g. where compaction stalls at
// load time matter more).
constexpr size_t kHugePageBytes = size_t(2) << 20;
constexpr size_t kHugeBlockBytes = size_t(4) << 20;

bool hugePagesWanted() {
  static const bool wanted = [] {
    const char *env = std::getenv("TCC_HUGE_PAGES");
    return !(env && env[0] == '0' && env[1] == '\0');
  }();
  return wanted;
}

void *systemAlloc(void *, size_t size, size_t alignment) {
  if (alignment < sizeof(void *))
    alignment = sizeof(void *);
  const bool huge = size >= kHugeBlockBytes && alignment <= kHugePageBytes &&
                    hugePagesWanted();
  if (huge)
    alignment = kHugePageBytes;
  void *p = nullptr;
  if (posix_memalign(&p, alignment, size ? size : 1) != 0)
    return nullptr;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // Advice only: where THP is off or unavailable, 4 KiB pages it is.
  if (huge)
    (void)madvise(p, size, MADV_HUGEPAGE);
#endif
  return p;
}

void systemFree(void *, void *ptr) { std::free(ptr); }

} // namespace

extern "C" tcc_allocator_t tcc_allocator_system(void) {
  return tcc_allocator_t{nullptr, systemAlloc, systemFree};
}
