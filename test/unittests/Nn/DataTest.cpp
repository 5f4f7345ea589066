//===- DataTest.cpp - Datasets, transforms, samplers, data loaders --------===//

#include "TestSupport.h"

#include "tcc/data.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <set>

using namespace tcc;
namespace dd = tcc::data;

namespace {

/// Example i is (data [i, i], target i).
struct CountingDataset : dd::datasets::Dataset<CountingDataset> {
  explicit CountingDataset(size_t n) : n(n) {}
  dd::Example<> get(size_t index) override {
    if (index == failAt)
      detail::throwError("example " + std::to_string(index) + " is broken");
    double v = double(index);
    return {tensor({v, v}), tensor(int64_t(index))};
  }
  std::optional<size_t> size() const override { return n; }
  size_t n;
  size_t failAt = SIZE_MAX;
};

std::vector<int64_t> targetsOf(const dd::Example<> &batch) {
  std::vector<int64_t> out;
  for (int64_t i = 0; i < batch.target.size(0); ++i)
    out.push_back(batch.target[i].item<int64_t>());
  return out;
}

void writeIdx(const std::string &path, uint32_t magic,
              const std::vector<uint32_t> &dims,
              const std::vector<uint8_t> &data, size_t truncateTo = SIZE_MAX) {
  std::string bytes;
  auto put32 = [&](uint32_t v) {
    for (int s = 24; s >= 0; s -= 8)
      bytes += char((v >> s) & 0xFF);
  };
  put32(magic);
  for (uint32_t d : dims)
    put32(d);
  bytes.append(data.begin(), data.end());
  if (truncateTo < bytes.size())
    bytes.resize(truncateTo);
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string mnistDir(const std::string &name) {
  std::string dir = ::testing::TempDir() + "tcc_mnist_" + name;
  std::string cmd = "rm -rf '" + dir + "' && mkdir -p '" + dir + "'";
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  return dir;
}

} // namespace

TEST(DatasetTest, MapNormalizeStackAndLambda) {
  auto ds =
      CountingDataset(5)
          .map(dd::transforms::TensorLambda<>([](Tensor t) { return t * 2; }))
          .map(dd::transforms::Stack<>());
  EXPECT_EQ(ds.size().value(), 5u);
  std::vector<size_t> idx = {3, 1};
  dd::Example<> batch = ds.get_batch(idx);
  EXPECT_TENSOR(batch.data, {2, 2}, {6, 6, 2, 2});
  EXPECT_EQ(targetsOf(batch), (std::vector<int64_t>{3, 1}));

  dd::transforms::Normalize<> norm({0.5, 1.0}, {2.0, 4.0});
  Tensor x = ones({2, 1, 2});
  EXPECT_TENSOR(norm(x), {2, 1, 2}, {0.25, 0.25, 0.0, 0.0});
  dd::transforms::Normalize<> single(0.5, 0.25);
  EXPECT_TENSOR(single(ones({1, 1, 1})), {1, 1, 1}, {2.0});

  auto tds = dd::datasets::TensorDataset(arange(6, kFloat).reshape({3, 2}))
                 .map(dd::transforms::Stack<dd::TensorExample>());
  std::vector<size_t> two = {2, 0};
  EXPECT_TENSOR(tds.get_batch(two).data, {2, 2}, {4, 5, 0, 1});

  dd::transforms::Lambda<dd::Example<>> addOne(
      [](dd::Example<> e) { return dd::Example<>(e.data + 1, e.target); });
  auto lam = CountingDataset(2).map(addOne);
  std::vector<size_t> one = {1};
  EXPECT_TENSOR(lam.get_batch(one)[0].data, {2}, {2, 2});
}

TEST(SamplerTest, SequentialRandomAndSeeded) {
  dd::samplers::SequentialSampler seq(5);
  EXPECT_EQ(*seq.next(2), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(*seq.next(2), (std::vector<size_t>{2, 3}));
  EXPECT_EQ(*seq.next(2), (std::vector<size_t>{4}));
  EXPECT_FALSE(seq.next(2).has_value());
  seq.reset();
  EXPECT_EQ(seq.next(1)->front(), 0u);

  manual_seed(7);
  dd::samplers::RandomSampler random(10);
  std::vector<size_t> all;
  while (auto b = random.next(3))
    all.insert(all.end(), b->begin(), b->end());
  std::vector<size_t> sorted = all;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < 10; ++i)
    EXPECT_EQ(sorted[i], i);
  manual_seed(7);
  dd::samplers::RandomSampler again(10);
  EXPECT_EQ(*again.next(10), all); // manual_seed reproduces the order

  dd::samplers::RandomSampler s1(8, uint64_t(42)), s2(8, uint64_t(42));
  randn({5}); // the global generator does not matter to a seeded sampler
  EXPECT_EQ(*s1.next(8), *s2.next(8));
  std::vector<size_t> epoch0 =
      *dd::samplers::RandomSampler(8, uint64_t(42)).next(8);
  s1.reset();
  EXPECT_NE(*s1.next(8), epoch0); // a new permutation each epoch
}

TEST(SamplerTest, DistributedSplitsAnEpochAcrossReplicas) {
  for (bool shuffle : {false, true}) {
    std::vector<size_t> seen;
    for (size_t rank = 0; rank < 3; ++rank) {
      std::vector<size_t> mine;
      auto collect = [&](dd::samplers::Sampler<> &s) {
        s.reset(std::nullopt);
        while (auto b = s.next(2))
          mine.insert(mine.end(), b->begin(), b->end());
      };
      if (shuffle) {
        dd::samplers::DistributedRandomSampler s(10, 3, rank);
        s.set_epoch(4);
        collect(s);
      } else {
        dd::samplers::DistributedSequentialSampler s(10, 3, rank);
        collect(s);
      }
      EXPECT_EQ(mine.size(), 4u); // ceil(10 / 3), padded by wrapping around
      seen.insert(seen.end(), mine.begin(), mine.end());
    }
    std::set<size_t> unique(seen.begin(), seen.end());
    EXPECT_EQ(unique.size(), 10u); // together they cover the dataset
  }
  dd::samplers::DistributedSequentialSampler exact(10, 3, 2, false);
  exact.reset();
  EXPECT_EQ(*exact.next(10), (std::vector<size_t>{6, 7, 8})); // no duplicates
  EXPECT_ERROR_CONTAINS(dd::samplers::DistributedRandomSampler(4, 2, 2),
                        "rank 2 is not below num_replicas 2");
}

TEST(DataLoaderTest, BatchesInOrderWithDropLast) {
  auto loader = dd::make_data_loader<dd::samplers::SequentialSampler>(
      CountingDataset(7).map(dd::transforms::Stack<>()), 3);
  std::vector<std::vector<int64_t>> batches;
  for (auto &batch : *loader) // Batch&, as in libtorch
    batches.push_back(targetsOf(batch));
  EXPECT_EQ(batches,
            (std::vector<std::vector<int64_t>>{{0, 1, 2}, {3, 4, 5}, {6}}));

  auto dropping = dd::make_data_loader<dd::samplers::SequentialSampler>(
      CountingDataset(7).map(dd::transforms::Stack<>()),
      dd::DataLoaderOptions().batch_size(3).drop_last(true));
  size_t count = 0;
  for (const auto &batch : *dropping) {
    EXPECT_EQ(batch.data.size(0), 3);
    ++count;
  }
  EXPECT_EQ(count, 2u);
  count = 0;
  for (auto it = dropping->begin(); it != dropping->end(); ++it) // a 2nd epoch
    ++count;
  EXPECT_EQ(count, 2u);
}

TEST(DataLoaderTest, WorkersPrefetchInOrderAndShuffleCoversAll) {
  for (size_t workers : {1, 3}) {
    auto loader = dd::make_data_loader<dd::samplers::SequentialSampler>(
        CountingDataset(50).map(dd::transforms::Stack<>()),
        dd::DataLoaderOptions().batch_size(4).workers(workers));
    for (int epoch = 0; epoch < 2; ++epoch) {
      std::vector<int64_t> order;
      for (auto &batch : *loader) {
        auto t = targetsOf(batch);
        order.insert(order.end(), t.begin(), t.end());
        EXPECT_TRUE(batch.data.select(1, 0).equal(batch.target.to(kFloat)));
      }
      std::vector<int64_t> expected(50);
      std::iota(expected.begin(), expected.end(), 0);
      EXPECT_EQ(order, expected) << workers << " workers, epoch " << epoch;
    }
  }
  manual_seed(3);
  auto shuffled =
      dd::make_data_loader(CountingDataset(20).map(dd::transforms::Stack<>()),
                           dd::DataLoaderOptions().batch_size(6).workers(2));
  std::vector<int64_t> seen;
  for (auto &batch : *shuffled) {
    auto t = targetsOf(batch);
    seen.insert(seen.end(), t.begin(), t.end());
  }
  std::vector<int64_t> sorted = seen;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int64_t> expected(20);
  std::iota(expected.begin(), expected.end(), 0);
  EXPECT_EQ(sorted, expected);
  EXPECT_NE(seen, expected); // RandomSampler is the default, as in libtorch
}

TEST(DataLoaderTest, UnorderedWorkersAndAbandonedEpochs) {
  auto loader = dd::make_data_loader<dd::samplers::SequentialSampler>(
      CountingDataset(30).map(dd::transforms::Stack<>()),
      dd::DataLoaderOptions().batch_size(5).workers(2).enforce_ordering(false));
  auto it = loader->begin();
  ++it; // leave the epoch half done
  std::multiset<int64_t> seen;
  for (auto &batch : *loader)
    for (int64_t t : targetsOf(batch))
      seen.insert(t);
  EXPECT_EQ(seen.size(), 30u);
  EXPECT_EQ(std::set<int64_t>(seen.begin(), seen.end()).size(), 30u);
}

TEST(DataLoaderTest, ErrorsFromDatasetsReachTheLoop) {
  for (size_t workers : {0, 2}) {
    CountingDataset broken(10);
    broken.failAt = 6;
    auto loader = dd::make_data_loader<dd::samplers::SequentialSampler>(
        broken.map(dd::transforms::Stack<>()),
        dd::DataLoaderOptions().batch_size(4).workers(workers));
    auto consume = [&] {
      for (auto &batch : *loader)
        (void)batch;
    };
    EXPECT_ERROR_CONTAINS(consume(), "example 6 is broken");
  }
  EXPECT_ERROR_CONTAINS(
      dd::make_data_loader(CountingDataset(3),
                           dd::DataLoaderOptions().batch_size(0)),
      "batch_size must be positive");
}

TEST(MNISTTest, ReadsIdxFilesAndRejectsBadOnes) {
  std::string dir = mnistDir("good");
  // Two 2x3 images and their labels.
  writeIdx(dir + "/train-images-idx3-ubyte", 0x803, {2, 2, 3},
           {0, 51, 102, 153, 204, 255, 255, 0, 0, 0, 0, 255});
  writeIdx(dir + "/train-labels-idx1-ubyte", 0x801, {2}, {7, 3});
  dd::datasets::MNIST mnist(dir);
  EXPECT_EQ(mnist.size().value(), 2u);
  EXPECT_TRUE(mnist.is_train());
  dd::Example<> e = mnist.get(0);
  EXPECT_TENSOR(e.data, {1, 2, 3}, {0, 0.2, 0.4, 0.6, 0.8, 1.0}, 1e-6);
  EXPECT_EQ(e.target.item<int64_t>(), 7);
  EXPECT_EQ(mnist.targets().dtype(), kLong);

  auto batches = dd::make_data_loader<dd::samplers::SequentialSampler>(
      dd::datasets::MNIST(dir)
          .map(dd::transforms::Normalize<>(0.5, 0.5))
          .map(dd::transforms::Stack<>()),
      2);
  for (auto &batch : *batches) {
    EXPECT_EQ(batch.data.sizes(), IntArrayRef({2, 1, 2, 3}));
    EXPECT_NEAR(batch.data[1][0][0][0].item<float>(), 1.0, 1e-6);
  }

  std::string bad = mnistDir("bad");
  EXPECT_ERROR_CONTAINS(dd::datasets::MNIST{bad}, "train-images-idx3-ubyte");
  writeIdx(bad + "/train-images-idx3-ubyte", 0x801, {2, 2, 3},
           std::vector<uint8_t>(12));
  EXPECT_ERROR_CONTAINS(dd::datasets::MNIST{bad}, "wrong magic number 0x801");
  writeIdx(bad + "/train-images-idx3-ubyte", 0x803, {2, 2, 3},
           std::vector<uint8_t>(12), 20);
  EXPECT_ERROR_CONTAINS(dd::datasets::MNIST{bad}, "truncated IDX images file");
  writeIdx(bad + "/train-images-idx3-ubyte", 0x803, {2, 2, 3},
           std::vector<uint8_t>(12), 9);
  EXPECT_ERROR_CONTAINS(dd::datasets::MNIST{bad}, "shorter than its header");
  writeIdx(bad + "/train-images-idx3-ubyte", 0x803,
           {0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF}, std::vector<uint8_t>(12));
  EXPECT_ERROR_CONTAINS(dd::datasets::MNIST{bad}, "truncated IDX images file");
  writeIdx(bad + "/train-images-idx3-ubyte", 0x803, {2, 2, 3},
           std::vector<uint8_t>(12));
  writeIdx(bad + "/train-labels-idx1-ubyte", 0x801, {3}, {1, 2, 3});
  EXPECT_ERROR_CONTAINS(dd::datasets::MNIST{bad}, "2 images but 3 labels");
  writeIdx(bad + "/train-labels-idx1-ubyte", 0x801, {2}, {1, 12});
  EXPECT_ERROR_CONTAINS(dd::datasets::MNIST{bad}, "labels must be digits");
  EXPECT_ERROR_CONTAINS(
      dd::datasets::MNIST(bad, dd::datasets::MNIST::Mode::kTest),
      "t10k-images-idx3-ubyte");
}
