//===- ArtifactBuilderTest.cpp - the file layout the builder writes -------===//

#include "TestModels.h"

#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/ArtifactFormat.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace tcc::runtime;
using namespace tcc::artifact;
using tcc::test::addMulModel;
using tcc::test::testKernels;

namespace {

uint64_t le(const std::vector<uint8_t> &f, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i)
    v |= uint64_t(f[at + i]) << (8 * i);
  return v;
}

TEST(ArtifactBuilder, WritesPreambleHeaderAndAlignedSegments) {
  std::vector<uint8_t> file = addMulModel(5).finish();
  ASSERT_GE(file.size(), 32u);
  EXPECT_EQ(std::memcmp(file.data(), "TCCMODEL", 8), 0);
  EXPECT_EQ(le(file, 8, 4), kArtifactFormatVersion);
  uint64_t headerSize = le(file, 12, 4);
  EXPECT_EQ(le(file, 16, 8), hash64(file.data() + 32, headerSize));
  EXPECT_EQ(le(file, 24, 8), 0u);
  EXPECT_EQ(std::memcmp(file.data() + 36, "TCCM", 4), 0); // identifier

  const Model *m = GetModel(file.data() + 32);
  ASSERT_EQ(m->segments()->size(), 2u);
  const Segment *constants = m->segments()->Get(0);
  const Segment *code = m->segments()->Get(1);
  EXPECT_EQ(constants->kind(), SegmentKind::Constants);
  EXPECT_EQ(constants->offset(), (32 + headerSize + 63) / 64 * 64);
  EXPECT_EQ(constants->size(), 5 * sizeof(float));
  float c[5];
  std::memcpy(c, file.data() + constants->offset(), sizeof(c));
  EXPECT_EQ(c[0], 1.0f);
  EXPECT_EQ(c[4], 5.0f);
  EXPECT_EQ(code->kind(), SegmentKind::Code);
  EXPECT_EQ(code->offset(), (constants->offset() + 20 + 63) / 64 * 64);
  EXPECT_EQ(code->size(), testKernels().size());
  EXPECT_EQ(code->offset() + code->size(), file.size());
  EXPECT_EQ(std::memcmp(file.data() + code->offset(), testKernels().data(),
                        testKernels().size()),
            0);
  EXPECT_EQ(code->hash(), hash64(testKernels().data(), testKernels().size()));
  for (uint64_t i = 32 + headerSize; i < constants->offset(); ++i)
    ASSERT_EQ(file[i], 0) << "padding byte " << i;
}

TEST(ArtifactBuilder, SameCallsGiveSameBytes) {
  EXPECT_EQ(addMulModel(7).finish(), addMulModel(7).finish());
}

TEST(ArtifactBuilder, ComputesByteSizesAndArenaBytes) {
  ArtifactBuilder b;
  uint32_t i = b.addArenaBuffer(DType::F64, {2, 3}, 128);
  EXPECT_EQ(b.model().buffers[i]->byte_size, 48u);
  EXPECT_EQ(b.model().arena_bytes, 176u);
  uint32_t s = b.addBuffer(DType::Bool, {}, Storage::Arena);
  EXPECT_EQ(b.model().buffers[s]->byte_size, 1u);
}

TEST(ArtifactBuilder, ModelWithoutSegmentsIsPaddedAndVerifies) {
  ArtifactBuilder b;
  b.addInput("x", DType::F32, {4});
  uint32_t out = b.addOutput("y", DType::F32, {4});
  CopyT copy;
  copy.src = 0;
  copy.dst = out;
  copy.bytes = 16;
  OpUnion op;
  op.Set(std::move(copy));
  b.addStep(std::move(op));
  std::vector<uint8_t> file = b.finish();
  EXPECT_EQ(file.size() % 64, 0u);
  const Model *m = nullptr;
  Status s = verifyArtifactBytes(file.data(), file.size(), &m);
  ASSERT_TRUE(s.ok()) << s.toString();
  EXPECT_EQ(m->plan()->size(), 1u);
}

TEST(ArtifactBuilder, EditHookChangesHeaderAndKeepsLayoutConsistent) {
  std::vector<uint8_t> file = addMulModel(3).finish([](ModelT &m) {
    m.tcc_version = "a much longer version string than before, to move things";
  });
  const Model *m = nullptr;
  Status s = verifyArtifactBytes(file.data(), file.size(), &m);
  ASSERT_TRUE(s.ok()) << s.toString();
  EXPECT_EQ(m->tcc_version()->str().substr(0, 6), "a much");
}

} // namespace
