//===- Parallel.h - Intra-op parallelism for eager kernels ----------------===//
//
// parallelFor splits [begin, end) into chunks of at least `grain` and runs
// them on the intra-op pool. Until the runtime's thread pool lands, chunks
// run on the calling thread; call sites need not change when it does.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_LIB_CORE_PARALLEL_H
#define TCC_LIB_CORE_PARALLEL_H

#include <cstdint>
#include <functional>

namespace tcc {
namespace detail {

/// Runs f(chunkBegin, chunkEnd) over [begin, end), in parallel when the
/// range holds more than one grain and more than one thread is allowed.
void parallelForImpl(int64_t begin, int64_t end, int64_t grain,
                     const std::function<void(int64_t, int64_t)> &f);

template <class F>
inline void parallelFor(int64_t begin, int64_t end, int64_t grain,
                        const F &f) {
  if (end <= begin)
    return;
  if (end - begin <= grain) {
    f(begin, end);
    return;
  }
  parallelForImpl(begin, end, grain, f);
}

/// Whether the calling thread is a worker inside a parallel region.
bool inParallelRegion();

} // namespace detail
} // namespace tcc

#endif // TCC_LIB_CORE_PARALLEL_H
