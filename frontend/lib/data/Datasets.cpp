//===- Datasets.cpp - TensorDataset, MNIST, transform helpers -------------===//

#include "tcc/Frontend/data/Datasets.h"
#include "tcc/Frontend/data/DataLoader.h"
#include "tcc/Frontend/data/MNIST.h"
#include "tcc/Frontend/data/Transforms.h"

#include "tcc/Frontend/Check.h"
#include "tcc/Frontend/Factories.h"

#include <cstring>
#include <fstream>
#include <iterator>

namespace tcc {
namespace data {

namespace detail {
void throwDataLoaderError(const std::string &message) {
  ::tcc::detail::throwError(message);
}
} // namespace detail

namespace transforms {
namespace detail {
Tensor normalizeChannels(ArrayRef<double> values) {
  TCC_CHECK(!values.empty(), "Normalize: mean and stddev need at least one "
                             "value");
  // [C, 1, 1]: one value per channel of a [C, H, W] example.
  return tensor(values.vec(), kFloat).unsqueeze(1).unsqueeze(2);
}
} // namespace detail
} // namespace transforms

namespace datasets {

TensorDataset::TensorDataset(const std::vector<Tensor> &tensors)
    : TensorDataset(stack(tensors)) {}

TensorExample TensorDataset::get(size_t index) {
  TCC_CHECK(int64_t(index) < tensor.size(0), "TensorDataset: index ", index,
            " is out of range for a dataset of size ", tensor.size(0));
  return tensor[int64_t(index)];
}

std::optional<size_t> TensorDataset::size() const {
  return size_t(tensor.size(0));
}

// --- IDX files ---------------------------------------------------------------

namespace {

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  TCC_CHECK(in, "Error opening file at ", path,
            ": it does not exist or cannot be read");
  return std::string((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
}

uint32_t bigEndian32(const std::string &bytes, size_t offset) {
  const auto *p =
      reinterpret_cast<const unsigned char *>(bytes.data()) + offset;
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 |
         uint32_t(p[3]);
}

/// Checks the magic (0x0000080X: unsigned bytes, X dims) and the size, and
/// returns the dims.
std::vector<int64_t> idxDims(const std::string &bytes, const std::string &path,
                             uint32_t dims, const char *what) {
  TCC_CHECK(bytes.size() >= 4 + 4 * dims, path, ": truncated IDX ", what,
            " file (", bytes.size(), " bytes, shorter than its header)");
  uint32_t magic = bigEndian32(bytes, 0);
  uint32_t expected = 0x800 + dims;
  TCC_CHECK(magic == expected, path, ": wrong magic number 0x", std::hex, magic,
            " for an IDX ", what, " file (expected 0x", expected, ")");
  std::vector<int64_t> sizes;
  uint64_t count = 1;
  for (uint32_t d = 0; d < dims; ++d) {
    uint32_t n = bigEndian32(bytes, 4 + 4 * d);
    sizes.push_back(int64_t(n));
    TCC_CHECK(!__builtin_mul_overflow(count, uint64_t(n), &count) &&
                  count <= bytes.size(),
              path, ": truncated IDX ", what,
              " file (header promises more data than the file holds)");
  }
  size_t expectedBytes = size_t(4 + 4 * dims + count);
  TCC_CHECK(bytes.size() == expectedBytes, path,
            bytes.size() < expectedBytes ? ": truncated IDX " : ": IDX ", what,
            bytes.size() < expectedBytes ? " file ("
                                         : " file has trailing bytes (",
            bytes.size(), " bytes, expected ", expectedBytes, ")");
  return sizes;
}

Tensor fromBytes(const std::string &bytes, size_t offset,
                 const std::vector<int64_t> &sizes) {
  Tensor t = empty(sizes, kByte);
  if (t.numel() > 0)
    std::memcpy(t.data_ptr(), bytes.data() + offset, size_t(t.numel()));
  return t;
}

} // namespace

Tensor read_idx_images(const std::string &path) {
  std::string bytes = readFile(path);
  return fromBytes(bytes, 16, idxDims(bytes, path, 3, "images"));
}

Tensor read_idx_labels(const std::string &path) {
  std::string bytes = readFile(path);
  return fromBytes(bytes, 8, idxDims(bytes, path, 1, "labels"));
}

MNIST::MNIST(const std::string &root, Mode mode) : mode_(mode) {
  std::string prefix = root + (root.empty() || root.back() == '/' ? "" : "/") +
                       (mode == Mode::kTrain ? "train" : "t10k");
  Tensor images = read_idx_images(prefix + "-images-idx3-ubyte");
  Tensor labels = read_idx_labels(prefix + "-labels-idx1-ubyte");
  TCC_CHECK(images.size(0) == labels.size(0), "MNIST at ", root, ": ",
            images.size(0), " images but ", labels.size(0), " labels");
  images_ = images.unsqueeze(1).to(kFloat).div_(255);
  targets_ = labels.to(kLong);
  TCC_CHECK(targets_.numel() == 0 || targets_.max().item<int64_t>() <= 9,
            "MNIST at ", root, ": labels must be digits 0-9");
}

Example<> MNIST::get(size_t index) {
  TCC_CHECK(int64_t(index) < images_.size(0), "MNIST: index ", index,
            " is out of range for a dataset of size ", images_.size(0));
  return {images_[int64_t(index)], targets_[int64_t(index)]};
}

std::optional<size_t> MNIST::size() const { return size_t(images_.size(0)); }

bool MNIST::is_train() const noexcept { return mode_ == Mode::kTrain; }

} // namespace datasets
} // namespace data
} // namespace tcc
