//===- DataLoader.h - Batches from a dataset, optionally prefetched -*- C++
//-*-//
//
// libtorch's make_data_loader / StatelessDataLoader:
//
//   auto loader = data::make_data_loader<data::samplers::SequentialSampler>(
//       std::move(dataset), DataLoaderOptions().batch_size(64).workers(2));
//   for (auto &batch : *loader) ...   // batch is Batch&: valid until ++
//
// Each begin() starts an epoch (the sampler is reset; an unfinished epoch
// is abandoned). With workers > 0, that many threads, each with its own
// copy of the dataset, build batches ahead of the consumer (at most
// max_jobs in flight, 2 * workers by default); with enforce_ordering
// (default) batches arrive in sampler order. drop_last drops a final short
// batch. An exception thrown while building a batch is rethrown from the
// iterator.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_DATA_DATALOADER_H
#define TCC_FRONTEND_DATA_DATALOADER_H

#include "tcc/Frontend/Error.h"
#include "tcc/Frontend/data/Samplers.h"
#include "tcc/Frontend/nn/Arg.h"

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <queue>
#include <thread>
#include <utility>
#include <vector>

namespace tcc {
namespace data {

struct DataLoaderOptions {
  DataLoaderOptions() = default;
  /* implicit */ DataLoaderOptions(size_t batch_size)
      : batch_size_(batch_size) {}
  TCC_ARG(size_t, batch_size) = 1;
  TCC_ARG(size_t, workers) = 0;
  TCC_ARG(std::optional<size_t>, max_jobs);
  TCC_ARG(bool, enforce_ordering) = true;
  TCC_ARG(bool, drop_last) = false;
};

namespace detail {
[[noreturn]] void throwDataLoaderError(const std::string &message);
}

template <class Loader> class Iterator;

template <class Dataset, class Sampler> class StatelessDataLoader {
public:
  using BatchType = typename Dataset::BatchType;
  using BatchRequestType = typename Sampler::BatchRequestType;

  StatelessDataLoader(Dataset dataset, Sampler sampler,
                      DataLoaderOptions options)
      : dataset_(std::move(dataset)), sampler_(std::move(sampler)),
        options_(std::move(options)) {
    if (options_.batch_size() == 0)
      detail::throwDataLoaderError("DataLoader: batch_size must be positive");
    maxJobs_ = options_.max_jobs().value_or(2 * options_.workers());
    if (options_.workers() > 0 && maxJobs_ == 0)
      detail::throwDataLoaderError("DataLoader: max_jobs must be positive");
    for (size_t w = 0; w < options_.workers(); ++w)
      workers_.emplace_back(
          [this, copy = dataset_]() mutable { workerLoop(copy); });
  }
  StatelessDataLoader(const StatelessDataLoader &) = delete;
  StatelessDataLoader &operator=(const StatelessDataLoader &) = delete;
  ~StatelessDataLoader() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    jobReady_.notify_all();
    for (std::thread &t : workers_)
      t.join();
  }

  Iterator<StatelessDataLoader> begin() {
    startEpoch();
    return Iterator<StatelessDataLoader>(this);
  }
  Iterator<StatelessDataLoader> end() {
    return Iterator<StatelessDataLoader>();
  }
  const DataLoaderOptions &options() const noexcept { return options_; }

  /// The next batch of this epoch, or nothing at its end.
  std::optional<BatchType> next() {
    if (workers_.empty()) {
      std::optional<BatchRequestType> indices = nextIndices();
      if (!indices)
        return std::nullopt;
      return dataset_.get_batch(std::move(*indices));
    }
    std::unique_lock<std::mutex> lock(mu_);
    while (true) {
      fillJobsLocked();
      if (inFlight_ == 0 && !pendingResult())
        return std::nullopt;
      resultReady_.wait(lock, [&] { return pendingResult(); });
      auto it = options_.enforce_ordering() ? results_.find(nextResult_)
                                            : results_.begin();
      Result r = std::move(it->second);
      results_.erase(it);
      ++nextResult_;
      --inFlight_;
      fillJobsLocked();
      if (r.error)
        std::rethrow_exception(r.error);
      return std::move(r.batch);
    }
  }

private:
  struct Job {
    size_t epoch, sequence;
    BatchRequestType indices;
  };
  struct Result {
    std::optional<BatchType> batch;
    std::exception_ptr error;
  };

  std::optional<BatchRequestType> nextIndices() {
    if (exhausted_)
      return std::nullopt;
    std::optional<BatchRequestType> indices =
        sampler_.next(options_.batch_size());
    if (!indices || indices->size() == 0 ||
        (options_.drop_last() && indices->size() < options_.batch_size())) {
      exhausted_ = true;
      return std::nullopt;
    }
    return indices;
  }

