//===- digits_ddp.cpp - The digits CNN trained on several processes -------===//
//
// Data-parallel training with tcc::distributed: start N copies with mpirun;
// each takes its own shard of the training split (DistributedRandomSampler)
// and a batch of batch-size / N, DistributedDataParallel averages the
// gradients during backward, so every copy makes the same Adam step.
// Rank 0 evaluates, prints and writes the checkpoint; `--resume` makes
// every rank continue from it.
//
//   mpirun --allow-run-as-root --oversubscribe -np 2 \
//       digits_ddp --data DIR [--epochs 15] [--batch-size 32] [--lr 0.002]
//       [--checkpoint FILE [--resume] [--stop-after E]] [--min-accuracy 0.95]
//
//===----------------------------------------------------------------------===//

#include "../digits_cnn/DigitsNet.h"

#include "tcc/data.h"
#include "tcc/distributed.h"
#include "tcc/nn.h"
#include "tcc/optim.h"

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace tcc;

namespace {

const char *kUsage =
    "usage: mpirun [--allow-run-as-root] [--oversubscribe] -np N digits_ddp\n"
    "           --data DIR [--epochs 15] [--batch-size 32] [--lr 0.002]\n"
    "           [--checkpoint FILE [--resume] [--stop-after E]]\n"
    "           [--min-accuracy 0.95]\n"
    "Trains the digits CNN on N processes (one per MPI rank): each takes its\n"
    "shard of the training split and batch-size/N images per step, and\n"
    "DistributedDataParallel averages the gradients during backward. Rank 0\n"
    "prints, evaluates and writes the checkpoint; --resume continues every\n"
    "rank from it. Exit status 1 when the final test accuracy is below\n"
    "--min-accuracy.\n";

struct Options {
  std::string data, checkpoint;
  int64_t epochs = 15, batchSize = 32, stopAfter = -1;
  double lr = 2e-3, minAccuracy = 0.95;
  bool resume = false;
};

Options parse(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n%s", a.c_str(), kUsage);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      std::printf("%s", kUsage);
      std::exit(0);
    } else if (a == "--data")
      o.data = value();
    else if (a == "--epochs")
      o.epochs = std::atoll(value().c_str());
    else if (a == "--batch-size")
      o.batchSize = std::atoll(value().c_str());
    else if (a == "--lr")
      o.lr = std::atof(value().c_str());
    else if (a == "--checkpoint")
      o.checkpoint = value();
    else if (a == "--resume")
      o.resume = true;
    else if (a == "--stop-after")
      o.stopAfter = std::atoll(value().c_str());
    else if (a == "--min-accuracy")
      o.minAccuracy = std::atof(value().c_str());
    else {
      std::fprintf(stderr, "unknown argument %s\n%s", a.c_str(), kUsage);
      std::exit(2);
    }
  }
  if (o.data.empty() || o.batchSize <= 0 || o.epochs <= 0 ||
      (o.resume && o.checkpoint.empty())) {
    std::fprintf(stderr, "%s", kUsage);
    std::exit(2);
  }
  return o;
}

/// Test-split accuracy (rank 0 only).
double evaluate(DigitsNet &model, const std::string &dir) {
  NoGradGuard noGrad;
  model->eval();
  data::datasets::MNIST test(dir, data::datasets::MNIST::Mode::kTest);
  Tensor out = model((test.images() - 0.5) / 0.5);
  model->train();
  return out.argmax(1).eq(test.targets()).to(kDouble).mean().item<double>();
}

} // namespace

int main(int argc, char **argv) {
  Options o = parse(argc, argv);
  auto group = distributed::init_process_group("mpi");
  int rank = group->rank(), world = group->size();
  if (o.batchSize % world) {
    if (rank == 0)
      std::fprintf(stderr, "--batch-size %lld does not divide among %d ranks\n",
                   static_cast<long long>(o.batchSize), world);
    return 2;
  }

  manual_seed(7); // the same start everywhere (DDP broadcasts rank 0's anyway)
  DigitsNet model;
  nn::parallel::DistributedDataParallel<DigitsNet> ddp(model);
  optim::Adam adam(model->parameters(), optim::AdamOptions(o.lr));
  auto train = data::datasets::MNIST(o.data)
                   .map(data::transforms::Normalize<>(0.5, 0.5))
                   .map(data::transforms::Stack<>());
  size_t trainSize = train.size().value();
  auto loader = data::make_data_loader(
      std::move(train),
      data::samplers::DistributedRandomSampler(trainSize, size_t(world),
                                               size_t(rank)),
      data::DataLoaderOptions().batch_size(size_t(o.batchSize / world)));

  int64_t start = 0;
  if (o.resume) {
    serialize::Checkpoint info =
        distributed::load_checkpoint(*group, o.checkpoint, *model, adam);
    start = info.epoch;
    if (rank == 0)
      std::printf("resumed from %s after epoch %lld\n", o.checkpoint.c_str(),
                  static_cast<long long>(start));
  }

  double accuracy = 0;
  for (int64_t epoch = start + 1; epoch <= o.epochs; ++epoch) {
    Tensor total = zeros({2}, kDouble); // loss sum, samples: summed over ranks
    for (auto &batch : *loader) {
      adam.zero_grad();
      Tensor loss = nll_loss(ddp(batch.data), batch.target);
      loss.backward(); // gradients averaged across ranks here
      adam.step();
      total[0] += loss.item<double>() * double(batch.data.size(0));
      total[1] += double(batch.data.size(0));
    }
    group->allreduce(total);
    if (rank == 0) {
      accuracy = evaluate(model, o.data);
      std::printf("epoch %2lld: %d ranks, train loss %.4f, test accuracy %.4f\n",
                  static_cast<long long>(epoch), world,
                  (total[0] / total[1]).item<double>(), accuracy);
      std::fflush(stdout);
    }
    if (!o.checkpoint.empty())
      distributed::save_checkpoint(*group, o.checkpoint, *model, adam,
                                   {epoch, {{"note", "digits_ddp"}}});
    if (epoch == o.stopAfter) {
      if (rank == 0)
        std::printf("stopping after epoch %lld (checkpoint: %s)\n",
                    static_cast<long long>(epoch), o.checkpoint.c_str());
      return 0;
    }
  }
  if (rank == 0 && start >= o.epochs)
    accuracy = evaluate(model, o.data);
  // Every replica ends equal: rank 0 prints the spread it measured.
  Tensor digest = zeros({1}, kDouble);
  for (const Tensor &p : model->parameters())
    digest += (p.to(kDouble) * p.to(kDouble)).sum();
  Tensor digests = group->allgather(digest);
  Tensor verdict = full({1}, accuracy >= o.minAccuracy ? 0 : 1, kInt);
  group->broadcast(verdict, 0);
  if (rank == 0)
    std::printf("final test accuracy %.4f, parameter digests of the %d ranks "
                "differ by %.3g\n",
                accuracy, world,
                (digests.max() - digests.min()).item<double>());
  return verdict.item<int>();
}
