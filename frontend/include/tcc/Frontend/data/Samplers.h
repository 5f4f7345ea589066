//===- Samplers.h - Which indices each batch takes --------------*- C++ -*-===//
//
// libtorch's samplers: next(batch_size) returns the next indices (fewer at
// the end, none when exhausted); reset() starts a new epoch. RandomSampler
// draws a permutation from the global generator (manual_seed makes the
// order reproducible) or, given a seed, from its own. The distributed
// samplers give replica `rank` of `num_replicas` its share of each epoch,
// the same permutation on every replica for a given epoch (set_epoch).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_DATA_SAMPLERS_H
#define TCC_FRONTEND_DATA_SAMPLERS_H

#include "tcc/Frontend/Tensor.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace tcc {
namespace serialize {
class OutputArchive;
class InputArchive;
} // namespace serialize

namespace data {
namespace samplers {

template <class BatchRequest = std::vector<size_t>> class Sampler {
public:
  using BatchRequestType = BatchRequest;
  virtual ~Sampler() = default;
  virtual void reset(std::optional<size_t> new_size) = 0;
  virtual std::optional<BatchRequest> next(size_t batch_size) = 0;
  virtual void save(serialize::OutputArchive &archive) const = 0;
  virtual void load(serialize::InputArchive &archive) = 0;
};

class SequentialSampler : public Sampler<> {
public:
  explicit SequentialSampler(size_t size) : size_(size) {}
  void reset(std::optional<size_t> new_size = std::nullopt) override;
  std::optional<std::vector<size_t>> next(size_t batch_size) override;
  void save(serialize::OutputArchive &archive) const override;
  void load(serialize::InputArchive &archive) override;
  size_t index() const noexcept { return index_; }

private:
  size_t size_;
  size_t index_ = 0;
};

class RandomSampler : public Sampler<> {
public:
  /// A new permutation of [0, size) at every reset().
  explicit RandomSampler(int64_t size, ScalarType index_dtype = kLong);
  /// The same, drawn from a generator of its own seeded with `seed` (epoch
  /// e uses seed + e), independent of the global one.
  RandomSampler(int64_t size, uint64_t seed);
  void reset(std::optional<size_t> new_size = std::nullopt) override;
  std::optional<std::vector<size_t>> next(size_t batch_size) override;
  void save(serialize::OutputArchive &archive) const override;
  void load(serialize::InputArchive &archive) override;
  size_t index() const noexcept { return index_; }

private:
  void draw(size_t size);
  std::vector<size_t> indices_;
  size_t index_ = 0;
  std::optional<uint64_t> seed_;
  uint64_t epoch_ = 0;
};

/// Common part of the distributed samplers.
class DistributedSampler : public Sampler<> {
public:
  DistributedSampler(size_t size, size_t num_replicas = 1, size_t rank = 0,
                     bool allow_duplicates = true);
  void set_epoch(size_t epoch) { epoch_ = epoch; }
  size_t epoch() const { return epoch_; }

protected:
  /// Indices this replica takes per epoch.
  size_t local_sample_count() const;
  size_t size_, num_replicas_, rank_, epoch_ = 0;
  bool allow_duplicates_;
};

class DistributedRandomSampler : public DistributedSampler {
public:
  using DistributedSampler::DistributedSampler;
  void reset(std::optional<size_t> new_size = std::nullopt) override;
  std::optional<std::vector<size_t>> next(size_t batch_size) override;
  void save(serialize::OutputArchive &archive) const override;
  void load(serialize::InputArchive &archive) override;

private:
  std::vector<size_t> all_indices_;
  size_t begin_index_ = 0, end_index_ = 0, sample_index_ = 0;
  bool populated_ = false;
};

class DistributedSequentialSampler : public DistributedSampler {
public:
  using DistributedSampler::DistributedSampler;
  void reset(std::optional<size_t> new_size = std::nullopt) override;
  std::optional<std::vector<size_t>> next(size_t batch_size) override;
  void save(serialize::OutputArchive &archive) const override;
  void load(serialize::InputArchive &archive) override;

private:
  std::vector<size_t> all_indices_;
  size_t begin_index_ = 0, end_index_ = 0, sample_index_ = 0;
  bool populated_ = false;
};

} // namespace samplers
} // namespace data
} // namespace tcc

#endif // TCC_FRONTEND_DATA_SAMPLERS_H
