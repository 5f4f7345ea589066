//===- Npy.cpp - NumPy .npy files -----------------------------------------===//
//
// Format:
// https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html The
// header is a Python dict literal; this parser accepts exactly what NumPy
// writes (any key order, spaces, trailing commas) and nothing more.
//
//===----------------------------------------------------------------------===//

#include "tcc/runtime/Npy.h"
#include "tcc/runtime/FileWrite.h"

#include "../Artifact/Checks.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include <sys/stat.h>

namespace tcc {
namespace runtime {

using detail::cat;
using detail::checkedMul;
using detail::invalidBoolByte;

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;

Status malformed(const std::string &message) {
  return Status(TCC_STATUS_DATA_LOSS, message);
}

struct Descr {
  const char *type; // without the byte-order character
  tcc_dtype_t dtype;
};
// bf16 as a two-byte void: see Npy.h.
constexpr Descr kDescrs[] = {
    {"f4", TCC_DTYPE_F32},  {"f8", TCC_DTYPE_F64}, {"f2", TCC_DTYPE_F16},
    {"V2", TCC_DTYPE_BF16}, {"i8", TCC_DTYPE_I64}, {"i4", TCC_DTYPE_I32},
    {"i1", TCC_DTYPE_I8},   {"u1", TCC_DTYPE_U8},  {"b1", TCC_DTYPE_BOOL}};

std::string descrOf(tcc_dtype_t dtype) {
  for (const Descr &d : kDescrs)
    if (d.dtype == dtype)
      return std::string(tcc_dtype_size(dtype) == 1 ? "|" : "<") + d.type;
  return "";
}

// A cursor over the header dict.
class HeaderParser {
public:
  explicit HeaderParser(const std::string &text) : s_(text) {}

  Status parse(std::string *descr, bool *fortran, std::vector<int64_t> *shape) {
    bool haveDescr = false, haveFortran = false, haveShape = false;
    if (!consume('{'))
      return error("expected '{'");
    while (!consume('}')) {
      std::string key;
      TCC_RETURN_IF_ERROR(parseString(&key));
      if (!consume(':'))
        return error("expected ':' after '" + key + "'");
      if (key == "descr") {
        if (peek() != '\'' && peek() != '"')
          return error("descr is not a plain dtype string (structured "
                       "arrays are not supported)");
        TCC_RETURN_IF_ERROR(parseString(descr));
        haveDescr = true;
      } else if (key == "fortran_order") {
        TCC_RETURN_IF_ERROR(parseBool(fortran));
        haveFortran = true;
      } else if (key == "shape") {
        TCC_RETURN_IF_ERROR(parseShape(shape));
        haveShape = true;
      } else {
        return error("unexpected key '" + key + "'");
      }
      if (!consume(',') && peek() != '}')
        return error("expected ',' or '}'");
    }
    skipSpace();
    if (pos_ != s_.size())
      return error("unexpected text after the dict");
    if (!haveDescr || !haveFortran || !haveShape)
      return error(std::string("missing key '") +
                   (!haveDescr     ? "descr"
                    : !haveFortran ? "fortran_order"
                                   : "shape") +
                   "'");
    return Status();
  }

private:
  Status error(const std::string &what) const {
    return malformed(cat("malformed header at character ", pos_, ": ", what));
  }
  void skipSpace() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' ||
                                s_[pos_] == '\n' || s_[pos_] == '\r'))
      ++pos_;
  }
  char peek() {
    skipSpace();
    return pos_ < s_.size() ? s_[pos_] : '\0';
  }
  bool consume(char c) {
    if (peek() != c)
      return false;
    ++pos_;
    return true;
  }
  Status parseString(std::string *out) {
    char quote = peek();
    if (quote != '\'' && quote != '"')
      return error("expected a string");
    size_t end = s_.find(quote, ++pos_);
    if (end == std::string::npos)
      return error("unterminated string");
    *out = s_.substr(pos_, end - pos_);
    pos_ = end + 1;
    return Status();
  }
  Status parseBool(bool *out) {
    skipSpace();
    for (auto [word, value] :
         {std::pair("True", true), std::pair("False", false)})
      if (s_.compare(pos_, std::strlen(word), word) == 0) {
        pos_ += std::strlen(word);
        *out = value;
        return Status();
      }
    return error("expected True or False");
  }
  Status parseShape(std::vector<int64_t> *out) {
    out->clear();
    if (!consume('('))
      return error("shape is not a tuple");
    while (!consume(')')) {
      skipSpace();
      size_t start = pos_;
      int64_t value = 0;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
        if (value > (INT64_MAX - 9) / 10)
          return error("dimension too large");
        value = value * 10 + (s_[pos_++] - '0');
      }
      if (pos_ < s_.size() && s_[pos_] == 'L') // Python 2's long suffix
        ++pos_;
      if (pos_ == start)
        return error("shape holds something other than non-negative "
                     "integers");
      out->push_back(value);
      if (!consume(',') && peek() != ')')
        return error("expected ',' or ')' in shape");
    }
    return Status();
  }

  const std::string &s_;
  size_t pos_ = 0;
};

