//===- QuantizeData.cpp - Calibration and evaluation data -----------------===//

#include "QuantizeData.h"

#include "tcc/Frontend/Npy.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

namespace tcc {
namespace tool {

namespace {

namespace fs = std::filesystem;

std::string describe(const Tensor &t) {
  std::string s = std::string(toString(t.scalar_type())) + "[";
  for (int64_t i = 0; i < t.dim(); ++i)
    s += (i ? "," : "") + std::to_string(t.size(i));
  return s + "]";
}

std::string describe(const jit::TensorSpec &spec) {
  std::string s = std::string(toString(spec.dtype)) + "[";
  for (size_t i = 0; i < spec.shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(spec.shape[i]);
  return s + "]";
}

/// An IDX file of unsigned bytes: its dims and data.
struct Idx {
  std::vector<int64_t> dims;
  std::vector<uint8_t> data;
};

/// Whether `path` starts like an IDX file of bytes (0, 0, 0x08, rank).
bool looksLikeIdx(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char magic[4] = {};
  return in.read(reinterpret_cast<char *>(magic), 4) && magic[0] == 0 &&
         magic[1] == 0 && magic[2] == 0x08 && magic[3] >= 1 && magic[3] <= 4;
}

std::string readIdx(const std::string &path, Idx *out) {
  std::ifstream in(path, std::ios::binary);
  unsigned char magic[4] = {};
  if (!in.read(reinterpret_cast<char *>(magic), 4))
    return path + ": cannot read an IDX header";
  int64_t elements = 1;
  for (int d = 0; d < magic[3]; ++d) {
    unsigned char b[4];
    if (!in.read(reinterpret_cast<char *>(b), 4))
      return path + ": truncated IDX header";
    int64_t dim = (int64_t(b[0]) << 24) | (b[1] << 16) | (b[2] << 8) | b[3];
    out->dims.push_back(dim);
    elements *= dim;
    if (elements > (int64_t(1) << 34))
      return path + ": IDX dims too large";
  }
  out->data.resize(size_t(elements));
  if (!in.read(reinterpret_cast<char *>(out->data.data()), elements))
    return path + ": truncated IDX data (" + std::to_string(elements) +
           " bytes expected)";
  return "";
}

/// `array` cut into model batches for `spec` ([B, ...]); "" or an error.
std::string cutIntoBatches(const Tensor &array, const jit::TensorSpec &spec,
                           const std::string &file, std::vector<Tensor> *out) {
  auto mismatch = [&] {
    return file + ": input '" + spec.name + "' takes " + describe(spec) +
           " (or [k * " +
           (spec.shape.empty() ? std::string("1")
                               : std::to_string(spec.shape[0])) +
           ", ...] for k batches); the file holds " + describe(array);
  };
  if (array.scalar_type() != spec.dtype ||
      array.dim() != int64_t(spec.shape.size()))
    return mismatch();
  if (spec.shape.empty()) {
    out->push_back(array);
    return "";
  }
  for (size_t d = 1; d < spec.shape.size(); ++d)
    if (array.size(int64_t(d)) != spec.shape[d])
      return mismatch();
  int64_t batch = spec.shape[0], n = array.size(0);
  if (n == 0)
    return file + ": no samples for input '" + spec.name + "'";
  if (batch == 0 || n % batch != 0)
    return mismatch();
  for (int64_t b = 0; b < n; b += batch)
    out->push_back(array.narrow(0, b, batch).contiguous());
  return "";
}

/// An IDX images file as floats of the input's per-sample shape.
std::string idxImages(const std::string &path, const jit::TensorSpec &spec,
                      const ImageNormalization &norm, Tensor *out) {
  Idx idx;
  if (std::string e = readIdx(path, &idx); !e.empty())
    return e;
  if (spec.dtype != kFloat || spec.shape.empty())
    return path + ": IDX images need a float input with a batch dim; input '" +
           spec.name + "' is " + describe(spec);
  int64_t perSample = 1, n = idx.dims[0];
  for (size_t d = 1; d < spec.shape.size(); ++d)
    perSample *= spec.shape[d];
  int64_t imageSize = 1;
  for (size_t d = 1; d < idx.dims.size(); ++d)
    imageSize *= idx.dims[d];
  if (imageSize != perSample)
    return path + ": IDX images of " + std::to_string(imageSize) +
           " values each do not fit input '" + spec.name + "' (" +
           describe(spec) + ")";
  std::vector<int64_t> shape = spec.shape;
  shape[0] = n;
  Tensor t = empty(shape, TensorOptions().dtype(kFloat));
  float *p = t.data_ptr<float>();
  for (size_t i = 0; i < idx.data.size(); ++i)
    p[i] = float((double(idx.data[i]) / 255.0 - norm.mean) / norm.std);
  *out = t;
  return "";
}

std::string readArray(const std::string &path, const jit::TensorSpec &spec,
                      const ImageNormalization &norm, Tensor *out) {
  if (looksLikeIdx(path))
    return idxImages(path, spec, norm, out);
  try {
    *out = load_npy(path);
  } catch (const std::exception &e) {
    return path + ": " + e.what();
  }
  return "";
}

} // namespace

std::string readModelInputs(const std::string &path,
                            const jit::Signature &signature,
                            const ImageNormalization &norm,
                            std::vector<quant::Batch> *batches) {
  const auto &inputs = signature.inputs;
  std::error_code ec;
  if (!fs::is_directory(path, ec)) {
    if (!fs::exists(path, ec))
      return path + ": no such file or folder";
    if (inputs.size() != 1)
      return path + ": the model has " + std::to_string(inputs.size()) +
             " inputs; give a folder of INPUT.npy files";
    Tensor array;
    std::vector<Tensor> parts;
    if (std::string e = readArray(path, inputs[0], norm, &array); !e.empty())
      return e;
    if (std::string e = cutIntoBatches(array, inputs[0], path, &parts);
        !e.empty())
      return e;
    for (Tensor &t : parts)
      batches->push_back({t});
    return "";
  }

  // TAG -> the file of each input.
  std::map<std::string, std::map<std::string, std::string>> files;
  std::vector<std::string> names;
  for (const auto &spec : inputs)
    names.push_back(spec.name);
  for (const auto &entry : fs::directory_iterator(path, ec)) {
    std::string file = entry.path().filename().string();
    if (entry.path().extension() != ".npy")
      continue;
    std::string stem = file.substr(0, file.size() - 4);
    size_t dot = stem.find('.');
    std::string input = stem.substr(0, dot);
    std::string tag = dot == std::string::npos ? "" : stem.substr(dot + 1);
    if (std::find(names.begin(), names.end(), input) == names.end()) {
      std::string list;
      for (const auto &n : names)
        list += (list.empty() ? "'" : ", '") + n + "'";
      return entry.path().string() + ": names no input of the model (inputs: " +
             list + "; files are INPUT.npy or INPUT.TAG.npy)";
    }
    files[tag][input] = entry.path().string();
  }
  if (ec)
    return path + ": " + ec.message();
  if (files.empty())
    return path + ": no calibration data (no .npy files)";
  for (const auto &[tag, byInput] : files) {
    std::vector<std::vector<Tensor>> parts(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      auto it = byInput.find(inputs[i].name);
      if (it == byInput.end())
        return path + ": batch '" + (tag.empty() ? inputs[0].name : tag) +
               "' has no file for input '" + inputs[i].name + "'";
      Tensor array;
      if (std::string e = readArray(it->second, inputs[i], norm, &array);
          !e.empty())
        return e;
      if (std::string e = cutIntoBatches(array, inputs[i], it->second, &parts[i]);
          !e.empty())
        return e;
      if (parts[i].size() != parts[0].size())
        return it->second + ": " + std::to_string(parts[i].size()) +
               " batches of input '" + inputs[i].name + "' but " +
               std::to_string(parts[0].size()) + " of input '" +
               inputs[0].name + "'";
    }
    for (size_t b = 0; b < parts[0].size(); ++b) {
      quant::Batch batch;
      for (auto &p : parts)
        batch.push_back(p[b]);
      batches->push_back(std::move(batch));
    }
  }
  return "";
}

std::string readLabels(const std::string &path,
                       const std::vector<quant::Batch> &batches,
                       std::vector<Tensor> *labels) {
  Tensor all;
  if (looksLikeIdx(path)) {
    Idx idx;
    if (std::string e = readIdx(path, &idx); !e.empty())
      return e;
    if (idx.dims.size() != 1)
      return path + ": IDX labels must be 1-D";
    all = empty({idx.dims[0]}, TensorOptions().dtype(kLong));
    for (int64_t i = 0; i < idx.dims[0]; ++i)
      all.data_ptr<int64_t>()[i] = idx.data[size_t(i)];
  } else {
    try {
      all = load_npy(path);
    } catch (const std::exception &e) {
      return path + ": " + e.what();
    }
    if (isFloatingType(all.scalar_type()) || all.scalar_type() == kBool)
      return path + ": labels must be integers, not " + describe(all);
    all = all.reshape({-1}).to(kLong);
  }
  int64_t offset = 0;
  for (const quant::Batch &batch : batches) {
    int64_t n = batch.empty() || batch[0].dim() == 0 ? 1 : batch[0].size(0);
    if (offset + n > all.numel())
      break;
    labels->push_back(all.narrow(0, offset, n));
    offset += n;
  }
  if (labels->size() != batches.size() || offset != all.numel())
    return path + ": " + std::to_string(all.numel()) +
           " labels for evaluation data of " +
           std::to_string([&] {
             int64_t n = 0;
             for (const auto &b : batches)
               n += b.empty() || b[0].dim() == 0 ? 1 : b[0].size(0);
             return n;
           }()) +
           " samples";
  return "";
}

} // namespace tool
} // namespace tcc
