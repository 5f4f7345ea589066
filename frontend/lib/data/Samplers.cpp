//===- Samplers.cpp - Sequential, random and distributed samplers ---------===//

#include "tcc/Frontend/data/Samplers.h"

#include "tcc/Frontend/Check.h"
#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/serialize/Archive.h"

#include <algorithm>
#include <numeric>
#include <random>

namespace tcc {
namespace data {
namespace samplers {
namespace {

std::optional<std::vector<size_t>> take(const std::vector<size_t> &from,
                                        size_t &index, size_t end,
                                        size_t batch_size) {
  if (index >= end)
    return std::nullopt;
  size_t n = std::min(batch_size, end - index);
  std::vector<size_t> out(from.begin() + index, from.begin() + index + n);
  index += n;
  return out;
}

void writeIndex(serialize::OutputArchive &a, const char *key, size_t v) {
  a.write(key, IValue(int64_t(v)));
}
size_t readIndex(serialize::InputArchive &a, const char *key) {
  IValue v;
  a.read(key, v);
  TCC_CHECK(v.toInt() >= 0, "sampler state: negative ", key);
  return size_t(v.toInt());
}
void writeIndices(serialize::OutputArchive &a, const std::vector<size_t> &v) {
  std::vector<int64_t> ints(v.begin(), v.end());
  a.write("indices", IValue(std::move(ints)));
}
std::vector<size_t> readIndices(serialize::InputArchive &a) {
  IValue v;
  a.read("indices", v);
  std::vector<size_t> out;
  for (int64_t i : v.toIntVector()) {
    TCC_CHECK(i >= 0, "sampler state: negative index");
    out.push_back(size_t(i));
  }
  return out;
}

} // namespace

// --- SequentialSampler -------------------------------------------------------

void SequentialSampler::reset(std::optional<size_t> new_size) {
  if (new_size)
    size_ = *new_size;
  index_ = 0;
}

std::optional<std::vector<size_t>> SequentialSampler::next(size_t batch_size) {
  if (index_ >= size_)
    return std::nullopt;
  size_t n = std::min(batch_size, size_ - index_);
  std::vector<size_t> out(n);
  std::iota(out.begin(), out.end(), index_);
  index_ += n;
  return out;
}

void SequentialSampler::save(serialize::OutputArchive &a) const {
  writeIndex(a, "index", index_);
}
void SequentialSampler::load(serialize::InputArchive &a) {
  index_ = readIndex(a, "index");
}

// --- RandomSampler -----------------------------------------------------------

RandomSampler::RandomSampler(int64_t size, ScalarType index_dtype) {
  TCC_CHECK(size >= 0, "RandomSampler: negative size ", size);
  TCC_CHECK(index_dtype == kLong || index_dtype == kInt,
            "RandomSampler: index dtype must be int64 or int32");
  draw(size_t(size));
}

RandomSampler::RandomSampler(int64_t size, uint64_t seed) : seed_(seed) {
  TCC_CHECK(size >= 0, "RandomSampler: negative size ", size);
  draw(size_t(size));
}

void RandomSampler::draw(size_t size) {
  indices_.resize(size);
  if (seed_) {
    std::iota(indices_.begin(), indices_.end(), size_t(0));
    std::mt19937_64 engine(*seed_ + epoch_);
    // Fisher-Yates with explicit draws: the same order on every platform.
    for (size_t i = size; i > 1; --i)
      std::swap(indices_[i - 1], indices_[engine() % i]);
  } else {
    Tensor perm = randperm(int64_t(size));
    const int64_t *p = perm.data_ptr<int64_t>();
    for (size_t i = 0; i < size; ++i)
      indices_[i] = size_t(p[i]);
  }
  index_ = 0;
}

void RandomSampler::reset(std::optional<size_t> new_size) {
  ++epoch_;
  draw(new_size.value_or(indices_.size()));
}

std::optional<std::vector<size_t>> RandomSampler::next(size_t batch_size) {
  return take(indices_, index_, indices_.size(), batch_size);
}

void RandomSampler::save(serialize::OutputArchive &a) const {
  writeIndex(a, "index", index_);
  writeIndices(a, indices_);
}
void RandomSampler::load(serialize::InputArchive &a) {
  indices_ = readIndices(a);
  index_ = std::min(readIndex(a, "index"), indices_.size());
}

// --- Distributed samplers ----------------------------------------------------

DistributedSampler::DistributedSampler(size_t size, size_t num_replicas,
                                       size_t rank, bool allow_duplicates)
    : size_(size), num_replicas_(num_replicas), rank_(rank),
      allow_duplicates_(allow_duplicates) {
  TCC_CHECK(num_replicas > 0, "DistributedSampler: num_replicas must be "
                              "positive");
  TCC_CHECK(rank < num_replicas, "DistributedSampler: rank ", rank,
            " is not below num_replicas ", num_replicas);
}

size_t DistributedSampler::local_sample_count() const {
  return allow_duplicates_ ? (size_ + num_replicas_ - 1) / num_replicas_
                           : size_ / num_replicas_;
}

namespace {
/// Replica `rank`'s range of an epoch's index list; with duplicates allowed
/// the list wraps around so every replica gets the same count.
void populate(std::vector<size_t> &all, size_t size, size_t count, size_t rank,
              size_t &begin, size_t &end) {
  begin = rank * count;
  end = begin + count;
  if (end > all.size()) {
    size_t extra = end - all.size();
    for (size_t i = 0; i < extra; ++i)
      all.push_back(all[i % size]);
  }
}
} // namespace

void DistributedRandomSampler::reset(std::optional<size_t> new_size) {
  if (new_size)
    size_ = *new_size;
  all_indices_.resize(size_);
  std::iota(all_indices_.begin(), all_indices_.end(), size_t(0));
  // Every replica shuffles with the epoch as seed: the same permutation.
  std::mt19937_64 engine(epoch_);
  for (size_t i = size_; i > 1; --i)
    std::swap(all_indices_[i - 1], all_indices_[engine() % i]);
  populate(all_indices_, size_, local_sample_count(), rank_, begin_index_,
           end_index_);
  sample_index_ = begin_index_;
  populated_ = true;
}

std::optional<std::vector<size_t>>
DistributedRandomSampler::next(size_t batch_size) {
  if (!populated_)
    reset();
  return take(all_indices_, sample_index_, end_index_, batch_size);
}

void DistributedRandomSampler::save(serialize::OutputArchive &a) const {
  writeIndex(a, "sample_index", sample_index_);
  writeIndex(a, "epoch", epoch_);
}
void DistributedRandomSampler::load(serialize::InputArchive &a) {
  epoch_ = readIndex(a, "epoch");
  reset();
  sample_index_ = std::min(std::max(readIndex(a, "sample_index"), begin_index_),
                           end_index_);
}

void DistributedSequentialSampler::reset(std::optional<size_t> new_size) {
  if (new_size)
    size_ = *new_size;
  all_indices_.resize(size_);
  std::iota(all_indices_.begin(), all_indices_.end(), size_t(0));
  populate(all_indices_, size_, local_sample_count(), rank_, begin_index_,
           end_index_);
  sample_index_ = begin_index_;
  populated_ = true;
}

std::optional<std::vector<size_t>>
DistributedSequentialSampler::next(size_t batch_size) {
  if (!populated_)
    reset();
  return take(all_indices_, sample_index_, end_index_, batch_size);
}

void DistributedSequentialSampler::save(serialize::OutputArchive &a) const {
  writeIndex(a, "sample_index", sample_index_);
}
void DistributedSequentialSampler::load(serialize::InputArchive &a) {
  reset();
  sample_index_ = std::min(std::max(readIndex(a, "sample_index"), begin_index_),
                           end_index_);
}

} // namespace samplers
} // namespace data
} // namespace tcc
