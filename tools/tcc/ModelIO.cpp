//===- ModelIO.cpp - .npy inputs and outputs of a model -------------------===//

#include "ModelIO.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

namespace tcc {
namespace tool {

using runtime::Model;
using runtime::NpyArray;
using runtime::Session;
using runtime::Status;
using runtime::TensorInfo;

std::string describeTensor(tcc_dtype_t dtype,
                           const std::vector<int64_t> &shape) {
  std::string s = std::string(tcc_dtype_name(dtype)) + "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

NamedPath parseNamedPath(const std::string &arg) {
  size_t eq = arg.find('=');
  if (eq == std::string::npos || eq == 0 ||
      arg.substr(0, eq).find('/') != std::string::npos)
    return {"", arg};
  return {arg.substr(0, eq), arg.substr(eq + 1)};
}

namespace {

Status assign(const Model &model, bool inputs,
              const std::vector<NamedPath> &args,
              std::vector<std::string> *pathByIndex) {
  const char *kind = inputs ? "input" : "output";
  const char *flag = inputs ? "--input" : "--output";
  size_t count = inputs ? model.inputCount() : model.outputCount();
  std::vector<bool> given(count, false);
  pathByIndex->assign(count, "");
  auto describe = [](const NamedPath &a) {
    return a.name.empty() ? a.path : a.name + "=" + a.path;
  };
  // Named first, so positional ones fill what is left in order.
  for (const NamedPath &a : args) {
    if (a.name.empty())
      continue;
    size_t index;
    Status s = inputs ? model.findInput(a.name, &index)
                      : model.findOutput(a.name, &index);
    if (!s.ok())
      return Status(s.code(),
                    std::string(flag) + " " + describe(a) + ": " + s.message());
    if (given[index])
      return Status(TCC_STATUS_INVALID_ARGUMENT,
                    std::string(kind) + " '" + a.name + "' is given twice");
    given[index] = true;
    (*pathByIndex)[index] = a.path;
  }
  size_t next = 0;
  for (const NamedPath &a : args) {
    if (!a.name.empty())
      continue;
    while (next < count && given[next])
      ++next;
    if (next == count)
      return Status(TCC_STATUS_INVALID_ARGUMENT,
                    std::string(flag) + " " + a.path + ": the model has only " +
                        std::to_string(count) + " " + kind +
                        "s and all are "
                        "already given");
    given[next] = true;
    (*pathByIndex)[next++] = a.path;
  }
  if (inputs)
    for (size_t i = 0; i < count; ++i)
      if (!given[i]) {
        TensorInfo info;
        (void)model.input(i, &info);
        return Status(TCC_STATUS_INVALID_ARGUMENT,
                      "input " + std::to_string(i) + " '" + info.name + "' (" +
                          describeTensor(info.dtype, info.shape) +
                          ") has no --input");
      }
  return Status();
}

} // namespace

Status assignInputs(const Model &model, const std::vector<NamedPath> &inputs,
                    std::vector<std::string> *pathByInput) {
  return assign(model, true, inputs, pathByInput);
}

Status assignOutputs(const Model &model, const std::vector<NamedPath> &outputs,
                     std::vector<std::string> *pathByOutput) {
  return assign(model, false, outputs, pathByOutput);
}

Status bindNpyInputs(const Model &model, Session &session,
                     const std::vector<std::string> &pathByInput,
                     std::vector<NpyArray> *arrays) {
  arrays->assign(pathByInput.size(), NpyArray());
  for (size_t i = 0; i < pathByInput.size(); ++i) {
    TensorInfo info;
    TCC_RETURN_IF_ERROR(model.input(i, &info));
    NpyArray &a = (*arrays)[i];
    TCC_RETURN_IF_ERROR(runtime::readNpy(pathByInput[i], &a));
    if (a.dtype != info.dtype || a.shape != info.shape)
      return Status(TCC_STATUS_INVALID_ARGUMENT,
                    pathByInput[i] + ": " + describeTensor(a.dtype, a.shape) +
                        " but input '" + info.name + "' is " +
                        describeTensor(info.dtype, info.shape));
    TCC_RETURN_IF_ERROR(session.bindInput(i, a.data.data(), a.data.size()));
  }
  return Status();
}

Status bindRandomInputs(const Model &model, Session &session, unsigned seed,
                        std::vector<NpyArray> *arrays) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  arrays->assign(model.inputCount(), NpyArray());
  for (size_t i = 0; i < model.inputCount(); ++i) {
    TensorInfo info;
    TCC_RETURN_IF_ERROR(model.input(i, &info));
    NpyArray &a = (*arrays)[i];
    a.dtype = info.dtype;
    a.shape = info.shape;
    try {
      a.data.resize(info.byteSize);
    } catch (const std::exception &) {
      return Status(TCC_STATUS_RESOURCE_EXHAUSTED,
                    "input " + std::to_string(i) + " '" + info.name + "' (" +
                        describeTensor(info.dtype, info.shape) + ", " +
                        std::to_string(info.byteSize) +
                        " bytes): out of memory for its random values");
    }
    size_t n = a.elementCount();
    for (size_t j = 0; j < n; ++j) {
      double v = uniform(gen);
      uint8_t *p = a.data.data() + j * tcc_dtype_size(a.dtype);
      switch (a.dtype) {
      case TCC_DTYPE_F32: {
        float f = float(v);
        std::memcpy(p, &f, 4);
        break;
      }
      case TCC_DTYPE_F64:
        std::memcpy(p, &v, 8);
        break;
      case TCC_DTYPE_I64: {
        int64_t x = int64_t(std::floor(v * 8));
        std::memcpy(p, &x, 8);
        break;
      }
      case TCC_DTYPE_I32: {
        int32_t x = int32_t(std::floor(v * 8));
        std::memcpy(p, &x, 4);
        break;
      }
      case TCC_DTYPE_BOOL:
        *p = uint8_t(j % 2);
        break;
      default: { // 8-bit and 16-bit types: small bit patterns
        uint16_t x = uint16_t(gen() & 0x3f);
        std::memcpy(p, &x, tcc_dtype_size(a.dtype));
      }
      }
    }
    TCC_RETURN_IF_ERROR(session.bindInput(i, a.data.data(), a.data.size()));
  }
  return Status();
}

namespace {

float halfToFloat(uint16_t h) {
  int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  float v;
  if (exponent == 0)
    v = std::ldexp(float(mantissa), -24);
  else if (exponent == 31)
    v = mantissa ? NAN : INFINITY;
  else
    v = std::ldexp(float(mantissa | 0x400), exponent - 25);
  return sign ? -v : v;
}

float bf16ToFloat(uint16_t b) {
  uint32_t bits = uint32_t(b) << 16;
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}

void printElement(FILE *out, tcc_dtype_t dtype, const uint8_t *p) {
  switch (dtype) {
  case TCC_DTYPE_F32: {
    float v;
    std::memcpy(&v, p, 4);
    std::fprintf(out, "%.9g", double(v));
    return;
  }
  case TCC_DTYPE_F64: {
    double v;
    std::memcpy(&v, p, 8);
    std::fprintf(out, "%.17g", v);
    return;
  }
  case TCC_DTYPE_F16:
  case TCC_DTYPE_BF16: {
    uint16_t h;
    std::memcpy(&h, p, 2);
    float v = dtype == TCC_DTYPE_F16 ? halfToFloat(h) : bf16ToFloat(h);
    std::fprintf(out, "%.5g", double(v));
    return;
  }
  case TCC_DTYPE_I64: {
    int64_t v;
    std::memcpy(&v, p, 8);
    std::fprintf(out, "%lld", (long long)v);
    return;
  }
  case TCC_DTYPE_I32: {
    int32_t v;
    std::memcpy(&v, p, 4);
    std::fprintf(out, "%d", v);
    return;
  }
  case TCC_DTYPE_I8:
    std::fprintf(out, "%d", int(int8_t(*p)));
    return;
  case TCC_DTYPE_U8:
    std::fprintf(out, "%u", unsigned(*p));
    return;
  case TCC_DTYPE_BOOL:
    std::fprintf(out, "%s", *p ? "true" : "false");
    return;
  default:
    std::fputs("?", out);
  }
}

double elementValue(tcc_dtype_t dtype, const uint8_t *p) {
  switch (dtype) {
  case TCC_DTYPE_F32: {
    float v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case TCC_DTYPE_F64: {
    double v;
    std::memcpy(&v, p, 8);
    return v;
  }
  case TCC_DTYPE_F16:
  case TCC_DTYPE_BF16: {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return dtype == TCC_DTYPE_F16 ? halfToFloat(h) : bf16ToFloat(h);
  }
  case TCC_DTYPE_I64: {
    int64_t v;
    std::memcpy(&v, p, 8);
    return double(v);
  }
  case TCC_DTYPE_I32: {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case TCC_DTYPE_I8:
    return int8_t(*p);
  default: // u8, bool
    return *p;
  }
}

/// A few values from each end, then min, max and mean over the finite
/// values and how many are NaN or infinite.
void printSummary(FILE *out, tcc_dtype_t dtype, const uint8_t *p,
                  size_t count) {
  const size_t elemSize = tcc_dtype_size(dtype);
  const size_t shown = 6;
  std::fputs("  first:", out);
  for (size_t i = 0; i < shown; ++i) {
    std::fputc(' ', out);
    printElement(out, dtype, p + i * elemSize);
  }
  std::fputs(" ... last:", out);
  for (size_t i = count - shown; i < count; ++i) {
    std::fputc(' ', out);
    printElement(out, dtype, p + i * elemSize);
  }
  double lo = INFINITY, hi = -INFINITY, sum = 0;
  size_t finite = 0, nan = 0, inf = 0;
  for (size_t i = 0; i < count; ++i) {
    double v = elementValue(dtype, p + i * elemSize);
    if (std::isnan(v)) {
      ++nan;
    } else if (std::isinf(v)) {
      ++inf;
    } else {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      sum += v;
      ++finite;
    }
  }
  std::fprintf(out, "\n  %zu elements", count);
  if (finite)
    std::fprintf(out, ": min %.9g, max %.9g, mean %.9g", lo, hi,
                 sum / double(finite));
  if (nan || inf)
    std::fprintf(out, "; %zu NaN, %zu infinite", nan, inf);
  std::fputs(" (--print-all prints every value)\n", out);
}

} // namespace

void printTensor(FILE *out, const TensorInfo &info, const void *data,
                 bool all) {
  std::fprintf(out, "%s: %s\n", info.name.c_str(),
               describeTensor(info.dtype, info.shape).c_str());
  size_t elemSize = tcc_dtype_size(info.dtype);
  size_t count = info.byteSize / elemSize;
  if (!all && count > kPrintAllLimit) {
    printSummary(out, info.dtype, static_cast<const uint8_t *>(data), count);
    return;
  }
  size_t row =
      info.shape.empty() ? 1 : size_t(std::max<int64_t>(info.shape.back(), 1));
  const auto *p = static_cast<const uint8_t *>(data);
  for (size_t i = 0; i < count; ++i) {
    std::fputs(i % row == 0 ? "  " : " ", out);
    printElement(out, info.dtype, p + i * elemSize);
    if (i % row == row - 1 || i + 1 == count)
      std::fputc('\n', out);
  }
}

runtime::Status readTrustedKey(const std::string &path, TrustedKey *out) {
  out->given = !path.empty();
  if (!out->given)
    return runtime::Status();
  return runtime::Status(runtime::readPublicKey(path, &out->key))
      .withContext("--public-key");
}

} // namespace tool
} // namespace tcc
