//===- FormatThreeTest.cpp - code modules, memory spaces, step kinds ------===//
//
// What artifact format 3 added: several code modules tagged with their
// target, memory spaces, steps that name their kind and where they run, and
// the refusals of what this runtime cannot read (an older format, a step
// kind it does not know, a module kind no device here loads).
//
//===----------------------------------------------------------------------===//

#include "TempPath.h"
#include "TestModels.h"
#include "TestStatus.h"

#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/ArtifactFormat.h"
#include "tcc/runtime/Runtime.h"

#include <gtest/gtest.h>
#include <unistd.h>

using namespace tcc::runtime;
using namespace tcc::artifact;
using namespace tcc::test;

namespace {

Status verify(const std::vector<uint8_t> &file) {
  const tcc::artifact::Model *m = nullptr;
  return verifyArtifactBytes(file.data(), file.size(), &m);
}

Status load(const std::vector<uint8_t> &file) {
  tcc::runtime::Model model;
  return tcc::runtime::Model::loadMemory(file.data(), file.size(), &model);
}

// addMulModel with its multiply kernel in a second CPU module that has its
// own copy of the code.
ArtifactBuilder twoModuleModel() {
  ArtifactBuilder b = addMulModel(4);
  CodeModuleT cpu;
  cpu.kind = kCpuModuleKind;
  cpu.target_triple = hostTargetTriple();
  cpu.cpu = hostBaselineCpu();
  uint32_t second = b.addCodeModule(cpu, testKernels());
  EXPECT_EQ(second, 1u);
  b.model().kernels[1]->code_module = second;
  b.model().plan[1]->code_module = second;
  return b;
}

ArtifactBuilder withCudaModule() {
  ArtifactBuilder b = addMulModel(4);
  addCudaModule(b, {"sm_90"});
  return b;
}

// The byte of plan step `step`'s union type in `file`.
uint8_t *stepTypeByte(std::vector<uint8_t> &file, uint32_t step) {
  const auto *m = GetModel(file.data() + kArtifactPreambleSize);
  const auto *table =
      reinterpret_cast<const flatbuffers::Table *>(m->plan()->Get(step));
  const uint8_t *type = table->GetAddressOf(Step::VT_OP_TYPE);
  return type ? file.data() + (type - file.data()) : nullptr;
}

TEST(FormatThree, WriterEmitsOneCpuModuleAndAHostArena) {
  std::vector<uint8_t> file = addMulModel(4).finish();
  ASSERT_TCC_OK(verify(file));
  const auto *m = GetModel(file.data() + kArtifactPreambleSize);
  EXPECT_EQ(m->format_version(), 3u);
  ASSERT_EQ(m->code_modules()->size(), 1u);
  const CodeModule *module = m->code_modules()->Get(0);
  EXPECT_EQ(module->kind()->str(), "cpu");
  EXPECT_EQ(module->target_triple()->str(), hostTargetTriple());
  EXPECT_EQ(module->cpu()->str(), hostBaselineCpu());
  ASSERT_GE(module->code_segment(), 0);
  EXPECT_EQ(m->segments()->Get(uint32_t(module->code_segment()))->kind(),
            SegmentKind::Code);
  ASSERT_EQ(m->memory_spaces()->size(), 1u);
  EXPECT_EQ(m->memory_spaces()->Get(0)->kind(), MemoryKind::Host);
  EXPECT_EQ(m->memory_spaces()->Get(0)->arena_bytes(), 16u);
  EXPECT_EQ(m->plan()->Get(0)->kind()->str(), "kernel");
  EXPECT_EQ(m->plan()->Get(1)->code_module(), 0u);
}

TEST(FormatThree, RefusesAnOlderFormatNamingBothVersions) {
  std::vector<uint8_t> file = addMulModel(4).finish();
  file[8] = 2;
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_UNIMPLEMENTED,
                   "artifact format 2, this runtime reads format 3; "
                   "recompile it with tcc compile");
  tcc::test::TempPath temp("format2_model.bin");
  const std::string &path = temp.path;
  writeFile(path, file);
  tcc_model_t *model = nullptr;
  EXPECT_TCC_ERROR(tcc_model_load_file(path.c_str(), nullptr, &model),
                   TCC_STATUS_UNIMPLEMENTED,
                   path + ": artifact format 2, this runtime reads format 3");
  file[8] = 4;
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_UNIMPLEMENTED,
                   "artifact format 4, this runtime reads format 3; load it "
                   "with a newer runtime");
}

