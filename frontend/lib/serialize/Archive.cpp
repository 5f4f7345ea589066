//===- Archive.cpp - Archives as safetensors files ------------------------===//

#include "tcc/Frontend/serialize/Archive.h"

#include "Json.h"

#include "tcc/Frontend/Check.h"
#include "tcc/Frontend/GradMode.h"
#include "tcc/Frontend/serialize/Safetensors.h"

#include <cmath>
#include <cstdio>
#include <istream>
#include <iterator>
#include <ostream>
#include <sstream>

namespace tcc {
namespace serialize {

// --- Values in metadata ------------------------------------------------------

namespace {
std::string formatDouble(double d) {
  if (std::isnan(d))
    return "NaN";
  if (std::isinf(d))
    return d > 0 ? "Infinity" : "-Infinity";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  std::string s = buf;
  if (s.find_first_of(".eE") == std::string::npos)
    s += ".0"; // keeps doubles apart from ints when read back
  return s;
}

double parseDouble(const json::Value &v, const std::string &what) {
  if (v.isNumber())
    return v.toDouble();
  detail::throwError(what + ": expected a number");
}
} // namespace

std::string encodeIValue(const IValue &value) {
  switch (value.tag()) {
  case IValue::Tag::None:
    return "null";
  case IValue::Tag::Int:
    return std::to_string(value.toInt());
  case IValue::Tag::Double:
    return formatDouble(value.toDouble());
  case IValue::Tag::Bool:
    return value.toBool() ? "true" : "false";
  case IValue::Tag::String:
    return json::quote(value.toStringRef());
  case IValue::Tag::IntList: {
    std::string s = "[";
    for (size_t i = 0; i < value.toIntVector().size(); ++i)
      s += (i ? "," : "") + std::to_string(value.toIntVector()[i]);
    return s + "]";
  }
  case IValue::Tag::DoubleList: {
    // A tagged object: an empty or all-integral list would read back as ints.
    std::string s = "{\"doubles\":[";
    for (size_t i = 0; i < value.toDoubleVector().size(); ++i)
      s += (i ? "," : "") + formatDouble(value.toDoubleVector()[i]);
    return s + "]}";
  }
  default:
    detail::throwError(std::string("cannot store an IValue of kind ") +
                       value.tagKind() + " as archive metadata");
  }
}

IValue decodeIValue(const std::string &text, const std::string &what) {
  // NaN and the infinities are not JSON: they are spelled out alone.
  if (text == "NaN")
    return std::nan("");
  if (text == "Infinity")
    return INFINITY;
  if (text == "-Infinity")
    return -INFINITY;
  json::Value v = json::parse(text, what);
  switch (v.kind) {
  case json::Value::Kind::Null:
    return IValue();
  case json::Value::Kind::Bool:
    return IValue(v.boolean);
  case json::Value::Kind::String:
    return IValue(v.text);
  case json::Value::Kind::Number: {
    int64_t i;
    if (v.toInt64(i))
      return IValue(i);
    return IValue(v.toDouble());
  }
  case json::Value::Kind::Array: {
    std::vector<int64_t> ints;
    for (const json::Value &e : v.array) {
      int64_t i;
      TCC_CHECK(e.toInt64(i), what, ": expected a list of integers");
      ints.push_back(i);
    }
    return IValue(std::move(ints));
  }
  case json::Value::Kind::Object: {
    const json::Value *d = v.find("doubles");
    TCC_CHECK(d && d->isArray() && v.object.size() == 1, what,
              ": unknown value object");
    std::vector<double> doubles;
    for (const json::Value &e : d->array)
      doubles.push_back(parseDouble(e, what));
    return IValue(std::move(doubles));
  }
  }
  detail::throwError(what + ": unreadable value");
}

// --- OutputArchive -----------------------------------------------------------

void OutputArchive::checkKey(const std::string &key) const {
  TCC_CHECK(!key.empty(), "OutputArchive: keys must not be empty");
  TCC_CHECK(key != "__metadata__", "OutputArchive: '__metadata__' is reserved");
  TCC_CHECK(!tensors_.contains(key) && !metadata_.count(key),
            "OutputArchive: key '", key, "' written twice");
}

void OutputArchive::write(const std::string &key, const Tensor &tensor,
                          bool /*is_buffer*/) {
  checkKey(key);
  TCC_CHECK(tensor.defined(), "OutputArchive: tensor '", key, "' is undefined");
  tensors_.insert(key, tensor);
}

void OutputArchive::write(const std::string &key, const IValue &ivalue) {
  checkKey(key);
  if (ivalue.isTensor()) {
    write(key, ivalue.toTensor());
    return;
  }
  metadata_[key] = encodeIValue(ivalue);
}

void OutputArchive::write(const std::string &key, OutputArchive &nested) {
  TCC_CHECK(!key.empty(), "OutputArchive: keys must not be empty");
  for (const auto &item : nested.tensors_)
    write(key + "." + item.key(), item.value());
  for (const auto &item : nested.metadata_) {
    checkKey(key + "." + item.first);
    metadata_[key + "." + item.first] = item.second;
  }
}

std::string OutputArchive::bytes() const {
  return safetensors_serialize(tensors_, metadata_);
}

void OutputArchive::save_to(const std::string &filename) {
  save_safetensors(filename, tensors_, metadata_);
}

void OutputArchive::save_to(std::ostream &stream) {
  std::string b = bytes();
  stream.write(b.data(), std::streamsize(b.size()));
  TCC_CHECK(stream, "OutputArchive: writing to the stream failed");
}

void OutputArchive::save_to(
    const std::function<size_t(const void *, size_t)> &func) {
  std::string b = bytes();
  TCC_CHECK(func(b.data(), b.size()) == b.size(),
            "OutputArchive: the writer function did not take every byte");
}

// --- InputArchive ------------------------------------------------------------

struct InputArchive::Content {
  SafetensorsContent file;
  std::string source;
};

InputArchive::InputArchive() : content_(std::make_shared<Content>()) {}

InputArchive::InputArchive(std::shared_ptr<const Content> content,
                           std::string prefix)
    : content_(std::move(content)), prefix_(std::move(prefix)) {}

const std::string &InputArchive::source() const { return content_->source; }

bool InputArchive::try_read(const std::string &key, Tensor &tensor,
                            bool /*is_buffer*/) {
  const Tensor *found = content_->file.tensors.find(prefix_ + key);
  if (!found)
    return false;
  if (!tensor.defined()) {
    tensor = *found;
    return true;
  }
  TCC_CHECK(tensor.sizes() == found->sizes(), "loading '", prefix_ + key,
            "' from ", source(), ": the archive holds shape ", found->sizes(),
            " but the tensor to load into has shape ", tensor.sizes());
  TCC_CHECK(tensor.dtype() == found->dtype(), "loading '", prefix_ + key,
            "' from ", source(), ": the archive holds dtype ", found->dtype(),
            " but the tensor to load into has dtype ", tensor.dtype());
  NoGradGuard noGrad;
  tensor.copy_(*found);
  return true;
}

void InputArchive::read(const std::string &key, Tensor &tensor,
                        bool is_buffer) {
  TCC_CHECK(try_read(key, tensor, is_buffer), "No such serialized tensor '",
            prefix_ + key, "' in ", source());
}

bool InputArchive::try_read(const std::string &key, IValue &ivalue) {
  auto it = content_->file.metadata.find(prefix_ + key);
  if (it != content_->file.metadata.end()) {
    ivalue = decodeIValue(it->second,
                          "value '" + prefix_ + key + "' in " + source());
    return true;
  }
  if (const Tensor *t = content_->file.tensors.find(prefix_ + key)) {
    ivalue = IValue(*t);
    return true;
  }
  return false;
}

void InputArchive::read(const std::string &key, IValue &ivalue) {
  TCC_CHECK(try_read(key, ivalue), "No such serialized value '", prefix_ + key,
            "' in ", source());
}

bool InputArchive::try_read(const std::string &key, InputArchive &archive) {
  std::string prefix = prefix_ + key + ".";
  InputArchive nested(content_, prefix);
  if (nested.keys().empty())
    return false;
  archive = std::move(nested);
  return true;
}

void InputArchive::read(const std::string &key, InputArchive &archive) {
  TCC_CHECK(try_read(key, archive), "No such serialized submodule or archive '",
            prefix_ + key, "' in ", source());
}

std::vector<std::string> InputArchive::keys() const {
  std::vector<std::string> out;
  auto add = [&](const std::string &k) {
    if (k.compare(0, prefix_.size(), prefix_) == 0)
      out.push_back(k.substr(prefix_.size()));
  };
  for (const auto &item : content_->file.tensors)
    add(item.key());
  for (const auto &item : content_->file.metadata)
    add(item.first);
  return out;
}

void InputArchive::load_from(const std::string &filename,
                             std::optional<Device> device) {
  auto content = std::make_shared<Content>();
  content->file = load_safetensors(filename);
  content->source = "'" + filename + "'";
  if (device)
    for (auto &item : content->file.tensors)
      item.value() = item.value().to(*device);
  content_ = std::move(content);
  prefix_.clear();
}

void InputArchive::load_from(std::istream &stream,
                             std::optional<Device> device) {
  std::string bytes((std::istreambuf_iterator<char>(stream)),
                    std::istreambuf_iterator<char>());
  load_from(bytes.data(), bytes.size(), device);
}

void InputArchive::load_from(const char *data, size_t size,
                             std::optional<Device> device) {
  auto content = std::make_shared<Content>();
  content->file = safetensors_deserialize(data, size, "in memory");
  content->source = "an in-memory archive";
  if (device)
    for (auto &item : content->file.tensors)
      item.value() = item.value().to(*device);
  content_ = std::move(content);
  prefix_.clear();
}

} // namespace serialize
} // namespace tcc
