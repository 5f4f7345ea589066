//===- CorruptionTest.cpp - damaged files fail cleanly, never crash
//--------===//
//
// Every prefix of a small model and every single-byte change at every
// offset must be rejected with an error status. Each run loads through the
// full C API path (which maps code when everything passes), so a corruption
// that slipped through would reach dlopen or a kernel and show up here.
//
//===----------------------------------------------------------------------===//

#include "TestModels.h"

#include "tcc/runtime/Status.h"
#include "tcc/runtime/tcc_runtime.h"

#include <gtest/gtest.h>

using tcc::runtime::Status;
using tcc::test::addMulModel;

namespace {

Status load(const std::vector<uint8_t> &file) {
  tcc_model_t *model = nullptr;
  Status s(tcc_model_load_memory(file.data(), file.size(), nullptr, &model));
  tcc_model_release(model);
  return s;
}

TEST(Corruption, EveryTruncationIsRejected) {
  std::vector<uint8_t> file = addMulModel(3).finish();
  ASSERT_TRUE(load(file).ok());
  for (size_t length = 0; length < file.size(); ++length) {
    std::vector<uint8_t> prefix(file.begin(), file.begin() + length);
    Status s = load(prefix);
    ASSERT_FALSE(s.ok()) << "a " << length << "-byte prefix loaded";
    ASSERT_FALSE(s.message().empty());
  }
}

// Two flips per offset: the lowest bit (the smallest change) and all bits.
TEST(Corruption, EveryFlippedByteIsRejected) {
  std::vector<uint8_t> file = addMulModel(3).finish();
  for (uint8_t mask : {uint8_t(0x01), uint8_t(0xFF)})
    for (size_t offset = 0; offset < file.size(); ++offset) {
      file[offset] ^= mask;
      Status s = load(file);
      file[offset] ^= mask;
      ASSERT_FALSE(s.ok()) << "flipping byte " << offset << " with mask "
                           << int(mask) << " went unnoticed";
      ASSERT_FALSE(s.message().empty());
    }
}

} // namespace
