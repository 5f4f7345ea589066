//===- Safetensors.h - Reading and writing .safetensors files ---*- C++ -*-===//
//
// The format of Hugging Face's safetensors, which PyTorch users load with
// `safetensors.torch.load_file`: an 8-byte little-endian header size N, N
// bytes of JSON ({"name": {"dtype": "F32", "shape": [2, 3], "data_offsets":
// [begin, end]}, ..., "__metadata__": {"key": "value"}}), then the tensor
// bytes, little-endian and row-major, offsets relative to the end of the
// header.
//
// The reader trusts nothing in the file: the header size is bounded
// (kMaxHeaderBytes) and must fit the file, the JSON is parsed strictly with
// a nesting limit, every dtype and shape is checked (element counts and byte
// sizes overflow-checked), every byte range must match its dtype and shape,
// lie inside the data and not overlap another, and the ranges must cover the
// data exactly (as the reference implementation requires). Any violation is
// a tcc::Error naming the file and the tensor.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_SERIALIZE_SAFETENSORS_H
#define TCC_FRONTEND_SERIALIZE_SAFETENSORS_H

#include "tcc/Frontend/Tensor.h"
#include "tcc/Frontend/nn/OrderedDict.h"

#include <cstdint>
#include <map>
#include <string>

namespace tcc {
namespace serialize {

/// Largest header accepted (the reference implementation's limit).
constexpr uint64_t kMaxHeaderBytes = 100u * 1000u * 1000u;

struct SafetensorsContent {
  OrderedDict<std::string, Tensor> tensors{"Tensor"};
  std::map<std::string, std::string> metadata;
};

/// The file's bytes for these tensors (any layout; written contiguous) and
/// string metadata. Names must be unique and not "__metadata__".
std::string
safetensors_serialize(const OrderedDict<std::string, Tensor> &tensors,
                      const std::map<std::string, std::string> &metadata = {});
/// Parses file bytes; tensors own copies of their data (CPU). `source`
/// names the file in errors.
SafetensorsContent
safetensors_deserialize(const void *data, size_t size,
                        const std::string &source = "buffer");

/// Writes atomically: to `path` + ".tmp", then renamed over `path`.
void save_safetensors(const std::string &path,
                      const OrderedDict<std::string, Tensor> &tensors,
                      const std::map<std::string, std::string> &metadata = {});
SafetensorsContent load_safetensors(const std::string &path);

} // namespace serialize
} // namespace tcc

#endif // TCC_FRONTEND_SERIALIZE_SAFETENSORS_H
