//===- DistributedDataParallelTest.cpp - DDP against one process ----------===//
//
// Run by ctest under `mpirun -np 2` with `--data DIR` (the digits set as
// 8x8 MNIST files). The reference is computed on every rank without any
// communication: the same model trained by one process on the whole batch.
//
//===----------------------------------------------------------------------===//

#include "tcc/Distributed/Checkpoint.h"
#include "tcc/Distributed/DistributedDataParallel.h"
#include "tcc/data.h"
#include "tcc/distributed.h"
#include "tcc/nn.h"
#include "tcc/optim.h"
#include "tcc/tcc.h"

#include "../../../examples/digits_cnn/DigitsNet.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <unistd.h>

using namespace tcc;
using namespace tcc::distributed;
using tcc::nn::parallel::DistributedDataParallel;
using tcc::nn::parallel::DistributedDataParallelOptions;

namespace {

std::string dataDir;
distributed::ProcessGroup &pg() { return default_group(); }

double maxDifference(nn::Module &a, nn::Module &b) {
  auto pa = a.named_parameters(), pb = b.named_parameters();
  double worst = 0;
  for (const auto &item : pa) {
    Tensor d = (item.value() - pb[item.key()]).abs().max();
    worst = std::max(worst, d.item<double>());
  }
  return worst;
}

/// A folder every rank sees: rank 0 creates it and broadcasts its name.
std::string sharedTempDir() {
  Tensor path = zeros({256}, kByte);
  if (pg().rank() == 0) {
    char dir[] = "/tmp/tcc-ddp-XXXXXX";
    if (!mkdtemp(dir))
      throw std::runtime_error("mkdtemp failed");
    std::memcpy(path.data_ptr(), dir, sizeof(dir));
  }
  pg().broadcast(path);
  return std::string(static_cast<const char *>(path.data_ptr()));
}

/// Trains `steps` steps of batch 64 both ways and checks after each step
/// that the replicas equal the single-process model.
void trainAgainstOneProcess(DistributedDataParallelOptions options,
                            size_t expectBuckets) {
  ASSERT_EQ(pg().size(), 2) << "the halves of the batch assume 2 ranks";
  data::datasets::MNIST digits(dataDir);
  const int64_t batch = 64, half = batch / 2;

  manual_seed(7);
  DigitsNet reference;
  manual_seed(7 + uint64_t(pg().rank()) * 1000); // rank 1 starts elsewhere
  DigitsNet replica;
  for (DigitsNet *net : {&reference, &replica})
    (*net)->dropout->options.p(0.0);
  DistributedDataParallel<DigitsNet> ddp(replica, options);
  EXPECT_EQ(ddp.reducer().buckets().size(), expectBuckets);
  // Construction broadcast rank 0's parameters.
  ASSERT_EQ(maxDifference(*reference, *replica), 0.0);

  optim::SGD refOpt(reference->parameters(),
                    optim::SGDOptions(0.05).momentum(0.9));
  optim::SGD opt(replica->parameters(), optim::SGDOptions(0.05).momentum(0.9));
  Tensor before = reference->fc2->weight.clone();
  const double kTolerance = 2e-5;
  for (int64_t step = 0; step < 6; ++step) {
    Tensor x = digits.images().narrow(0, step * batch, batch);
    Tensor y = digits.targets().narrow(0, step * batch, batch);

    refOpt.zero_grad();
    nll_loss(reference(x), y).backward();
    refOpt.step();

    opt.zero_grad();
    Tensor mine = x.narrow(0, pg().rank() * half, half);
    Tensor mineY = y.narrow(0, pg().rank() * half, half);
    nll_loss(ddp(mine), mineY).backward();
    opt.step();

    // Float rounding differs (sums over 32 + 32 samples and their average
    // against one sum over 64), by a few ulps of the weights per step.
    EXPECT_LT(maxDifference(*reference, *replica), kTolerance)
        << "after step " << step;
  }
  // Training moved the weights far beyond that tolerance.
  EXPECT_GT((reference->fc2->weight - before).abs().max().item<double>(),
            100 * kTolerance);
}

TEST(DistributedDataParallel, DigitsCnnMatchesOneProcessOnTheWholeBatch) {
  // Default 25 MiB buckets: the CNN's 38 KiB of gradients make one.
  trainAgainstOneProcess(DistributedDataParallelOptions(), 1);
}

TEST(DistributedDataParallel, SmallBucketsGiveTheSameSteps) {
  // 16 KiB buckets: three (BucketsFollowReverseRegistrationOrder).
  trainAgainstOneProcess(DistributedDataParallelOptions().bucket_cap_mb(1.0 / 64), 3);
}

TEST(DistributedDataParallel, OverlapOffGivesTheSameSteps) {
  trainAgainstOneProcess(
      DistributedDataParallelOptions().bucket_cap_mb(1.0 / 64).overlap(false), 3);
}

TEST(DistributedDataParallel, BucketsFollowReverseRegistrationOrder) {
  DigitsNet net;
  DistributedDataParallel<DigitsNet> ddp(net, DistributedDataParallelOptions().bucket_cap_mb(1.0 / 64));
  std::vector<std::vector<std::string>> names;
  for (const auto &b : ddp.reducer().buckets()) {
    names.emplace_back();
    for (size_t k : b.params)
      names.back().push_back(ddp.reducer().parameters()[k].first);
  }
  // 16 KiB buckets, closed once full: fc1.weight (128 KiB) fills the
  // first, conv2.weight (18 KiB) the second.
  std::vector<std::vector<std::string>> expected = {
      {"fc2.bias", "fc2.weight", "fc1.bias", "fc1.weight"},
      {"conv2.bias", "conv2.weight"},
      {"conv1.bias", "conv1.weight"}};
  EXPECT_EQ(names, expected);
}

/// y = w . x with a known gradient: d(sum y)/dw = sum of x's rows.
struct DotImpl : nn::Module {
  DotImpl() : fc(register_module("fc", nn::Linear(nn::LinearOptions(3, 1).bias(false)))) {}
  Tensor forward(Tensor x) { return fc(x); }
  nn::Linear fc;
};
TCC_MODULE(Dot);

Tensor rowsOf(int rank, int step) {
  // Rank r, step s: 2 rows with entries r + s + column.
  Tensor x = empty({2, 3});
  for (int i = 0; i < 2; ++i)
    for (int c = 0; c < 3; ++c)
      x[i][c].fill_(double(rank + step + c + i));
  return x;
}

TEST(DistributedDataParallel, NoSyncAccumulatesLocallyThenAverages) {
  Dot dot;
  DistributedDataParallel<Dot> ddp(dot);
  auto localGrad = [&](int rank, int step) {
    return rowsOf(rank, step).sum(0).unsqueeze(0);
  };
  {
    auto guard = ddp.no_sync();
    ddp(rowsOf(pg().rank(), 0)).sum().backward();
    // Nothing was exchanged: this rank's own gradient.
    EXPECT_TRUE(allclose(dot->fc->weight.grad(), localGrad(pg().rank(), 0)));
  }
  ddp(rowsOf(pg().rank(), 1)).sum().backward();
  // Both steps' sums, averaged over the ranks.
  Tensor expected = zeros({1, 3});
  for (int r = 0; r < pg().size(); ++r)
    expected += localGrad(r, 0) + localGrad(r, 1);
  expected /= double(pg().size());
  EXPECT_TRUE(allclose(dot->fc->weight.grad(), expected))
      << dot->fc->weight.grad() << " vs " << expected;
}

struct TwoBranchesImpl : nn::Module {
  TwoBranchesImpl()
      : first(register_module("first", nn::Linear(3, 2))),
        second(register_module("second", nn::Linear(3, 2))) {}
  Tensor forward(Tensor x, bool useSecond) {
    Tensor y = first(x);
    return useSecond ? y + second(x) : y;
  }
  nn::Linear first, second;
};
TCC_MODULE(TwoBranches);

TEST(DistributedDataParallel, FindUnusedParametersAveragesWithZeros) {
  TwoBranches net;
  DistributedDataParallel<TwoBranches> ddp(
      net, DistributedDataParallelOptions().find_unused_parameters(true));
  // Rank 0 uses both branches, the others the first only.
  bool useSecond = pg().rank() == 0;
  Tensor x = ones({4, 3});
  ddp(x, useSecond).sum().backward();
  if (useSecond)
    EXPECT_TRUE(ddp.reducer().last_unused().empty());
  else
    EXPECT_EQ(ddp.reducer().last_unused(),
              (std::vector<std::string>{"second.weight", "second.bias"}));
  // d(sum)/d(second.bias) = 4 rows per output on rank 0, 0 elsewhere.
  EXPECT_TRUE(allclose(net->second->bias.grad(),
                       full({2}, 4.0 / pg().size())))
      << net->second->bias.grad();
  EXPECT_TRUE(allclose(net->first->bias.grad(), full({2}, 4.0)));
}

TEST(DistributedDataParallel, UnusedParameterWithoutDetectionIsNamedNextForward) {
  TwoBranches net;
  DistributedDataParallel<TwoBranches> ddp(net);
  Tensor x = ones({4, 3});
  ddp(x, false).sum().backward(); // no rank uses `second`
  try {
    ddp(x, false);
    FAIL() << "the unreduced bucket was not reported";
  } catch (const Error &e) {
    std::string m = e.what();
    EXPECT_NE(m.find("did not produce gradients for 2 parameter(s) "
                     "(second.weight, second.bias)"),
              std::string::npos) << m;
    EXPECT_NE(m.find("find_unused_parameters(true)"), std::string::npos) << m;
  }
}

TEST(DistributedDataParallel, ReplicasOfDifferentShapesAreNamed) {
  nn::Linear net(3, pg().rank() == 0 ? 2 : 4);
  try {
    DistributedDataParallel<nn::Linear> ddp(net);
    FAIL() << "different models were accepted";
  } catch (const Error &e) {
    std::string m = e.what();
    EXPECT_NE(m.find("tensor 'weight'"), std::string::npos) << m;
    EXPECT_NE(m.find("Float[2, 3]"), std::string::npos) << m;
    EXPECT_NE(m.find("Float[4, 3]"), std::string::npos) << m;
  }
}

TEST(DistributedCheckpoint, RankZeroWritesEveryRankResumes) {
  std::string dir = sharedTempDir();
  std::string path = dir + "/ddp.ckpt";
  data::datasets::MNIST digits(dataDir);
  auto batchOf = [&](int64_t step) {
    int64_t half = 32;
    return std::make_pair(
        digits.images().narrow(0, step * 64 + pg().rank() * half, half),
        digits.targets().narrow(0, step * 64 + pg().rank() * half, half));
  };
  auto trainStep = [&](DistributedDataParallel<DigitsNet> &ddp,
                       optim::SGD &opt, int64_t step) {
    auto [x, y] = batchOf(step);
    opt.zero_grad();
    nll_loss(ddp(x), y).backward();
    opt.step();
  };

  manual_seed(11);
  DigitsNet net;
  net->dropout->options.p(0.0);
  DistributedDataParallel<DigitsNet> ddp(net);
  optim::SGD opt(net->parameters(), optim::SGDOptions(0.05).momentum(0.9));
  for (int64_t step = 0; step < 2; ++step)
    trainStep(ddp, opt, step);
  serialize::Checkpoint info;
  info.epoch = 2;
  distributed::save_checkpoint(pg(), path, *net, opt, info);
  EXPECT_EQ(access(path.c_str(), R_OK), 0);

  // Fresh replicas, different on each rank, resume from the file.
  manual_seed(100 + uint64_t(pg().rank()));
  DigitsNet resumed;
  resumed->dropout->options.p(0.0);
  optim::SGD resumedOpt(resumed->parameters(),
                        optim::SGDOptions(0.05).momentum(0.9));
  serialize::Checkpoint back =
      distributed::load_checkpoint(pg(), path, *resumed, resumedOpt);
  EXPECT_EQ(back.epoch, 2);
  EXPECT_EQ(maxDifference(*net, *resumed), 0.0);
  DistributedDataParallel<DigitsNet> resumedDdp(resumed);

  // One more step each way: momentum came back too, so they stay equal.
  trainStep(ddp, opt, 2);
  trainStep(resumedDdp, resumedOpt, 2);
  EXPECT_EQ(maxDifference(*net, *resumed), 0.0);

  // A file no rank can read is an error on every rank.
  try {
    distributed::load_checkpoint(pg(), dir + "/missing.ckpt", *resumed, resumedOpt);
    FAIL() << "a missing checkpoint was loaded";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("rank(s) 0, 1 could not read"),
              std::string::npos) << e.what();
  }
  pg().barrier();
  if (pg().rank() == 0) {
    std::remove(path.c_str());
    rmdir(dir.c_str());
  }
}

} // namespace

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i + 1 < argc; ++i)
    if (!std::strcmp(argv[i], "--data"))
      dataDir = argv[i + 1];
  if (dataDir.empty()) {
    std::fprintf(stderr, "usage: %s --data DIGITS_IDX_DIR\n", argv[0]);
    return 2;
  }
  init_process_group("mpi");
  int failed = RUN_ALL_TESTS();
  Tensor anyFailed = full({1}, failed ? 1 : 0, kInt);
  default_group().allreduce(anyFailed, ReduceOp::Max);
  destroy_process_group();
  return anyFailed.item<int>();
}
