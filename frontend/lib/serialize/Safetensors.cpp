//===- Safetensors.cpp - The safetensors format ---------------------------===//

#include "tcc/Frontend/serialize/Safetensors.h"

#include "Json.h"

#include "tcc/Frontend/Check.h"
#include "tcc/Frontend/Factories.h"
#include "tcc/runtime/FileWrite.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <vector>

namespace tcc {
namespace serialize {
namespace {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "safetensors data are little-endian; add byte swapping for "
              "big-endian hosts");

struct DtypeName {
  ScalarType type;
  const char *name;
};
constexpr DtypeName kDtypes[] = {
    {kDouble, "F64"}, {kFloat, "F32"}, {kHalf, "F16"},  {kBFloat16, "BF16"},
    {kLong, "I64"},   {kInt, "I32"},   {kShort, "I16"}, {kChar, "I8"},
    {kByte, "U8"},    {kBool, "BOOL"},
};

const char *dtypeName(ScalarType t) {
  for (const DtypeName &d : kDtypes)
    if (d.type == t)
      return d.name;
  detail::throwError(
      detail::str("safetensors: dtype ", t, " has no safetensors name"));
}

bool dtypeFromName(const std::string &name, ScalarType &out) {
  for (const DtypeName &d : kDtypes)
    if (name == d.name) {
      out = d.type;
      return true;
    }
  return false;
}

uint64_t readLE64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = (v << 8) | p[i];
  return v;
}

struct Entry {
  std::string name;
  ScalarType dtype;
  std::vector<int64_t> shape;
  uint64_t begin, end;
};

} // namespace

std::string
safetensors_serialize(const OrderedDict<std::string, Tensor> &tensors,
                      const std::map<std::string, std::string> &metadata) {
  std::string header = "{";
  bool first = true;
  if (!metadata.empty()) {
    header += "\"__metadata__\":{";
    for (auto it = metadata.begin(); it != metadata.end(); ++it) {
      if (it != metadata.begin())
        header += ',';
      header += json::quote(it->first) + ":" + json::quote(it->second);
    }
    header += '}';
    first = false;
  }
  std::vector<Tensor> contiguous;
  uint64_t offset = 0;
  for (const auto &item : tensors) {
    TCC_CHECK(item.key() != "__metadata__",
              "safetensors: a tensor cannot be named __metadata__");
    const Tensor &t = item.value();
    TCC_CHECK(t.defined(), "safetensors: tensor '", item.key(),
              "' is undefined");
    Tensor c = t.detach().cpu().contiguous();
    uint64_t bytes = uint64_t(c.nbytes());
    header += first ? "" : ",";
    first = false;
    header += json::quote(item.key()) + ":{\"dtype\":\"" +
              dtypeName(c.dtype()) + "\",\"shape\":[";
    for (int64_t d = 0; d < c.dim(); ++d)
      header += (d ? "," : "") + std::to_string(c.size(d));
    header += "],\"data_offsets\":[" + std::to_string(offset) + "," +
              std::to_string(offset + bytes) + "]}";
    offset += bytes;
    contiguous.push_back(std::move(c));
  }
  header += '}';
  // Pad with spaces so the data start 8-byte aligned, as the reference does.
  while ((8 + header.size()) % 8)
    header += ' ';
  std::string out;
  out.reserve(8 + header.size() + offset);
  uint64_t n = header.size();
  for (int i = 0; i < 8; ++i)
    out += char((n >> (8 * i)) & 0xFF);
  out += header;
  for (const Tensor &c : contiguous)
    out.append(static_cast<const char *>(c.data_ptr()), c.nbytes());
  return out;
}

