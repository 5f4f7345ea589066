//===- Archive.h - OutputArchive / InputArchive -----------------*- C++ -*-===//
//
// libtorch's serialize::OutputArchive and InputArchive: named tensors and
// values, nested by name (`archive.write("encoder", nested)`), saved to and
// loaded from a file, a stream or memory. Here an archive is one
// safetensors file: tensors under their dotted names ("encoder.fc.weight"),
// values in the header's `__metadata__` as JSON text (so a file written by
// tcc::save(module, ...) is a plain safetensors state dict for PyTorch).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_SERIALIZE_ARCHIVE_H
#define TCC_FRONTEND_SERIALIZE_ARCHIVE_H

#include "tcc/Frontend/IValue.h"
#include "tcc/Frontend/Tensor.h"
#include "tcc/Frontend/nn/OrderedDict.h"

#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tcc {
namespace serialize {

class OutputArchive {
public:
  OutputArchive() = default;

  void write(const std::string &key, const Tensor &tensor,
             bool is_buffer = false);
  /// None, int, double, bool, string and int/double lists.
  void write(const std::string &key, const IValue &ivalue);
  void write(const std::string &key, OutputArchive &nested_archive);

  void save_to(const std::string &filename);
  void save_to(std::ostream &stream);
  void save_to(const std::function<size_t(const void *, size_t)> &func);
  /// The safetensors bytes.
  std::string bytes() const;

  const OrderedDict<std::string, Tensor> &tensors() const { return tensors_; }
  const std::map<std::string, std::string> &metadata() const {
    return metadata_;
  }

private:
  void checkKey(const std::string &key) const;
  OrderedDict<std::string, Tensor> tensors_{"Tensor"};
  std::map<std::string, std::string> metadata_;
};

class InputArchive {
public:
  InputArchive();

  /// Reads a tensor. Into a defined `tensor`, the data are copied in place
  /// (sizes and dtype must match), so parameters keep their identity;
  /// an undefined `tensor` becomes the loaded one.
  bool try_read(const std::string &key, Tensor &tensor, bool is_buffer = false);
  void read(const std::string &key, Tensor &tensor, bool is_buffer = false);
  bool try_read(const std::string &key, IValue &ivalue);
  void read(const std::string &key, IValue &ivalue);
  bool try_read(const std::string &key, InputArchive &archive);
  void read(const std::string &key, InputArchive &archive);

  void load_from(const std::string &filename,
                 std::optional<Device> device = std::nullopt);
  void load_from(std::istream &stream,
                 std::optional<Device> device = std::nullopt);
  void load_from(const char *data, size_t size,
                 std::optional<Device> device = std::nullopt);

  /// Tensor and value keys directly or indirectly in this archive.
  std::vector<std::string> keys() const;
  /// Where it was loaded from, for errors.
  const std::string &source() const;

private:
  struct Content;
  InputArchive(std::shared_ptr<const Content> content, std::string prefix);
  std::shared_ptr<const Content> content_;
  std::string prefix_;
};

/// IValue as the JSON text stored in metadata, and back.
std::string encodeIValue(const IValue &value);
IValue decodeIValue(const std::string &text, const std::string &what);

} // namespace serialize
} // namespace tcc

#endif // TCC_FRONTEND_SERIALIZE_ARCHIVE_H