// Rearranges column-major elements into row-major order.
std::vector<uint8_t> fortranToC(const std::vector<uint8_t> &data,
                                const std::vector<int64_t> &shape,
                                size_t elemSize) {
  std::vector<uint8_t> out(data.size());
  size_t count = data.size() / std::max<size_t>(elemSize, 1);
  std::vector<int64_t> index(shape.size(), 0);
  for (size_t i = 0; i < count; ++i) {
    size_t source = 0, stride = 1;
    for (size_t d = 0; d < shape.size(); ++d) {
      source += size_t(index[d]) * stride;
      stride *= size_t(shape[d]);
    }
    std::memcpy(&out[i * elemSize], &data[source * elemSize], elemSize);
    for (size_t d = shape.size(); d-- > 0;) // next row-major index
      if (++index[d] < shape[d])
        break;
      else
        index[d] = 0;
  }
  return out;
}

} // namespace

Status parseNpy(const void *bytes, size_t size, NpyArray *out) {
  const auto *p = static_cast<const uint8_t *>(bytes);
  if (size < kMagicSize + 2 || std::memcmp(p, kMagic, kMagicSize) != 0)
    return malformed("not a .npy file (no \\x93NUMPY magic)");
  uint8_t major = p[6], minor = p[7];
  if (major < 1 || major > 3 || minor != 0)
    return Status(TCC_STATUS_UNIMPLEMENTED,
                  cat(".npy format version ", int(major), ".", int(minor),
                      " is not supported (1.0, 2.0 and 3.0 are)"));
  size_t lengthBytes = major == 1 ? 2 : 4;
  size_t headerStart = kMagicSize + 2 + lengthBytes;
  if (size < headerStart)
    return malformed("file ends inside the header length (truncated?)");
  uint64_t headerLength = 0;
  for (size_t i = 0; i < lengthBytes; ++i)
    headerLength |= uint64_t(p[8 + i]) << (8 * i);
  if (headerLength > size - headerStart)
    return malformed(cat("header of ", headerLength,
                         " bytes ends past the end of the ", size,
                         "-byte file (truncated?)"));
  std::string header(reinterpret_cast<const char *>(p + headerStart),
                     size_t(headerLength));
  if (header.empty() || header.back() != '\n')
    return malformed("header does not end with a newline");

  std::string descr;
  bool fortran = false;
  std::vector<int64_t> shape;
  TCC_RETURN_IF_ERROR(HeaderParser(header).parse(&descr, &fortran, &shape));

  if (descr.size() < 2)
    return Status(TCC_STATUS_UNIMPLEMENTED,
                  cat("unsupported dtype '", descr, "'"));
  char order = descr[0];
  const Descr *match = nullptr;
  for (const Descr &d : kDescrs)
    if (descr.compare(1, std::string::npos, d.type) == 0)
      match = &d;
  bool knownOrder =
      order == '<' || order == '>' || order == '|' || order == '=';
  if (!match || !knownOrder)
    return Status(TCC_STATUS_UNIMPLEMENTED,
                  cat("unsupported dtype '", descr,
                      "' (supported: <f4 <f8 <f2 <V2 (bf16) <i8 <i4 |i1 |u1 "
                      "|b1)"));
  size_t elemSize = tcc_dtype_size(match->dtype);

  uint64_t dataBytes = elemSize;
  for (int64_t d : shape)
    if (!checkedMul(dataBytes, uint64_t(d), &dataBytes))
      return malformed("shape overflows 64-bit sizes");
  uint64_t available = size - headerStart - headerLength;
  if (available < dataBytes)
    return malformed(cat("data has ", available, " bytes, the ", descr,
                         " shape needs ", dataBytes, " (truncated?)"));
  if (available > dataBytes)
    return malformed(
        cat(available - dataBytes, " unexpected bytes after the array data"));

  NpyArray array;
  array.dtype = match->dtype;
  array.shape = shape;
  const uint8_t *data = p + headerStart + headerLength;
  if (array.dtype == TCC_DTYPE_BOOL)
    if (std::string bad = invalidBoolByte(data, dataBytes); !bad.empty())
      return malformed(bad);
  array.data.assign(data, data + dataBytes);
  if (order == '>' && elemSize > 1)
    for (size_t i = 0; i < array.data.size(); i += elemSize)
      std::reverse(array.data.begin() + long(i),
                   array.data.begin() + long(i + elemSize));
  if (fortran && shape.size() > 1)
    array.data = fortranToC(array.data, shape, elemSize);
  *out = std::move(array);
  return Status();
}

