//===- Storage.h - Tensor memory and the CPU caching allocator --*- C++ -*-===//
//
// A StorageImpl owns (or borrows, for from_blob) one block of memory. Views
// share it, and with it the version counter that autograd uses to detect
// in-place changes to saved tensors.
//
// CPU blocks come from a caching allocator: freed blocks are kept per size
// class and handed out again, so `auto z = x + y;` in a loop reuses memory
// that is already mapped instead of page-faulting on fresh pages every call.
// Blocks are 64-byte aligned.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_STORAGE_H
#define TCC_FRONTEND_STORAGE_H

#include "tcc/Frontend/Device.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace tcc {

struct StorageImpl {
  using Deleter = void (*)(void *context, void *data, size_t nbytes);

  StorageImpl(void *data, size_t nbytes, Device device, Deleter deleter,
              void *context)
      : data(data), nbytes(nbytes), device(device), deleter(deleter),
        context(context) {}
  StorageImpl(const StorageImpl &) = delete;
  StorageImpl &operator=(const StorageImpl &) = delete;
  ~StorageImpl() {
    if (deleter)
      deleter(context, data, nbytes);
  }

  void *data;
  size_t nbytes;
  Device device;
  Deleter deleter;
  void *context;
  /// Bumped by every in-place write to any tensor viewing this storage.
  std::atomic<uint32_t> version{0};
};

/// A new CPU storage of at least `nbytes` bytes from the caching allocator.
std::shared_ptr<StorageImpl> allocateStorage(size_t nbytes, Device device);

namespace detail {
/// Caching allocator statistics and control (tests, benchmarks).
struct AllocatorStats {
  size_t allocated_bytes; // handed out and not yet returned
  size_t cached_bytes;    // returned and kept for reuse
  size_t system_allocations;
  size_t cache_hits;
};
AllocatorStats allocatorStats();
/// Returns every cached block to the system.
void emptyCache();
/// Largest number of bytes kept in the cache (default 1 GiB, or the
/// TCC_CPU_CACHE_BYTES environment variable).
void setCacheLimit(size_t bytes);
} // namespace detail

} // namespace tcc

#endif // TCC_FRONTEND_STORAGE_H
