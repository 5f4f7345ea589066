//===- MNIST.h - The MNIST dataset from its IDX files -----------*- C++ -*-===//
//
// Reads `train-images-idx3-ubyte`, `train-labels-idx1-ubyte` (or `t10k-...`
// in test mode) from a folder, as libtorch's datasets::MNIST: images become
// float [N, 1, rows, cols] in [0, 1], targets int64 [N]. Image sizes are
// read from the file (28 x 28 for MNIST itself). A missing or truncated
// file, a wrong magic number or mismatched counts is a tcc::Error naming
// the file.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_DATA_MNIST_H
#define TCC_FRONTEND_DATA_MNIST_H

#include "tcc/Frontend/data/Datasets.h"

#include <string>

namespace tcc {
namespace data {
namespace datasets {

class MNIST : public Dataset<MNIST> {
public:
  enum class Mode { kTrain, kTest };

  explicit MNIST(const std::string &root, Mode mode = Mode::kTrain);
  Example<> get(size_t index) override;
  std::optional<size_t> size() const override;
  bool is_train() const noexcept;
  const Tensor &images() const { return images_; }
  const Tensor &targets() const { return targets_; }

private:
  Tensor images_, targets_;
  Mode mode_;
};

/// The IDX readers behind MNIST (u8 images [N, rows, cols] and labels [N]).
Tensor read_idx_images(const std::string &path);
Tensor read_idx_labels(const std::string &path);

} // namespace datasets
} // namespace data
} // namespace tcc

#endif // TCC_FRONTEND_DATA_MNIST_H
