//===- digits_deploy.cpp - Train, trace, and check the compiled model -----===//
//
// The main journey of tcc on the digits set, in two steps around
// `tcc compile` (scripts/demo.sh runs all three):
//
//   digits_deploy train   --data DIR --work DIR [--epochs N]
//       trains DigitsNet eagerly, saves its weights, traces it at batch 1
//       into WORK/model.ir, and writes the test images and labels as .npy;
//   tcc compile WORK/model.ir -o WORK/model.bin
//   tcc quantize WORK/model.ir --calibrate TRAIN-IMAGES -o WORK/model.int8.ir
//   tcc compile WORK/model.int8.ir -o WORK/model.int8.bin     (optional)
//   digits_deploy compare --work DIR [--threads N] [--repeats R]
//       runs the eager model and the compiled artifact (through
//       libtcc_runtime) over the test images, one image at a time, and prints
//       their accuracy and latency side by side. It fails when the two
//       disagree on a prediction or a logit differs by more than 1e-3.
//       When WORK/model.int8.bin exists, the int8 artifact runs too and its
//       accuracy and latency print beside fp32's (int8 predictions may
//       differ: they are reported, not failed).
//
//===----------------------------------------------------------------------===//

#include "../digits_cnn/DigitsNet.h"

#include "tcc/data.h"
#include "tcc/jit.h"
#include "tcc/optim.h"
#include "tcc/serialize.h"
#include "tcc/Frontend/Npy.h"
#include "tcc/runtime/Runtime.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

using namespace tcc;

namespace {

struct Options {
  std::string command, data, work;
  int64_t epochs = 8, threads = 1, repeats = 3;
};

[[noreturn]] void usage(const char *message) {
  std::fprintf(stderr,
               "digits_deploy: %s\n"
               "usage: digits_deploy train --data DIR --work DIR [--epochs N]\n"
               "       digits_deploy compare --work DIR [--threads N] "
               "[--repeats R]\n",
               message);
  std::exit(2);
}

Options parse(int argc, char **argv) {
  Options o;
  if (argc < 2)
    usage("no command");
  o.command = argv[1];
  if (o.command != "train" && o.command != "compare")
    usage(("unknown command '" + o.command + "'").c_str());
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (i + 1 >= argc)
      usage((a + " needs a value").c_str());
    std::string v = argv[++i];
    if (a == "--data")
      o.data = v;
    else if (a == "--work")
      o.work = v;
    else if (a == "--epochs")
      o.epochs = std::atoll(v.c_str());
    else if (a == "--threads")
      o.threads = std::atoll(v.c_str());
    else if (a == "--repeats")
      o.repeats = std::atoll(v.c_str());
    else
      usage(("unknown option '" + a + "'").c_str());
  }
  if (o.work.empty() || (o.command == "train" && o.data.empty()))
    usage("missing --work or --data");
  if (o.epochs < 1 || o.threads < 1 || o.repeats < 1)
    usage("--epochs, --threads and --repeats must be positive");
  return o;
}

/// The whole split as one [N, 1, 8, 8] batch of normalized images and [N]
/// labels.
std::pair<Tensor, Tensor> loadSplit(const std::string &dir,
                                    data::datasets::MNIST::Mode mode) {
  auto set = data::datasets::MNIST(dir, mode)
                 .map(data::transforms::Normalize<>(0.5, 0.5))
                 .map(data::transforms::Stack<>());
  size_t n = set.size().value();
  auto loader = data::make_data_loader<data::samplers::SequentialSampler>(
      std::move(set), n);
  for (auto &batch : *loader)
    return {batch.data, batch.target};
  throw std::runtime_error("empty split in " + dir);
}

