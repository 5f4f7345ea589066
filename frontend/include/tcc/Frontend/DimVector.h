//===- DimVector.h - Sizes and strides with inline storage ------*- C++ -*-===//
//
// Most tensors have few dimensions; keeping them inline spares two heap
// allocations per tensor, which matters for the cost of a small op.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_DIMVECTOR_H
#define TCC_FRONTEND_DIMVECTOR_H

#include "tcc/Frontend/ArrayRef.h"

#include <cstdlib>
#include <cstring>
#include <new>

namespace tcc {

class DimVector {
public:
  static constexpr size_t kInline = 6;

  DimVector() = default;
  explicit DimVector(size_t n, int64_t value = 0) {
    resize(n, value);
  }
  /* implicit */ DimVector(IntArrayRef a) { assign(a.data(), a.size()); }
  DimVector(std::initializer_list<int64_t> l) { assign(l.begin(), l.size()); }
  DimVector(const DimVector &o) { assign(o.data(), o.size()); }
  DimVector(DimVector &&o) noexcept { moveFrom(o); }
  DimVector &operator=(const DimVector &o) {
    if (this != &o)
      assign(o.data(), o.size());
    return *this;
  }
  DimVector &operator=(DimVector &&o) noexcept {
    if (this != &o) {
      release();
      moveFrom(o);
    }
    return *this;
  }
  ~DimVector() { release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  int64_t *data() { return heap_ ? heap_ : inline_; }
  const int64_t *data() const { return heap_ ? heap_ : inline_; }
  int64_t &operator[](size_t i) { return data()[i]; }
  int64_t operator[](size_t i) const { return data()[i]; }
  int64_t *begin() { return data(); }
  int64_t *end() { return data() + size_; }
  const int64_t *begin() const { return data(); }
  const int64_t *end() const { return data() + size_; }
  int64_t &back() { return data()[size_ - 1]; }
  operator IntArrayRef() const { return IntArrayRef(data(), size_); }
  std::vector<int64_t> vec() const { return std::vector<int64_t>(begin(), end()); }

  void resize(size_t n, int64_t value = 0) {
    reserve(n);
    for (size_t i = size_; i < n; ++i)
      data()[i] = value;
    size_ = n;
  }
  void push_back(int64_t v) {
    reserve(size_ + 1);
    data()[size_++] = v;
  }
  void insert(size_t pos, int64_t v) {
    reserve(size_ + 1);
    int64_t *d = data();
    std::memmove(d + pos + 1, d + pos, (size_ - pos) * sizeof(int64_t));
    d[pos] = v;
    ++size_;
  }
  void erase(size_t pos) {
    int64_t *d = data();
    std::memmove(d + pos, d + pos + 1, (size_ - pos - 1) * sizeof(int64_t));
    --size_;
  }
  void reserve(size_t n) {
    if (n <= capacity())
      return;
    size_t cap = n < 2 * capacity() ? 2 * capacity() : n;
    int64_t *p = static_cast<int64_t *>(std::malloc(cap * sizeof(int64_t)));
    if (!p)
      throw std::bad_alloc();
    std::memcpy(p, data(), size_ * sizeof(int64_t));
    std::free(heap_);
    heap_ = p;
    cap_ = cap;
  }

private:
  size_t capacity() const { return heap_ ? cap_ : kInline; }
  void assign(const int64_t *src, size_t n) {
    size_ = 0;
    reserve(n);
    if (n)
      std::memcpy(data(), src, n * sizeof(int64_t));
    size_ = n;
  }
  void release() {
    if (heap_) {
      std::free(heap_);
      heap_ = nullptr;
    }
    size_ = 0;
  }
  void moveFrom(DimVector &o) {
    size_ = o.size_;
    if (o.heap_) {
      heap_ = o.heap_;
      cap_ = o.cap_;
      o.heap_ = nullptr;
    } else {
      std::memcpy(inline_, o.inline_, size_ * sizeof(int64_t));
    }
    o.size_ = 0;
  }

  int64_t *heap_ = nullptr;
  size_t size_ = 0;
  size_t cap_ = 0;
  int64_t inline_[kInline];
};

} // namespace tcc

#endif // TCC_FRONTEND_DIMVECTOR_H
