//===- TargetTest.cpp - the target registry and what it answers -----------===//
//
// Targets are registered in one place (codegen/lib/Targets/Targets.def);
// these tests hold every registered target to the contract the planner and
// the passes rely on, so a new target is checked by being registered.
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/CpuTarget.h"
#include "tcc/Codegen/Target.h"

#include <gtest/gtest.h>

using namespace mlir::tcc;

namespace {

TargetRequest named(const std::string &target) {
  TargetRequest request;
  request.target = target;
  return request;
}

TEST(Target, EveryRegisteredTargetIsFoundByItsNameEverywhere) {
  registerTargets();
  ASSERT_FALSE(registeredTargets().empty());
  for (const TargetRegistration &registration : registeredTargets()) {
    // The passes' lookup, the registration and the configured target agree
    // on the name.
    const TargetCapabilities *capabilities =
        lookupTargetCapabilities(registration.name);
    ASSERT_NE(capabilities, nullptr) << registration.name;
    EXPECT_EQ(capabilities, &registration.capabilities());
    EXPECT_EQ(capabilities->name(), registration.name);
    std::string error;
    std::unique_ptr<Target> target =
        resolveTarget(named(registration.name), &error);
    ASSERT_NE(target, nullptr) << registration.name << ": " << error;
    EXPECT_EQ(target->name(), registration.name);
    EXPECT_EQ(&target->capabilities(), capabilities);
    // A power of two that keeps the runtime's vector loads aligned.
    uint64_t alignment = capabilities->bufferAlignment();
    EXPECT_GE(alignment, 16u) << registration.name;
    EXPECT_EQ(alignment & (alignment - 1), 0u) << registration.name;
  }
}

TEST(Target, UnknownTargetListsEveryRegisteredName) {
  std::string error;
  EXPECT_EQ(resolveTarget(named("vax"), &error), nullptr);
  EXPECT_NE(error.find("unknown target 'vax'"), std::string::npos) << error;
  for (const std::string &name : targetNames())
    EXPECT_NE(error.find(name), std::string::npos) << error;
}

#if defined(__x86_64__)
TEST(Target, CpuMeansThisMachinesArchitectureAndTriple) {
  std::string error;
  std::unique_ptr<Target> target = resolveTarget(named("cpu"), &error);
  ASSERT_NE(target, nullptr) << error;
  EXPECT_EQ(target->name(), "x86_64");
  EXPECT_EQ(target->codeIdentity().triple, hostTriple());
}

TEST(Target, ATripleNamesItsTarget) {
  TargetRequest request;
  request.triple = "x86_64-unknown-linux-gnu";
  request.cpu = "x86-64-v3";
  std::string error;
  std::unique_ptr<Target> target = resolveTarget(request, &error);
  ASSERT_NE(target, nullptr) << error;
  EXPECT_EQ(target->name(), "x86_64");
  CodeModuleIdentity code = target->codeIdentity();
  EXPECT_EQ(code.cpu, "x86-64-v3");
  // The CPU's features, as CpuTarget computes them: one definition.
  EXPECT_EQ(code.requiredFeatures,
            CpuTarget::named("x86-64-v3", request.triple).requiredFeatures());
}

TEST(Target, X86RunsF32GemmsAndConvolutionsChannelsLast) {
  registerTargets();
  const TargetCapabilities *x86 = lookupTargetCapabilities("x86_64");
  ASSERT_NE(x86, nullptr);
  EXPECT_TRUE(x86->prefersChannelsLast());
  for (EpilogueActivation activation :
       {EpilogueActivation::Relu, EpilogueActivation::Clamp,
        EpilogueActivation::Gelu, EpilogueActivation::GeluTanh,
        EpilogueActivation::Silu, EpilogueActivation::Sigmoid,
        EpilogueActivation::Tanh})
    EXPECT_TRUE(x86->appliesActivation(activation));
}
#endif

} // namespace