int train(const Options &o) {
  manual_seed(7);
  DigitsNet model;
  optim::Adam adam(model->parameters(), optim::AdamOptions(2e-3));
  auto [x, y] = loadSplit(o.data, data::datasets::MNIST::Mode::kTrain);
  int64_t n = x.size(0), batch = 32;
  auto start = std::chrono::steady_clock::now();
  for (int64_t epoch = 1; epoch <= o.epochs; ++epoch) {
    Tensor order = randperm(n);
    double total = 0;
    for (int64_t b = 0; b < n; b += batch) {
      Tensor idx = order.narrow(0, b, std::min(batch, n - b));
      adam.zero_grad();
      Tensor loss = nll_loss(model(x.index_select(0, idx)), y.index_select(0, idx));
      loss.backward();
      adam.step();
      total += loss.item<double>() * double(idx.size(0));
    }
    std::printf("epoch %lld: train loss %.4f\n", static_cast<long long>(epoch),
                total / double(n));
  }
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  model->eval();
  auto [xTest, yTest] = loadSplit(o.data, data::datasets::MNIST::Mode::kTest);
  {
    NoGradGuard noGrad;
    double accuracy =
        model(xTest).argmax(1).eq(yTest).to(kDouble).mean().item<double>();
    std::printf("trained %lld epochs in %.1f s; eager test accuracy %.4f\n",
                static_cast<long long>(o.epochs), seconds, accuracy);
  }
  save(model, o.work + "/model.safetensors");
  save_npy(o.work + "/x_test.npy", xTest);
  save_npy(o.work + "/y_test.npy", yTest);
  auto traced = jit::trace(model, {xTest.narrow(0, 0, 1)});
  traced.save(o.work + "/model.ir");
  std::printf("wrote %s/model.ir (traced at batch 1) and the test set\n",
              o.work.c_str());
  return 0;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

[[noreturn]] void fail(const std::string &what, const runtime::Status &s) {
  std::fprintf(stderr, "digits_deploy: %s: %s\n", what.c_str(),
               s.message().c_str());
  std::exit(1);
}

int64_t argmax(const std::vector<float> &v) {
  return std::max_element(v.begin(), v.end()) - v.begin();
}

/// A compiled model run over the test images one at a time: its logits and
/// the time per image of each pass.
struct ArtifactRun {
  std::string path;
  runtime::Model model;
  runtime::Pool pool;
  runtime::Session session;
  std::vector<std::vector<float>> outputs;
  std::vector<double> us;

  void pass(const Tensor &x, int64_t n) {
    outputs.resize(n);
    const size_t imageBytes = 64 * sizeof(float);
    auto t0 = std::chrono::steady_clock::now();
    for (int64_t i = 0; i < n; ++i) {
      const float *logits = nullptr;
      runtime::Status s =
          session.bindInput(0, x.data_ptr<float>() + 64 * i, imageBytes);
      if (s.ok())
        s = session.run();
      if (s.ok())
        s = session.output(0, &logits);
      if (!s.ok())
        fail("running " + path, s);
      outputs[i].assign(logits, logits + 10);
    }
    auto t1 = std::chrono::steady_clock::now();
    us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / n);
  }
};

/// Held by pointer: the session refers to the model and the pool.
std::unique_ptr<ArtifactRun> loadArtifact(const std::string &path,
                                          int64_t threads) {
  auto owned = std::make_unique<ArtifactRun>();
  ArtifactRun &run = *owned;
  run.path = path;
  if (runtime::Status s = runtime::Model::loadFile(path, &run.model); !s.ok())
    fail("loading " + path, s);
  if (threads > 1)
    if (runtime::Status s = runtime::Pool::create(int(threads), &run.pool); !s.ok())
      fail("creating the thread pool", s);
  if (runtime::Status s = run.model.createSession(
          run.pool ? run.pool.parallel() : nullptr, &run.session);
      !s.ok())
    fail("creating a session", s);
  return owned;
}

