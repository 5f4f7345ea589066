//===- StepKindsTest.cpp - the registry of plan-step kinds ----------------===//

#include "TestModels.h"

#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/ArtifactFormat.h"
#include "tcc/runtime/StepKinds.h"

#include <gtest/gtest.h>

#include <set>

using namespace tcc::runtime;
using namespace tcc::artifact;
using namespace tcc::test;

namespace {

TEST(StepKinds, EveryOpMemberIsRegisteredOnceByName) {
  std::set<std::string> names;
  for (int type = 1; type <= int(Op::MAX); ++type) {
    const char *name = stepKindName(Op(type));
    ASSERT_NE(name, nullptr) << EnumNameOp(Op(type)) << " has no step kind";
    EXPECT_TRUE(names.insert(name).second) << name << " is registered twice";
    EXPECT_TRUE(isStepKindName(name));
  }
  EXPECT_EQ(stepKindName(Op::NONE), nullptr);
  EXPECT_EQ(stepKindName(Op(int(Op::MAX) + 1)), nullptr);
  EXPECT_FALSE(isStepKindName("int8_gemm"));
}

TEST(StepKinds, DescribeAKernelCallAndACopy) {
  std::vector<uint8_t> file = addMulModel(4).finish();
  const Model *m = nullptr;
  ASSERT_TRUE(verifyArtifactBytes(file.data(), file.size(), &m).ok());
  StepDescription add = describeStep(*m, 0);
  EXPECT_EQ(add.kind, "kernel");
  EXPECT_EQ(add.role, "kernel 'tcc_test_add_f32'");
  EXPECT_EQ(add.summary, "kernel tcc_test_add_f32 (3 bindings, 4 tiles)");
  ASSERT_EQ(add.fields.size(), 3u);
  EXPECT_EQ(add.fields[0].key, "symbol");
  EXPECT_EQ(add.fields[0].text, "tcc_test_add_f32");
  EXPECT_EQ(add.fields[2].key, "bindings");
  EXPECT_EQ(add.fields[2].list, (std::vector<int64_t>{0, 1, 4}));
  EXPECT_EQ(add.sourceOps, (std::vector<std::string>{"tcc.add"}));
  EXPECT_EQ(add.bytes, 48.0); // three f32[4] bindings
  EXPECT_EQ(add.flops, 0.0);

  std::vector<uint8_t> copies = countTilesModel(3).finish();
  ASSERT_TRUE(verifyArtifactBytes(copies.data(), copies.size(), &m).ok());
  StepDescription copy = describeStep(*m, 0);
  EXPECT_EQ(copy.kind, "copy");
  EXPECT_EQ(copy.summary, "copy 12 bytes");
  EXPECT_EQ(copy.bytes, 24.0);
}

} // namespace
