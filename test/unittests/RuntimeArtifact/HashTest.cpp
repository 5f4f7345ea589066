//===- HashTest.cpp - hash64 against published XXH64 values ---------------===//

#include "tcc/runtime/ArtifactFormat.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using tcc::runtime::hash64;

namespace {

// Expected values from the reference xxHash implementation (python-xxhash
// 3.x, xxh64 with seed 0).
TEST(Hash64, MatchesReferenceXXH64) {
  EXPECT_EQ(hash64("", 0), 0xef46db3751d8e999ULL);
  EXPECT_EQ(hash64("a", 1), 0xd24ec4f1a98c6e5bULL);
  EXPECT_EQ(hash64("abc", 3), 0x44bc2cf5ad770999ULL);
  std::string s67;
  for (int i = 0; i < 4; ++i)
    s67 += "0123456789abcdef";
  s67 += "xyz";
  EXPECT_EQ(hash64(s67.data(), s67.size()), 0x98ad8ff4ba176c8fULL);
  std::vector<unsigned char> s768;
  for (int r = 0; r < 3; ++r)
    for (int i = 0; i < 256; ++i)
      s768.push_back((unsigned char)i);
  EXPECT_EQ(hash64(s768.data(), s768.size()), 0x8e03c838c596036fULL);
}

TEST(Hash64, ReadsUnalignedInput) {
  std::vector<unsigned char> buf(100 + 8);
  for (size_t i = 0; i < buf.size(); ++i)
    buf[i] = (unsigned char)(i * 7 + 3);
  std::vector<unsigned char> copy(buf.begin() + 1, buf.begin() + 101);
  EXPECT_EQ(hash64(buf.data() + 1, 100), hash64(copy.data(), copy.size()));
}

TEST(Hash64, EverySingleBitFlipChangesTheHash) {
  std::vector<unsigned char> buf(77, 0x5a);
  uint64_t base = hash64(buf.data(), buf.size());
  for (size_t i = 0; i < buf.size(); ++i)
    for (int bit = 0; bit < 8; ++bit) {
      buf[i] ^= (unsigned char)(1u << bit);
      EXPECT_NE(hash64(buf.data(), buf.size()), base) << i << ":" << bit;
      buf[i] ^= (unsigned char)(1u << bit);
    }
}

} // namespace