  void startEpoch() {
    std::unique_lock<std::mutex> lock(mu_);
    // Abandon what an unfinished epoch still has in flight.
    ++epoch_;
    std::queue<Job>().swap(jobs_);
    results_.clear();
    inFlight_ = 0;
    nextSequence_ = nextResult_ = 0;
    sampler_.reset(std::nullopt);
    exhausted_ = false;
  }

  bool pendingResult() const {
    return options_.enforce_ordering() ? results_.count(nextResult_) != 0
                                       : !results_.empty();
  }

  void fillJobsLocked() {
    while (inFlight_ < maxJobs_) {
      std::optional<BatchRequestType> indices = nextIndices();
      if (!indices)
        break;
      jobs_.push(Job{epoch_, nextSequence_++, std::move(*indices)});
      ++inFlight_;
      jobReady_.notify_one();
    }
  }

  void workerLoop(Dataset &dataset) {
    while (true) {
      Job job;
      {
        std::unique_lock<std::mutex> lock(mu_);
        jobReady_.wait(lock, [&] { return stop_ || !jobs_.empty(); });
        if (stop_)
          return;
        job = std::move(jobs_.front());
        jobs_.pop();
      }
      Result r;
      try {
        r.batch = dataset.get_batch(std::move(job.indices));
      } catch (...) {
        r.error = std::current_exception();
      }
      {
        std::lock_guard<std::mutex> lock(mu_);
        if (job.epoch != epoch_)
          continue; // an abandoned epoch's batch
        results_.emplace(job.sequence, std::move(r));
      }
      resultReady_.notify_all();
    }
  }

  Dataset dataset_;
  Sampler sampler_;
  DataLoaderOptions options_;
  size_t maxJobs_ = 0;
  bool exhausted_ = true;

  std::mutex mu_;
  std::condition_variable jobReady_, resultReady_;
  std::queue<Job> jobs_;
  std::map<size_t, Result> results_;
  size_t epoch_ = 0, inFlight_ = 0, nextSequence_ = 0, nextResult_ = 0;
  bool stop_ = false;
  std::vector<std::thread> workers_;
};

/// The loader's input iterator: `*it` is the current batch (Batch&).
template <class Loader> class Iterator {
public:
  using BatchType = typename Loader::BatchType;
  using iterator_category = std::input_iterator_tag;
  using value_type = BatchType;
  using difference_type = std::ptrdiff_t;
  using pointer = BatchType *;
  using reference = BatchType &;

  Iterator() = default;
  explicit Iterator(Loader *loader) : loader_(loader) {
    batch_ = loader_->next();
  }

  BatchType &operator*() {
    check();
    return *batch_;
  }
  BatchType *operator->() { return &**this; }
  Iterator &operator++() {
    check();
    batch_ = loader_->next();
    return *this;
  }
  void operator++(int) { ++*this; }
  bool operator==(const Iterator &o) const { return atEnd() == o.atEnd(); }
  bool operator!=(const Iterator &o) const { return !(*this == o); }

private:
  bool atEnd() const { return !loader_ || !batch_; }
  void check() const {
    if (atEnd())
      detail::throwDataLoaderError("Attempted to dereference or increment an "
                                   "iterator that is at the end of its "
                                   "DataLoader epoch");
  }
  Loader *loader_ = nullptr;
  std::optional<BatchType> batch_;
};

/// A loader over `dataset` with `Sampler` (RandomSampler by default, as in
/// libtorch; SequentialSampler keeps the order).
template <class Sampler = samplers::RandomSampler, class Dataset>
std::unique_ptr<StatelessDataLoader<Dataset, Sampler>>
make_data_loader(Dataset dataset,
                 DataLoaderOptions options = DataLoaderOptions()) {
  std::optional<size_t> size = dataset.size();
  if (!size)
    detail::throwDataLoaderError("Expected the dataset to be sized in order "
                                 "to construct the Sampler");
  Sampler sampler(*size);
  return std::make_unique<StatelessDataLoader<Dataset, Sampler>>(
      std::move(dataset), std::move(sampler), std::move(options));
}

template <class Sampler = samplers::RandomSampler, class Dataset>
std::unique_ptr<StatelessDataLoader<Dataset, Sampler>>
make_data_loader(Dataset dataset, size_t batch_size) {
  return make_data_loader<Sampler>(std::move(dataset),
                                   DataLoaderOptions().batch_size(batch_size));
}

/// With a sampler object (e.g. a distributed one).
template <
    class Dataset, class Sampler,
    class = std::enable_if_t<std::is_base_of<
        samplers::Sampler<typename Sampler::BatchRequestType>, Sampler>::value>>
std::unique_ptr<StatelessDataLoader<Dataset, Sampler>>
make_data_loader(Dataset dataset, Sampler sampler,
                 DataLoaderOptions options = DataLoaderOptions()) {
  return std::make_unique<StatelessDataLoader<Dataset, Sampler>>(
      std::move(dataset), std::move(sampler), std::move(options));
}

} // namespace data
} // namespace tcc

#endif // TCC_FRONTEND_DATA_DATALOADER_H