TEST(FormatThree, RefusesAnUnknownStepKindByName) {
  // What a newer writer's step looks like here: a union member this schema
  // lacks (a number) with its kind's name.
  std::vector<uint8_t> file = addMulModel(4).finish(
      [](ModelT &m) { m.plan[1]->kind = "int8_gemm"; });
  uint8_t *type = stepTypeByte(file, 1);
  ASSERT_NE(type, nullptr);
  *type = 17;
  rehashHeader(file);
  EXPECT_TCC_ERROR(
      verify(file), TCC_STATUS_UNIMPLEMENTED,
      "plan step 1: step kind 'int8_gemm' is not known to this "
      "runtime (it runs kernel, sgemm, conv2d, copy, qgemm, qconv2d)");
}

TEST(FormatThree, RefusesAStepWhoseKindContradictsItsOp) {
  auto file =
      addMulModel(4).finish([](ModelT &m) { m.plan[0]->kind = "copy"; });
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_DATA_LOSS,
                   "plan step 0: kind 'copy' but its op is a kernel");
}

TEST(FormatThree, RefusesOutOfRangeModulesAndSpaces) {
  EXPECT_TCC_ERROR(
      verify(addMulModel(4).finish(
          [](ModelT &m) { m.plan[1]->code_module = 5; })),
      TCC_STATUS_DATA_LOSS,
      "plan step 1: code module 5 out of range (1 code modules)");
  EXPECT_TCC_ERROR(
      verify(addMulModel(4).finish(
          [](ModelT &m) { m.kernels[0]->code_module = 2; })),
      TCC_STATUS_DATA_LOSS, "kernel 0: code module 2 out of range");
  EXPECT_TCC_ERROR(
      verify(addMulModel(4).finish([](ModelT &m) { m.buffers[4]->space = 3; })),
      TCC_STATUS_DATA_LOSS,
      "buffer 4: memory space 3 out of range (1 memory spaces)");
  EXPECT_TCC_ERROR(verify(addMulModel(4).finish([](ModelT &m) {
                     m.code_modules[0]->code_segment = 9;
                   })),
                   TCC_STATUS_DATA_LOSS,
                   "code module 0: code segment 9 out of range");
  EXPECT_TCC_ERROR(verify(addMulModel(4).finish([](ModelT &m) {
                     m.code_modules[0]->code_segment = 0; // the constants
                   })),
                   TCC_STATUS_DATA_LOSS,
                   "code module 0: segment 0 is not a code segment");
}

TEST(FormatThree, RunsStepsOfTwoCpuModules) {
  std::vector<uint8_t> file = twoModuleModel().finish();
  ASSERT_TCC_OK(verify(file));
  tcc::runtime::Model model;
  ASSERT_TCC_OK(
      tcc::runtime::Model::loadMemory(file.data(), file.size(), &model));
  Session session;
  ASSERT_TCC_OK(model.createSession(nullptr, &session));
  std::vector<float> x = {1, 2, 3, 4}, y = {1, 1, 1, 1};
  ASSERT_TCC_OK(session.bindInput(0, x.data(), 16));
  ASSERT_TCC_OK(session.bindInput(1, y.data(), 16));
  ASSERT_TCC_OK(session.run());
  const float *z = nullptr;
  ASSERT_TCC_OK(session.output(0, &z));
  EXPECT_EQ(std::vector<float>(z, z + 4), (std::vector<float>{2, 6, 12, 20}));
  // Same input, same bytes.
  EXPECT_EQ(twoModuleModel().finish(), file);
}

TEST(FormatThree, ValidatesEachModuleOfSeveral) {
  // A kernel call runs where its kernel's code is.
  EXPECT_TCC_ERROR(
      verify(twoModuleModel().finish(
          [](ModelT &m) { m.plan[1]->code_module = 0; })),
      TCC_STATUS_DATA_LOSS,
      "plan step 1 (KernelCall): runs on code module 0 but kernel "
      "'tcc_test_mul_f32' is in module 1");
  // Each code segment belongs to one module.
  EXPECT_TCC_ERROR(verify(twoModuleModel().finish([](ModelT &m) {
                     m.code_modules[1]->code_segment =
                         m.code_modules[0]->code_segment;
                   })),
                   TCC_STATUS_DATA_LOSS,
                   "code module 1: segment 1 is already the code of module 0");
  EXPECT_TCC_ERROR(verify(twoModuleModel().finish([](ModelT &m) {
                     m.code_modules[1]->code_segment = -1;
                   })),
                   TCC_STATUS_DATA_LOSS,
                   "segment 2 (code): no code module uses it");
  // The second module's host checks are its own, and named.
  EXPECT_TCC_ERROR(load(twoModuleModel().finish([](ModelT &m) {
                     m.code_modules[1]->cpu_features = {"warp-drive"};
                   })),
                   TCC_STATUS_UNIMPLEMENTED,
                   "code module 1: model requires CPU feature 'warp-drive'");
  EXPECT_TCC_ERROR(load(twoModuleModel().finish([](ModelT &m) {
                     m.code_modules[1]->imports = {"launch_missiles"};
                   })),
                   TCC_STATUS_UNIMPLEMENTED,
                   "code module 1: the code imports 'launch_missiles'");
}

