//===- ModelTestSupport.h - loading and feeding test models -----*- C++ -*-===//

#ifndef TCC_TEST_RUNTIMEARTIFACT_MODELTESTSUPPORT_H
#define TCC_TEST_RUNTIMEARTIFACT_MODELTESTSUPPORT_H

#include "tcc/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <random>
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

} // namespace test
} // namespace tcc

#endif // TCC_TEST_RUNTIMEARTIFACT_MODELTESTSUPPORT_H
