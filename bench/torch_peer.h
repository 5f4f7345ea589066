//===- torch_peer.h - The benchmark models in libtorch eager ----*- C++ -*-===//
//
// libtorch (Debian's libtorch-dev) and tcc both define a `torch` world, so
// the libtorch side lives in its own translation unit (torch_peer.cpp, built
// only where libtorch is found) behind this interface of plain types: the
// benchmark passes each model's parameters and buffers by name, the peer
// builds the same architecture with torch::nn and copies them in.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_BENCH_TORCH_PEER_H
#define TCC_BENCH_TORCH_PEER_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace torchpeer {

/// A float32 parameter or buffer of the tcc model, contiguous.
struct Named {
  std::string name;
  std::vector<int64_t> shape;
  const float *data = nullptr;
};

enum class Kind { Mlp, DigitsCnn, ResNet18, EncoderLayer };

/// Sizes of the models (see model_bench.cpp).
struct Config {
  int64_t hidden = 4096;            // MLP 784-hidden-hidden-10
  int64_t width = 64, classes = 1000; // ResNet-18
  int64_t dModel = 256, heads = 4, feedForward = 2048; // encoder layer
};

class Model {
public:
  virtual ~Model() = default;
  /// One forward pass on the input given to make() (inference mode).
  virtual void run() = 0;
  /// The output of the last run, flattened.
  virtual std::vector<float> output() const = 0;
};

/// The model of `kind` with `weights` copied in by name; null and `error`
/// set when a name is missing or a shape differs.
std::unique_ptr<Model> make(Kind kind, const Config &config,
                            const std::vector<Named> &weights,
                            const float *input,
                            const std::vector<int64_t> &inputShape,
                            std::string *error);

/// at::set_num_threads.
void setThreads(int threads);
/// "libtorch 1.13.1" and its parallel backend.
std::string describe();

} // namespace torchpeer

#endif // TCC_BENCH_TORCH_PEER_H
