//===- Allocator.cpp - CPU caching allocator ------------------------------===//
//
// Freed blocks are kept in per-size-class free lists and reused. Size
// classes: multiples of 64 bytes up to 1 KiB, then four classes per power of
// two (at most 25% slack). The cache holds at most `limit` bytes; a block
// freed beyond that goes back to the system.
//
//===----------------------------------------------------------------------===//

#include "TensorInternals.h"

#include "tcc/Frontend/Storage.h"

#include <cstdlib>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace tcc {
namespace {

constexpr size_t kAlignment = 64;

size_t sizeClass(size_t n) {
  if (n <= 1024)
    return (n + 63) & ~size_t(63);
  size_t p = size_t(1) << (63 - __builtin_clzll(n));
  size_t step = p / 4;
  return (n + step - 1) / step * step;
}

size_t initialLimit() {
  if (const char *env = std::getenv("TCC_CPU_CACHE_BYTES"))
    return size_t(std::strtoull(env, nullptr, 10));
  return size_t(1) << 30;
}

class CachingAllocator {
public:
  void *allocate(size_t cls) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = free_.find(cls);
      if (it != free_.end() && !it->second.empty()) {
        void *p = it->second.back();
        it->second.pop_back();
        cached_ -= cls;
        allocated_ += cls;
        ++hits_;
        return p;
      }
      allocated_ += cls;
      ++systemAllocs_;
    }
    void *p = std::aligned_alloc(kAlignment, cls);
    if (!p) {
      // Give the cache back to the system and try once more.
      emptyCache();
      p = std::aligned_alloc(kAlignment, cls);
    }
    if (!p) {
      std::lock_guard<std::mutex> lock(mu_);
      allocated_ -= cls;
      detail::throwError("CPU out of memory: failed to allocate " +
                         std::to_string(cls) + " bytes");
    }
    return p;
  }

  void release(void *p, size_t cls) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      allocated_ -= cls;
      if (cached_ + cls <= limit_) {
        free_[cls].push_back(p);
        cached_ += cls;
        return;
      }
    }
    std::free(p);
  }

  void emptyCache() {
    std::unordered_map<size_t, std::vector<void *>> blocks;
    {
      std::lock_guard<std::mutex> lock(mu_);
      blocks.swap(free_);
      cached_ = 0;
    }
    for (auto &kv : blocks)
      for (void *p : kv.second)
        std::free(p);
  }

  detail::AllocatorStats stats() {
    std::lock_guard<std::mutex> lock(mu_);
    return {allocated_, cached_, systemAllocs_, hits_};
  }

  void setLimit(size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      limit_ = bytes;
    }
    emptyCache();
  }

private:
  std::mutex mu_;
  std::unordered_map<size_t, std::vector<void *>> free_;
  size_t allocated_ = 0, cached_ = 0, systemAllocs_ = 0, hits_ = 0;
  size_t limit_ = initialLimit();
};

// Never destroyed: storages may be freed during static destruction.
CachingAllocator &allocator() {
  static CachingAllocator *a = new CachingAllocator();
  return *a;
}

void releaseBlock(void *context, void *data, size_t) {
  allocator().release(data, reinterpret_cast<size_t>(context));
}

} // namespace

std::shared_ptr<StorageImpl> allocateStorage(size_t nbytes, Device device) {
  detail::checkCpuDevice(device);
  if (nbytes == 0)
    return std::make_shared<StorageImpl>(nullptr, 0, device, nullptr, nullptr);
  size_t cls = sizeClass(nbytes);
  void *p = allocator().allocate(cls);
  return std::make_shared<StorageImpl>(p, nbytes, device, &releaseBlock,
                                       reinterpret_cast<void *>(cls));
}

detail::AllocatorStats detail::allocatorStats() { return allocator().stats(); }
void detail::emptyCache() { allocator().emptyCache(); }
void detail::setCacheLimit(size_t bytes) { allocator().setLimit(bytes); }

} // namespace tcc
