//===- Datasets.h - Dataset, BatchDataset, MapDataset, TensorDataset -*- C++
//-*-//
//
// libtorch's dataset hierarchy: a Dataset<Self, Example> implements
// `get(index)` and `size()`; `dataset.map(transform)` wraps it in a
// MapDataset that applies the transform to each batch (Normalize, Stack,
// ...). Datasets are copied into the loader's worker threads, so they must
// be copyable and `get` must not depend on shared mutable state.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_DATA_DATASETS_H
#define TCC_FRONTEND_DATA_DATASETS_H

#include "tcc/Frontend/ArrayRef.h"
#include "tcc/Frontend/Error.h"
#include "tcc/Frontend/data/Example.h"

#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tcc {
namespace data {
namespace datasets {

template <class S, class T> class MapDataset;

/// A dataset that returns whole batches for a list of indices.
template <class Self, class Batch, class BatchRequest = ArrayRef<size_t>>
class BatchDataset {
public:
  using SelfType = Self;
  using BatchType = Batch;
  using BatchRequestType = BatchRequest;
  constexpr static bool is_stateful = false;

  virtual ~BatchDataset() = default;
  virtual Batch get_batch(BatchRequest request) = 0;
  virtual std::optional<size_t> size() const = 0;

  /// This dataset with `transform` applied to each batch.
  template <class TransformType>
  MapDataset<Self, TransformType> map(TransformType transform) & {
    return MapDataset<Self, TransformType>(static_cast<Self &>(*this),
                                           std::move(transform));
  }
  template <class TransformType>
  MapDataset<Self, TransformType> map(TransformType transform) && {
    return MapDataset<Self, TransformType>(
        std::move(static_cast<Self &>(*this)), std::move(transform));
  }
};

/// A dataset of single examples: implement get(index) and size().
template <class Self, class SingleExample = Example<>>
class Dataset : public BatchDataset<Self, std::vector<SingleExample>> {
public:
  using ExampleType = SingleExample;

  virtual ExampleType get(size_t index) = 0;

  std::vector<ExampleType> get_batch(ArrayRef<size_t> indices) override {
    std::vector<ExampleType> batch;
    batch.reserve(indices.size());
    for (size_t i : indices)
      batch.push_back(get(i));
    return batch;
  }
};

/// A dataset whose batches go through a transform.
template <class SourceDataset, class AppliedTransform>
class MapDataset : public BatchDataset<
                       MapDataset<SourceDataset, AppliedTransform>,
                       decltype(std::declval<AppliedTransform>().apply_batch(
                           std::declval<typename SourceDataset::BatchType>())),
                       typename SourceDataset::BatchRequestType> {
public:
  using DatasetType = SourceDataset;
  using TransformType = AppliedTransform;
  using BatchRequestType = typename SourceDataset::BatchRequestType;
  using OutputBatchType = decltype(std::declval<AppliedTransform>().apply_batch(
      std::declval<typename SourceDataset::BatchType>()));

  MapDataset(DatasetType dataset, TransformType transform)
      : dataset_(std::move(dataset)), transform_(std::move(transform)) {}

  OutputBatchType get_batch(BatchRequestType indices) override {
    return transform_.apply_batch(dataset_.get_batch(std::move(indices)));
  }
  std::optional<size_t> size() const override { return dataset_.size(); }

  const SourceDataset &dataset() { return dataset_; }
  const AppliedTransform &transform() { return transform_; }

private:
  SourceDataset dataset_;
  AppliedTransform transform_;
};

template <class DatasetType, class TransformType>
MapDataset<DatasetType, TransformType> map(DatasetType dataset,
                                           TransformType transform) {
  return MapDataset<DatasetType, TransformType>(std::move(dataset),
                                                std::move(transform));
}

/// Rows of one tensor (its first dim) as examples without targets.
class TensorDataset : public Dataset<TensorDataset, TensorExample> {
public:
  explicit TensorDataset(const std::vector<Tensor> &tensors);
  explicit TensorDataset(Tensor tensor) : tensor(std::move(tensor)) {}
  TensorExample get(size_t index) override;
  std::optional<size_t> size() const override;

  Tensor tensor;
};

} // namespace datasets
} // namespace data
} // namespace tcc

#endif // TCC_FRONTEND_DATA_DATASETS_H
