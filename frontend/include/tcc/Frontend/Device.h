//===- Device.h - Where a tensor lives --------------------------*- C++ -*-===//

#ifndef TCC_FRONTEND_DEVICE_H
#define TCC_FRONTEND_DEVICE_H

#include <cstdint>
#include <iosfwd>
#include <string>

namespace tcc {

enum class DeviceType : int8_t { CPU = 0, CUDA = 1 };
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;

/// A device type and an optional index (-1: the current device).
class Device {
public:
  /* implicit */ Device(DeviceType type, int8_t index = -1)
      : type_(type), index_(index) {}
  /// Parses "cpu", "cuda", "cuda:1"; throws tcc::Error on anything else.
  /* implicit */ Device(const std::string &spec);
  /* implicit */ Device(const char *spec) : Device(std::string(spec)) {}

  DeviceType type() const { return type_; }
  int8_t index() const { return index_; }
  bool has_index() const { return index_ >= 0; }
  bool is_cpu() const { return type_ == kCPU; }
  bool is_cuda() const { return type_ == kCUDA; }
  /// "cpu", "cuda", "cuda:0".
  std::string str() const;

  bool operator==(const Device &o) const {
    return type_ == o.type_ && index_ == o.index_;
  }
  bool operator!=(const Device &o) const { return !(*this == o); }

private:
  DeviceType type_;
  int8_t index_;
};

std::ostream &operator<<(std::ostream &os, const Device &d);
std::ostream &operator<<(std::ostream &os, DeviceType t);

namespace cuda {
/// False until tcc has a CUDA backend for eager tensors.
bool is_available();
int64_t device_count();
} // namespace cuda

} // namespace tcc

#endif // TCC_FRONTEND_DEVICE_H
