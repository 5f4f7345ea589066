//===- Types.cpp - ScalarType, Device, Scalar and errors ------------------===//

#include "tcc/Frontend/ArrayRef.h"
#include "tcc/Frontend/Check.h"
#include "tcc/Frontend/Device.h"
#include "tcc/Frontend/Scalar.h"
#include "tcc/Frontend/TensorOptions.h"

#include <ostream>

namespace tcc {

void detail::throwError(const std::string &message) { throw Error(message); }

size_t elementSize(ScalarType t) {
  switch (t) {
  case kByte:
  case kChar:
  case kBool:
    return 1;
  case kShort:
  case kHalf:
  case kBFloat16:
    return 2;
  case kInt:
  case kFloat:
    return 4;
  case kLong:
  case kDouble:
    return 8;
  case ScalarType::Undefined:
    break;
  }
  detail::throwError("elementSize: undefined dtype");
}

const char *toString(ScalarType t) {
  switch (t) {
  case kByte:
    return "Byte";
  case kChar:
    return "Char";
  case kShort:
    return "Short";
  case kInt:
    return "Int";
  case kLong:
    return "Long";
  case kHalf:
    return "Half";
  case kFloat:
    return "Float";
  case kDouble:
    return "Double";
  case kBool:
    return "Bool";
  case kBFloat16:
    return "BFloat16";
  case ScalarType::Undefined:
    break;
  }
  return "Undefined";
}

std::ostream &operator<<(std::ostream &os, ScalarType t) {
  return os << toString(t);
}

namespace {
int intRank(ScalarType t) {
  switch (t) {
  case kChar:
    return 0;
  case kShort:
    return 1;
  case kInt:
    return 2;
  default:
    return 3; // kLong
  }
}
int floatRank(ScalarType t) {
  return t == kDouble ? 2 : t == kFloat ? 1 : 0; // Half, BFloat16: 0
}
} // namespace

ScalarType promoteTypes(ScalarType a, ScalarType b) {
  if (a == b)
    return a;
  if (a == ScalarType::Undefined)
    return b;
  if (b == ScalarType::Undefined)
    return a;
  if (a == kBool)
    return b;
  if (b == kBool)
    return a;
  bool fa = isFloatingType(a), fb = isFloatingType(b);
  if (fa && fb) {
    int ra = floatRank(a), rb = floatRank(b);
    if (ra == 0 && rb == 0) // Half with BFloat16
      return kFloat;
    return ra >= rb ? a : b;
  }
  if (fa)
    return a;
  if (fb)
    return b;
  // Both integral and different.
  if (a == kByte || b == kByte) {
    ScalarType other = a == kByte ? b : a;
    return other == kChar ? kShort : other;
  }
  return intRank(a) >= intRank(b) ? a : b;
}

bool canCast(ScalarType from, ScalarType to) {
  if (isFloatingType(from) && isIntegralType(to, /*includeBool=*/true))
    return false;
  if (from != kBool && to == kBool)
    return false;
  return true;
}

namespace {
ScalarType &defaultDtype() {
  static ScalarType t = kFloat;
  return t;
}
} // namespace

ScalarType get_default_dtype() { return defaultDtype(); }
void set_default_dtype(ScalarType t) {
  TCC_CHECK(isFloatingType(t),
            "set_default_dtype: only floating-point types can be the default "
            "dtype, got ",
            t);
  defaultDtype() = t;
}

std::ostream &operator<<(std::ostream &os, const TensorOptions &o) {
  return os << "TensorOptions(dtype=" << o.dtype() << ", device=" << o.device()
            << ", requires_grad=" << (o.requires_grad() ? "true" : "false")
            << ")";
}

Device::Device(const std::string &spec) : type_(kCPU), index_(-1) {
  std::string name = spec, index;
  size_t colon = spec.find(':');
  if (colon != std::string::npos) {
    name = spec.substr(0, colon);
    index = spec.substr(colon + 1);
  }
  if (name == "cpu")
    type_ = kCPU;
  else if (name == "cuda")
    type_ = kCUDA;
  else
    detail::throwError(
        "Expected one of cpu, cuda device type at start of device string: " +
        spec);
  if (colon != std::string::npos) {
    bool ok = !index.empty() && index.size() <= 3;
    for (char c : index)
      ok = ok && c >= '0' && c <= '9';
    TCC_CHECK(ok, "Invalid device string: '", spec, "'");
    index_ = int8_t(std::stoi(index));
  }
}

std::string Device::str() const {
  std::string s = is_cpu() ? "cpu" : "cuda";
  if (index_ >= 0)
    s += ":" + std::to_string(index_);
  return s;
}

std::ostream &operator<<(std::ostream &os, const Device &d) {
  return os << d.str();
}
std::ostream &operator<<(std::ostream &os, DeviceType t) {
  return os << (t == kCPU ? "cpu" : "cuda");
}

bool cuda::is_available() { return false; }
int64_t cuda::device_count() { return 0; }

std::ostream &operator<<(std::ostream &os, const Scalar &s) {
  if (s.isFloatingPoint())
    return os << s.toDouble();
  if (s.isBoolean())
    return os << (s.toBool() ? "true" : "false");
  return os << s.toLong();
}

std::ostream &operator<<(std::ostream &os, IntArrayRef a) {
  os << "[";
  for (size_t i = 0; i < a.size(); ++i)
    os << (i ? ", " : "") << a[i];
  return os << "]";
}

} // namespace tcc
