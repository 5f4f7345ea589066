//===- ModelTestSupport.h - loading and feeding test models -----*- C++ -*-===//

#ifndef TCC_TEST_RUNTIMEARTIFACT_MODELTESTSUPPORT_H
#define TCC_TEST_RUNTIMEARTIFACT_MODELTESTSUPPORT_H

#include "tcc/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace tcc {
namespace test {

// A loaded model from builder bytes; a load failure fails the test.
inline runtime::Model loadModel(const std::vector<uint8_t> &bytes) {
  runtime::Model model;
  runtime::Status s =
      runtime::Model::loadMemory(bytes.data(), bytes.size(), &model);
  EXPECT_TRUE(s.ok()) << s.toString();
  return model;
}

// `n` seeded values in [-1, 1).
inline std::vector<float> randomFloats(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(gen);
  return v;
}

// Makes the test plugins findable (TestDevicePlugin.c).
inline void useTestDevices() {
  setenv("TCC_DEVICE_PATH", TCC_TEST_DEVICES_DIR, 1);
}

// Calls `function`, an int(void) function of the test plugin of `device`,
// which the runtime has loaded; -1 (and a failure) when it is not loaded.
inline int callTestDevice(const std::string &device, const char *function) {
  std::string path =
      std::string(TCC_TEST_DEVICES_DIR) + "/libtcc_device_" + device + ".so";
  void *library = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  EXPECT_NE(library, nullptr) << "device '" << device << "' is not loaded";
  if (!library)
    return -1;
  auto fn = reinterpret_cast<int (*)()>(dlsym(library, function));
  EXPECT_NE(fn, nullptr) << function;
  int result = fn ? fn() : -1;
  dlclose(library);
  return result;
}

} // namespace test
} // namespace tcc

#endif // TCC_TEST_RUNTIMEARTIFACT_MODELTESTSUPPORT_H