TEST(FormatThree, RefusesAModuleKindWithoutADeviceByName) {
  std::vector<uint8_t> file = withCudaModule().finish();
  // Inspectable (tools read models for other targets), not loadable.
  ASSERT_TCC_OK(verify(file));
  // No device 'cuda' here: no plugin, or the plugin finds no driver.
  Status loaded = load(file);
  EXPECT_FALSE(loaded.ok());
  EXPECT_NE(loaded.message().find("code module 1 of kind 'cuda': "),
            std::string::npos)
      << loaded.message();
  EXPECT_TCC_ERROR(verify(addMulModel(4).finish(
                       [](ModelT &m) { m.code_modules[0]->kind = ""; })),
                   TCC_STATUS_DATA_LOSS,
                   "code module 0: kind is empty or contains a NUL byte");
}

TEST(FormatThree, DeviceMemoryIsValidatedAndComesFromItsModulesDevice) {
  ArtifactBuilder b = withCudaModule();
  uint32_t space = b.addMemorySpace(MemoryKind::Device, 256, 1);
  EXPECT_EQ(space, 1u);
  b.addBuffer(DType::F32, {8}, Storage::Arena, 0, 0, space);
  std::vector<uint8_t> file = b.finish();
  ASSERT_TCC_OK(verify(file));
  EXPECT_NE(load(file).message().find("kind 'cuda'"), std::string::npos);
  // Device memory of the CPU module is the CPU device's (host memory): the
  // add's arena buffer and the constant c moved there give the same result.
  ArtifactBuilder cpuOnly = addMulModel(4);
  cpuOnly.addMemorySpace(MemoryKind::Device, 256, 0);
  cpuOnly.addBuffer(DType::F32, {8}, Storage::Arena, 0, 0, space);
  std::vector<uint8_t> onCpu = cpuOnly.finish([](ModelT &m) {
    m.buffers[3]->space = 1; // c
    m.buffers[4]->space = 1; // t
  });
  tcc::runtime::Model model;
  ASSERT_TCC_OK(
      tcc::runtime::Model::loadMemory(onCpu.data(), onCpu.size(), &model));
  Session session;
  ASSERT_TCC_OK(model.createSession(nullptr, &session));
  std::vector<float> x = {1, 2, 3, 4}, y = {1, 1, 1, 1};
  ASSERT_TCC_OK(session.bindInput(0, x.data(), 16));
  ASSERT_TCC_OK(session.bindInput(1, y.data(), 16));
  ASSERT_TCC_OK(session.run());
  const float *z = nullptr;
  ASSERT_TCC_OK(session.output(0, &z));
  EXPECT_EQ(std::vector<float>(z, z + 4), (std::vector<float>{2, 6, 12, 20}));
  // A device space's arena bounds its buffers; inputs stay in host memory.
  EXPECT_TCC_ERROR(
      verify(b.finish([](ModelT &m) { m.buffers.back()->offset = 240; })),
      TCC_STATUS_DATA_LOSS, "exceed its arena region of 256 bytes");
  EXPECT_TCC_ERROR(
      verify(b.finish([](ModelT &m) { m.buffers[0]->space = 1; })),
      TCC_STATUS_DATA_LOSS,
      "buffer 0: input buffers are host memory, but memory space 1 is "
      "device memory");
  EXPECT_TCC_ERROR(verify(b.finish([](ModelT &m) {
                     m.memory_spaces[1]->code_module = 4;
                   })),
                   TCC_STATUS_DATA_LOSS,
                   "memory space 1: code module 4 out of range");
  EXPECT_TCC_ERROR(verify(b.finish([](ModelT &m) {
                     m.memory_spaces[1]->kind = MemoryKind(7);
                   })),
                   TCC_STATUS_DATA_LOSS, "memory space 1: unknown kind 7");
}

} // namespace
