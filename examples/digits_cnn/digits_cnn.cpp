//===- digits_cnn.cpp - A CNN on handwritten digits, with checkpoints -----===//
//
// Trains a small convolutional network on the 8x8 digits set (as MNIST IDX
// files written by examples/digits_to_mnist.py: a fixed train/test split)
// with Adam, evaluates on the test split after every epoch, and saves a
// checkpoint (model, optimizer, epoch, random generator) after each one.
// `--resume` continues from the checkpoint exactly where training stopped:
// the final parameters equal those of an uninterrupted run.
//
//   digits_cnn --data DIR [--epochs 15] [--batch-size 32] [--lr 0.002]
//              [--workers 0] [--checkpoint FILE [--resume] [--stop-after E]]
//              [--save-model FILE] [--min-accuracy 0.95]
//
//===----------------------------------------------------------------------===//

#include "DigitsNet.h"

#include "tcc/data.h"
#include "tcc/nn.h"
#include "tcc/optim.h"
#include "tcc/serialize.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

using namespace tcc;

namespace {



struct Options {
  std::string data, checkpoint, saveModel;
  int64_t epochs = 15, batchSize = 32, workers = 0, stopAfter = -1;
  double lr = 2e-3, minAccuracy = 0.95;
  bool resume = false;
};

Options parse(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--data")
      o.data = value();
    else if (a == "--epochs")
      o.epochs = std::atoll(value().c_str());
    else if (a == "--batch-size")
      o.batchSize = std::atoll(value().c_str());
    else if (a == "--lr")
      o.lr = std::atof(value().c_str());
    else if (a == "--workers")
      o.workers = std::atoll(value().c_str());
    else if (a == "--checkpoint")
      o.checkpoint = value();
    else if (a == "--resume")
      o.resume = true;
    else if (a == "--stop-after")
      o.stopAfter = std::atoll(value().c_str());
    else if (a == "--save-model")
      o.saveModel = value();
    else if (a == "--min-accuracy")
      o.minAccuracy = std::atof(value().c_str());
    else {
      std::fprintf(stderr, "unknown argument %s\n", a.c_str());
      std::exit(2);
    }
  }
  if (o.data.empty()) {
    std::fprintf(stderr, "usage: digits_cnn --data DIR [options]\n");
    std::exit(2);
  }
  return o;
}

/// Test-split accuracy and mean loss.
std::pair<double, double> evaluate(DigitsNet &model, const std::string &dir) {
  NoGradGuard noGrad;
  model->eval();
  auto test = data::datasets::MNIST(dir, data::datasets::MNIST::Mode::kTest)
                  .map(data::transforms::Normalize<>(0.5, 0.5))
                  .map(data::transforms::Stack<>());
  size_t n = test.size().value();
  auto loader = data::make_data_loader<data::samplers::SequentialSampler>(
      std::move(test), 512);
  double loss = 0;
  int64_t correct = 0;
  for (auto &batch : *loader) {
    Tensor out = model(batch.data);
    loss += nll_loss(out, batch.target, {}, Reduction::Sum).item<double>();
    correct += out.argmax(1).eq(batch.target).sum().item<int64_t>();
  }
  model->train();
  return {double(correct) / double(n), loss / double(n)};
}

} // namespace

int main(int argc, char **argv) {
  Options o = parse(argc, argv);
  manual_seed(7);
  DigitsNet model;
  optim::Adam adam(model->parameters(), optim::AdamOptions(o.lr));
  auto train = data::datasets::MNIST(o.data)
                   .map(data::transforms::Normalize<>(0.5, 0.5))
                   .map(data::transforms::Stack<>());
  size_t trainSize = train.size().value();
  auto loader = data::make_data_loader( // shuffles: RandomSampler
      std::move(train), data::DataLoaderOptions()
                            .batch_size(size_t(o.batchSize))
                            .workers(size_t(o.workers)));

  int64_t start = 0;
  if (o.resume) {
    if (o.checkpoint.empty() || !std::ifstream(o.checkpoint)) {
      std::fprintf(stderr, "--resume needs an existing --checkpoint file\n");
      return 2;
    }
    serialize::Checkpoint info =
        serialize::load_checkpoint(o.checkpoint, *model, adam);
    start = info.epoch;
    std::printf("resumed from %s after epoch %lld (%s)\n", o.checkpoint.c_str(),
                static_cast<long long>(start), info.metadata["note"].c_str());
  }

  double accuracy = 0;
  for (int64_t epoch = start + 1; epoch <= o.epochs; ++epoch) {
    double total = 0;
    for (auto &batch : *loader) {
      adam.zero_grad();
      Tensor loss = nll_loss(model(batch.data), batch.target);
      loss.backward();
      adam.step();
      total += loss.item<double>() * double(batch.data.size(0));
    }
    auto [acc, testLoss] = evaluate(model, o.data);
    accuracy = acc;
    std::printf(
        "epoch %2lld: train loss %.4f, test loss %.4f, test accuracy %.4f\n",
        static_cast<long long>(epoch), total / double(trainSize), testLoss,
        acc);
    if (!o.checkpoint.empty())
      serialize::save_checkpoint(o.checkpoint, *model, adam,
                                 {epoch, {{"note", "digits_cnn"}}});
    if (epoch == o.stopAfter) {
      std::printf("stopping after epoch %lld (checkpoint: %s)\n",
                  static_cast<long long>(epoch), o.checkpoint.c_str());
      return 0;
    }
  }
  if (start >= o.epochs)
    accuracy = evaluate(model, o.data).first;
  if (!o.saveModel.empty())
    save(model, o.saveModel);

  // A digest of every parameter, to compare interrupted and straight runs.
  double digest = 0;
  for (const Tensor &p : model->parameters())
    digest += (p.to(kDouble) * p.to(kDouble)).sum().item<double>();
  std::printf("final test accuracy %.4f, parameter digest %.17g\n", accuracy,
              digest);
  return accuracy >= o.minAccuracy ? 0 : 1;
}