SafetensorsContent safetensors_deserialize(const void *data, size_t size,
                                           const std::string &source) {
  const auto *bytes = static_cast<const unsigned char *>(data);
  auto fail = [&](const std::string &why) {
    detail::throwError("safetensors file " + source + ": " + why);
  };
  if (size < 8)
    fail(detail::str("file is ", size,
                     " bytes, shorter than the 8-byte header size"));
  uint64_t headerSize = readLE64(bytes);
  if (headerSize > kMaxHeaderBytes)
    fail(detail::str("header size ", headerSize, " exceeds the limit of ",
                     kMaxHeaderBytes, " bytes"));
  if (headerSize > size - 8)
    fail(detail::str("header size ", headerSize, " runs past the end of the ",
                     size, "-byte file"));
  std::string_view headerText(reinterpret_cast<const char *>(bytes + 8),
                              size_t(headerSize));
  if (headerText.empty() || headerText[0] != '{')
    fail("header does not start with '{'");
  json::Value header =
      json::parse(headerText, "safetensors file " + source + " header");
  if (!header.isObject())
    fail("header is not a JSON object");

  const uint64_t dataSize = size - 8 - headerSize;
  const unsigned char *dataStart = bytes + 8 + headerSize;
  SafetensorsContent content;
  std::vector<Entry> entries;
  std::vector<std::string> seen;
  for (const auto &member : header.object) {
    const std::string &name = member.first;
    if (std::find(seen.begin(), seen.end(), name) != seen.end())
      fail("key '" + name + "' appears twice in the header");
    seen.push_back(name);
    const json::Value &v = member.second;
    if (name == "__metadata__") {
      if (!v.isObject())
        fail("__metadata__ is not an object of strings");
      for (const auto &m : v.object) {
        if (!m.second.isString())
          fail("__metadata__ value of '" + m.first + "' is not a string");
        content.metadata[m.first] = m.second.text;
      }
      continue;
    }
    auto bad = [&](const std::string &why) {
      fail("tensor '" + name + "': " + why);
    };
    if (!v.isObject())
      bad("entry is not an object");
    const json::Value *dtype = v.find("dtype");
    const json::Value *shape = v.find("shape");
    const json::Value *offsets = v.find("data_offsets");
    if (!dtype || !dtype->isString())
      bad("missing or non-string \"dtype\"");
    Entry e;
    e.name = name;
    if (!dtypeFromName(dtype->text, e.dtype))
      bad("unsupported dtype \"" + dtype->text + "\"");
    if (!shape || !shape->isArray())
      bad("missing or non-array \"shape\"");
    uint64_t numel = 1;
    bool overflow = false;
    for (const json::Value &d : shape->array) {
      int64_t n;
      if (!d.toInt64(n) || n < 0)
        bad("shape entries must be non-negative integers");
      e.shape.push_back(n);
      if (n != 0 && numel > UINT64_MAX / uint64_t(n))
        overflow = true;
      numel *= uint64_t(n);
    }
    uint64_t elem = elementSize(e.dtype);
    if (overflow || numel > UINT64_MAX / elem ||
        numel * elem > uint64_t(INT64_MAX))
      bad("shape's byte size overflows");
    if (!offsets || !offsets->isArray() || offsets->array.size() != 2)
      bad("\"data_offsets\" must be [begin, end]");
    int64_t b, en;
    if (!offsets->array[0].toInt64(b) || !offsets->array[1].toInt64(en) ||
        b < 0 || en < 0)
      bad("data_offsets must be non-negative integers");
    e.begin = uint64_t(b);
    e.end = uint64_t(en);
    if (e.begin > e.end)
      bad(detail::str("data_offsets [", e.begin, ", ", e.end,
                      "] are reversed"));
    if (e.end > dataSize)
      bad(detail::str("data_offsets [", e.begin, ", ", e.end, "] run past the ",
                      dataSize, " data bytes"));
    if (e.end - e.begin != numel * elem)
      bad(detail::str("data_offsets span ", e.end - e.begin,
                      " bytes but dtype ", dtype->text, " and shape ",
                      IntArrayRef(e.shape), " need ", numel * elem));
    entries.push_back(std::move(e));
  }

  // Ranges must tile the data: sorted, each starting where the last ended.
  std::vector<const Entry *> order;
  for (const Entry &e : entries)
    order.push_back(&e);
  std::sort(order.begin(), order.end(), [](const Entry *a, const Entry *b) {
    return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
  });
  uint64_t cursor = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    const Entry &e = *order[i];
    if (e.begin < cursor)
      fail("tensor '" + e.name + "' overlaps tensor '" + order[i - 1]->name +
           "' (data_offsets " + std::to_string(e.begin) + " < " +
           std::to_string(cursor) + ")");
    if (e.begin > cursor)
      fail(detail::str("bytes [", cursor, ", ", e.begin,
                       ") of the data belong to no tensor"));
    cursor = e.end;
  }
  if (cursor != dataSize)
    fail(detail::str("bytes [", cursor, ", ", dataSize,
                     ") of the data belong to no tensor"));

  for (const Entry &e : entries) {
    Tensor t = empty(e.shape, e.dtype);
    if (e.end > e.begin)
      std::memcpy(t.data_ptr(), dataStart + e.begin, size_t(e.end - e.begin));
    if (e.dtype == kBool) {
      const uint8_t *p = static_cast<const uint8_t *>(t.data_ptr());
      for (int64_t i = 0; i < t.numel(); ++i)
        if (p[i] > 1)
          fail("tensor '" + e.name + "': BOOL byte is neither 0 nor 1");
    }
    content.tensors.insert(e.name, std::move(t));
  }
  return content;
}

void save_safetensors(const std::string &path,
                      const OrderedDict<std::string, Tensor> &tensors,
                      const std::map<std::string, std::string> &metadata) {
  std::string bytes = safetensors_serialize(tensors, metadata);
  std::string error =
      runtime::writeFileAtomically(path, bytes.data(), bytes.size());
  TCC_CHECK(error.empty(), "cannot save: ", error);
}

SafetensorsContent load_safetensors(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  TCC_CHECK(in, "cannot open '", path, "' for reading");
  std::string bytes((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
  return safetensors_deserialize(bytes.data(), bytes.size(), "'" + path + "'");
}

} // namespace serialize
} // namespace tcc