int compare(const Options &o) {
  set_num_threads(static_cast<int>(o.threads));
  DigitsNet model;
  load(model, o.work + "/model.safetensors");
  model->eval();
  Tensor x = load_npy(o.work + "/x_test.npy").contiguous();
  Tensor y = load_npy(o.work + "/y_test.npy");
  int64_t n = x.size(0);

  std::unique_ptr<ArtifactRun> fp32 =
      loadArtifact(o.work + "/model.bin", o.threads);
  std::unique_ptr<ArtifactRun> int8;
  if (std::ifstream(o.work + "/model.int8.bin").good())
    int8 = loadArtifact(o.work + "/model.int8.bin", o.threads);

  NoGradGuard noGrad;
  std::vector<Tensor> eagerOut(n);
  std::vector<double> eagerUs;
  for (int64_t r = 0; r < o.repeats; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    for (int64_t i = 0; i < n; ++i)
      eagerOut[i] = model(x.narrow(0, i, 1));
    auto t1 = std::chrono::steady_clock::now();
    eagerUs.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / n);
    fp32->pass(x, n);
    if (int8)
      int8->pass(x, n);
  }
  const std::vector<std::vector<float>> &compiledOut = fp32->outputs;

  // The reference interpreter runs model.ir with the eager kernels: its
  // logits must equal eager's bit for bit.
  jit::Interpreter interpreter = jit::Interpreter::load(o.work + "/model.ir");
  int64_t interpreterMismatches = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < n; ++i) {
    Tensor out = interpreter.run({x.narrow(0, i, 1)})[0];
    interpreterMismatches += !equal(out, eagerOut[i]);
  }
  double interpreterUs = std::chrono::duration<double, std::micro>(
                             std::chrono::steady_clock::now() - t0)
                             .count() /
                         double(n);

  int64_t eagerCorrect = 0, compiledCorrect = 0, disagree = 0;
  double maxDiff = 0;
  for (int64_t i = 0; i < n; ++i) {
    Tensor e = eagerOut[i].reshape({10}).contiguous();
    const float *ev = e.data_ptr<float>();
    int64_t label = y[i].item<int64_t>();
    int64_t ep = std::max_element(ev, ev + 10) - ev;
    int64_t cp = std::max_element(compiledOut[i].begin(), compiledOut[i].end()) -
                 compiledOut[i].begin();
    eagerCorrect += ep == label;
    compiledCorrect += cp == label;
    disagree += ep != cp;
    for (int k = 0; k < 10; ++k)
      maxDiff = std::max(maxDiff, double(std::fabs(ev[k] - compiledOut[i][k])));
  }
  double eagerMs = median(eagerUs), compiledMs = median(fp32->us);
  std::printf("\n%lld test images, batch 1, %lld thread(s), median of %lld passes\n",
              static_cast<long long>(n), static_cast<long long>(o.threads),
              static_cast<long long>(o.repeats));
  std::printf("  %-22s %9s %16s\n", "", "accuracy", "latency/image");
  std::printf("  %-22s %9.4f %13.1f us\n", "eager (tcc)",
              double(eagerCorrect) / n, eagerMs);
  std::printf("  %-22s %9s %13.1f us   (%lld of %lld outputs differ from "
              "eager)\n",
              "interpreter (model.ir)", "", interpreterUs,
              static_cast<long long>(interpreterMismatches),
              static_cast<long long>(n));
  std::printf("  %-22s %9.4f %13.1f us   (%.2fx eager)\n",
              "compiled (model.bin)", double(compiledCorrect) / n, compiledMs,
              eagerMs / compiledMs);
  std::printf("  predictions that differ: %lld; max |logit difference| %.2e\n",
              static_cast<long long>(disagree), maxDiff);
  if (int8) {
    int64_t int8Correct = 0, int8Disagree = 0;
    for (int64_t i = 0; i < n; ++i) {
      int64_t label = y[i].item<int64_t>();
      int64_t ip = argmax(int8->outputs[i]);
      int8Correct += ip == label;
      int8Disagree += ip != argmax(compiledOut[i]);
    }
    double int8Ms = median(int8->us);
    std::printf("  %-22s %9.4f %13.1f us   (%.2fx compiled fp32; %lld of %lld "
                "predictions differ from it)\n",
                "int8 (model.int8.bin)", double(int8Correct) / n, int8Ms,
                compiledMs / int8Ms, static_cast<long long>(int8Disagree),
                static_cast<long long>(n));
  }
  return disagree == 0 && maxDiff <= 1e-3 && interpreterMismatches == 0 ? 0
                                                                       : 1;
}

} // namespace

int main(int argc, char **argv) {
  Options o = parse(argc, argv);
  try {
    return o.command == "train" ? train(o) : compare(o);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "digits_deploy: %s\n", e.what());
    return 1;
  }
}