Status readNpy(const std::string &path, NpyArray *out) {
  std::unique_ptr<FILE, int (*)(FILE *)> file(std::fopen(path.c_str(), "rb"),
                                              std::fclose);
  if (!file)
    return Status(errno == ENOENT ? TCC_STATUS_NOT_FOUND : TCC_STATUS_IO_ERROR,
                  cat(path, ": cannot open: ", std::strerror(errno)));
  // Only a regular file has a size to trust: a device or pipe (/dev/zero)
  // could be read until memory runs out.
  struct stat st;
  if (::fstat(::fileno(file.get()), &st) != 0 || !S_ISREG(st.st_mode))
    return Status(TCC_STATUS_INVALID_ARGUMENT,
                  cat(path, ": not a regular file"));
  std::vector<uint8_t> bytes;
  try {
    bytes.resize(static_cast<size_t>(st.st_size));
  } catch (const std::exception &) {
    return Status(TCC_STATUS_RESOURCE_EXHAUSTED,
                  cat(path, ": out of memory reading ", st.st_size, " bytes"));
  }
  size_t n = std::fread(bytes.data(), 1, bytes.size(), file.get());
  if (std::ferror(file.get()) || n != bytes.size())
    return Status(TCC_STATUS_IO_ERROR, cat(path, ": read error"));
  return parseNpy(bytes.data(), bytes.size(), out).withContext(path);
}

Status encodeNpy(tcc_dtype_t dtype, const std::vector<int64_t> &shape,
                 const void *data, size_t byteSize, std::vector<uint8_t> *out) {
  std::string descr = descrOf(dtype);
  if (descr.empty())
    return Status(TCC_STATUS_INVALID_ARGUMENT,
                  cat("unknown dtype ", int(dtype)));
  uint64_t expected = tcc_dtype_size(dtype);
  std::string shapeText = "(";
  for (int64_t d : shape) {
    if (d < 0 || !checkedMul(expected, uint64_t(d), &expected))
      return Status(TCC_STATUS_INVALID_ARGUMENT,
                    "shape has a negative dimension or overflows");
    shapeText += cat(d, shape.size() == 1 ? "," : ", ");
  }
  if (shape.size() > 1)
    shapeText.resize(shapeText.size() - 2);
  shapeText += ")";
  if (expected != byteSize)
    return Status(TCC_STATUS_INVALID_ARGUMENT,
                  cat(byteSize, " bytes given, the ", tcc_dtype_name(dtype),
                      " shape needs ", expected));
  if (!data && byteSize)
    return Status(TCC_STATUS_INVALID_ARGUMENT, "data is NULL");

  std::string header = "{'descr': '" + descr +
                       "', 'fortran_order': False, 'shape': " + shapeText +
                       ", }";
  // Pad with spaces so the data starts at a multiple of 64, as NumPy does.
  bool v2 = header.size() + 1 + kMagicSize + 4 > 65535;
  size_t prefix = kMagicSize + 2 + (v2 ? 4 : 2);
  size_t total = (prefix + header.size() + 1 + 63) / 64 * 64;
  header.append(total - prefix - header.size() - 1, ' ');
  header += '\n';

  std::vector<uint8_t> file(prefix + header.size() + byteSize);
  std::memcpy(file.data(), kMagic, kMagicSize);
  file[6] = v2 ? 2 : 1;
  file[7] = 0;
  for (size_t i = 8; i < prefix; ++i)
    file[i] = uint8_t(header.size() >> (8 * (i - 8)));
  std::memcpy(file.data() + prefix, header.data(), header.size());
  if (byteSize)
    std::memcpy(file.data() + prefix + header.size(), data, byteSize);
  *out = std::move(file);
  return Status();
}

Status writeNpy(const std::string &path, tcc_dtype_t dtype,
                const std::vector<int64_t> &shape, const void *data,
                size_t byteSize) {
  std::vector<uint8_t> bytes;
  TCC_RETURN_IF_ERROR(
      encodeNpy(dtype, shape, data, byteSize, &bytes).withContext(path));
  std::string error = writeFileAtomically(path, bytes.data(), bytes.size());
  return error.empty() ? Status() : Status(TCC_STATUS_IO_ERROR, error);
}

} // namespace runtime
} // namespace tcc
