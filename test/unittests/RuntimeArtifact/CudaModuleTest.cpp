//===- CudaModuleTest.cpp - the artifact's cuda modules -------------------===//
//
// A cuda code module carries PTX (always) and cubin images for one or more
// GPU architectures, and its kernels say how they launch. The validator
// refuses each way these can be wrong, naming what is wrong.
//
//===----------------------------------------------------------------------===//

#include "TestModels.h"
#include "TestStatus.h"

#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/ArtifactFormat.h"

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <set>

using namespace tcc::runtime;
using namespace tcc::artifact;
using namespace tcc::test;

namespace {

Status verify(const std::vector<uint8_t> &file) {
  const Model *m = nullptr;
  return verifyArtifactBytes(file.data(), file.size(), &m);
}

const Model *header(const std::vector<uint8_t> &file) {
  return GetModel(file.data() + kArtifactPreambleSize);
}

std::unique_ptr<GpuLaunchT> launch(std::vector<uint32_t> grid,
                                   std::vector<uint32_t> block,
                                   std::vector<uint32_t> args) {
  auto l = std::make_unique<GpuLaunchT>();
  l->function = "k1_mul";
  l->grid = std::move(grid);
  l->block = std::move(block);
  l->args = std::move(args);
  return l;
}

// addMulModel with its multiply kernel (3 bindings) moved to a cuda module
// for sm_80 and sm_90, launched once as 1 block of 4 threads.
ArtifactBuilder mulOnCuda() {
  ArtifactBuilder b = addMulModel(4);
  uint32_t module = addCudaModule(b, {"sm_80", "sm_90"}, /*cubins=*/true);
  b.model().kernels[1]->code_module = module;
  b.model().kernels[1]->tiles = 1;
  b.model().kernels[1]->gpu_launches.push_back(
      launch({1, 1, 1}, {4, 1, 1}, {0, 1, 2}));
  b.model().plan[1]->code_module = module;
  b.model().plan[1]->op.AsKernelCall()->tiles = 1;
  return b;
}

TEST(CudaModule, ImagesOfSeveralArchitecturesEachHaveTheirSegment) {
  std::vector<uint8_t> file = mulOnCuda().finish();
  ASSERT_TCC_OK(verify(file));
  const CodeModule *cuda = header(file)->code_modules()->Get(1);
  EXPECT_EQ(cuda->kind()->str(), "cuda");
  EXPECT_EQ(cuda->code_segment(), -1);
  const auto *images = cuda->cuda()->images();
  ASSERT_EQ(images->size(), 4u);
  std::set<uint32_t> segments;
  for (const CudaImage *image : *images) {
    const Segment *s = header(file)->segments()->Get(image->segment());
    EXPECT_EQ(s->kind(), SegmentKind::Code);
    segments.insert(image->segment());
    const uint8_t *bytes = file.data() + s->offset();
    if (image->format() == CudaImageFormat::Cubin)
      EXPECT_EQ(bytes[0], 0x7f);
    else
      EXPECT_NE(std::string(bytes, bytes + s->size())
                    .find(".target " + image->arch()->str()),
                std::string::npos);
  }
  EXPECT_EQ(segments.size(), 4u);
  const Kernel *kernel = header(file)->kernels()->Get(1);
  ASSERT_EQ(kernel->gpu_launches()->size(), 1u);
  EXPECT_EQ(kernel->gpu_launches()->Get(0)->block()->Get(0), 4u);
}

TEST(CudaModule, ACudaModuleWithoutImagesIsRefused) {
  ArtifactBuilder b = addMulModel(4);
  CodeModuleT cuda;
  cuda.kind = kCudaModuleKind;
  b.addCodeModule(cuda);
  EXPECT_TCC_ERROR(verify(b.finish()), TCC_STATUS_DATA_LOSS,
                   "code module 1 (cuda): no PTX or cubin images");
}

TEST(CudaModule, ArchitecturesAreNamedAsSmNumbers) {
  for (const char *bad : {"compute_90", "sm_9x", "sm_", "sm_09", "sm_1000"}) {
    ArtifactBuilder b = addMulModel(4);
    addCudaModule(b, {bad});
    EXPECT_TCC_ERROR(verify(b.finish()), TCC_STATUS_DATA_LOSS,
                     std::string("code module 1 (cuda), image 0: '") + bad +
                         "' is not a GPU architecture");
  }
}

TEST(CudaModule, EveryArchitectureKeepsItsPtx) {
  std::vector<uint8_t> file = mulOnCuda().finish([](ModelT &m) {
    // Drop sm_90's PTX (image 2), keeping its cubin.
    auto &images = m.code_modules[1]->cuda->images;
    images.erase(images.begin() + 2);
  });
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_DATA_LOSS,
                   "code module 1 (cuda): sm_90 has a cubin but no PTX");
}

TEST(CudaModule, OneImagePerArchitectureAndFormat) {
  std::vector<uint8_t> file = mulOnCuda().finish([](ModelT &m) {
    m.code_modules[1]->cuda->images[2]->arch = "sm_80";
  });
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_DATA_LOSS,
                   "image 2 (sm_80 Ptx): a second image of this "
                   "architecture and format");
}

TEST(CudaModule, ImageBytesMustBeTheirFormat) {
  // sm_90's PTX read as sm_80's: its .target names another architecture.
  std::vector<uint8_t> file = mulOnCuda().finish([](ModelT &m) {
    std::swap(m.code_modules[1]->cuda->images[0]->segment,
              m.code_modules[1]->cuda->images[2]->segment);
  });
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_DATA_LOSS,
                   "image 0 (sm_80 Ptx): the PTX is not for sm_80 (no "
                   "'.target sm_80')");
  // A PTX image read as a cubin.
  file = mulOnCuda().finish([](ModelT &m) {
    std::swap(m.code_modules[1]->cuda->images[0]->segment,
              m.code_modules[1]->cuda->images[1]->segment);
  });
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_DATA_LOSS,
                   "image 0 (sm_80 Ptx): the PTX has no .version directive");
  file = mulOnCuda().finish([](ModelT &m) {
    m.code_modules[1]->cuda->images[1]->format = CudaImageFormat::Ptx;
    m.code_modules[1]->cuda->images[0]->format = CudaImageFormat::Cubin;
  });
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_DATA_LOSS,
                   "image 0 (sm_80 Cubin): the cubin is not an ELF file");
}

TEST(CudaModule, ImageSegmentsAreCodeSegmentsOfTheirOwn) {
  std::vector<uint8_t> file = mulOnCuda().finish([](ModelT &m) {
    m.code_modules[1]->cuda->images[3]->segment = 99;
  });
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_DATA_LOSS,
                   "image 3 (sm_90 Cubin): segment 99 out of range");
  file = mulOnCuda().finish([](ModelT &m) {
    m.code_modules[1]->cuda->images[3]->segment = 0; // the constants
  });
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_DATA_LOSS,
                   "image 3 (sm_90 Cubin): segment 0 is not a code segment");
  file = mulOnCuda().finish([](ModelT &m) {
    m.code_modules[1]->cuda->images[3]->segment =
        m.code_modules[1]->cuda->images[1]->segment;
  });
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_DATA_LOSS,
                   "is already the code of module 1");
  file = mulOnCuda().finish([](ModelT &m) {
    m.code_modules[1]->code_segment = m.code_modules[0]->code_segment;
  });
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_DATA_LOSS,
                   "code module 1 (cuda): has a code segment");
  file = mulOnCuda().finish([](ModelT &m) {
    m.code_modules[0]->cuda = std::make_unique<CudaCodeT>();
  });
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_DATA_LOSS,
                   "code module 0: a 'cpu' module with CUDA images");
}

TEST(CudaModule, KernelsOfACudaModuleSayHowTheyLaunch) {
  auto refused = [](const std::function<void(ModelT &)> &edit,
                    const std::string &message) {
    EXPECT_TCC_ERROR(verify(mulOnCuda().finish(edit)), TCC_STATUS_DATA_LOSS,
                     message);
  };
  refused([](ModelT &m) { m.kernels[1]->gpu_launches.clear(); },
          "kernel 1 'tcc_test_mul_f32': a kernel of a cuda module with no launches");
  refused([](ModelT &m) { m.kernels[1]->gpu_launches[0]->block = {512, 4, 1}; },
          "kernel 1 'tcc_test_mul_f32', launch 0: 2048 threads per block (at most 1024)");
  refused([](ModelT &m) { m.kernels[1]->gpu_launches[0]->grid = {1, 0, 1}; },
          "kernel 1 'tcc_test_mul_f32', launch 0: a grid or block dimension is 0");
  refused([](ModelT &m) { m.kernels[1]->gpu_launches[0]->grid = {1, 70000, 1}; },
          "launch 0: grid [1,70000,1] exceeds CUDA's limits");
  refused([](ModelT &m) { m.kernels[1]->gpu_launches[0]->block = {4, 1}; },
          "launch 0: grid and block must have 3 dimensions each");
  refused([](ModelT &m) { m.kernels[1]->gpu_launches[0]->args = {0, 3}; },
          "launch 0: parameter 1 is binding 3 of the kernel's 3");
  refused([](ModelT &m) { m.kernels[1]->gpu_launches[0]->function = ""; },
          "launch 0: the function name is empty");
  refused([](ModelT &m) { m.kernels[1]->tiles = 2; },
          "kernel 1 'tcc_test_mul_f32': a GPU kernel runs as 1 tile, not 2");
  refused(
      [](ModelT &m) {
        m.kernels[0]->gpu_launches.push_back(launch({1, 1, 1}, {1, 1, 1}, {}));
      },
      "kernel 0 'tcc_test_add_f32': GPU launches in a 'cpu' module");
}

} // namespace

// c[4 x 5] = a[4 x 3] b[5 x 3]^T + bias, an Sgemm with `ab` operands and c
// (and bias) of `cType`, on a cuda module or (`onCuda` false) the host's;
// buffers of the step's types unless `edit` changes them or the step.
struct HalfGemm {
  DType ab = DType::BF16, c = DType::BF16;
  bool onCuda = true;
  std::optional<DType> aBuffer, biasBuffer; // none: the step's
  int64_t aRows = 4;
  std::function<void(SgemmT &)> edit;
};

std::vector<uint8_t> halfGemm(const HalfGemm &h) {
  ArtifactBuilder b;
  uint32_t a = b.addInput("a", h.aBuffer.value_or(h.ab), {h.aRows, 3});
  uint32_t w = b.addInput("w", h.ab, {5, 3});
  uint32_t bias = b.addInput("bias", h.biasBuffer.value_or(h.c), {5});
  uint32_t c = b.addOutput("c", h.c, {4, 5});
  uint32_t module = h.onCuda ? addCudaModule(b, {"sm_90"}) : 0;
  SgemmT g;
  g.a = a;
  g.b = w;
  g.c = c;
  g.m = 4;
  g.n = 5;
  g.k = 3;
  g.lda = 3;
  g.ldb = 3;
  g.ldc = 5;
  g.trans_b = true;
  g.dtype = h.ab;
  g.c_dtype = h.c;
  g.epilogue = std::make_unique<EpilogueT>();
  g.epilogue->bias = int32_t(bias);
  if (h.edit)
    h.edit(g);
  OpUnion op;
  op.Set(std::move(g));
  b.addStep(std::move(op), {"tcc.linear"}, module);
  return b.finish();
}

TEST(CudaModule, Bf16AndFp16GemmsCarryTheirTypes) {
  for (DType ab : {DType::BF16, DType::F16})
    for (DType c : {ab, DType::F32}) {
      HalfGemm h;
      h.ab = ab;
      h.c = c;
      std::vector<uint8_t> file = halfGemm(h);
      ASSERT_TCC_OK(verify(file));
      const Sgemm *g = header(file)->plan()->Get(0)->op_as_Sgemm();
      EXPECT_EQ(g->dtype(), ab);
      EXPECT_EQ(g->c_dtype(), c);
    }
}

TEST(CudaModule, GemmTypesMustBeOnesCublasLtComputes) {
  HalfGemm h;
  h.ab = DType::I8;
  h.c = DType::I8;
  EXPECT_TCC_ERROR(verify(halfGemm(h)), TCC_STATUS_DATA_LOSS,
                   "plan step 0 (Sgemm): dtype i8 (a and b are f32, bf16 or "
                   "f16)");
  // A dtype this runtime does not know is refused by its number.
  h = HalfGemm();
  h.edit = [](SgemmT &g) { g.dtype = DType(77); };
  EXPECT_TCC_ERROR(verify(halfGemm(h)), TCC_STATUS_DATA_LOSS,
                   "plan step 0 (Sgemm): dtype unknown dtype 77");
  h = HalfGemm();
  h.edit = [](SgemmT &g) { g.c_dtype = DType(77); };
  EXPECT_TCC_ERROR(verify(halfGemm(h)), TCC_STATUS_DATA_LOSS,
                   "c_dtype unknown dtype 77 with bf16 operands");
  // C is fp32 or the operands' type.
  h = HalfGemm();
  h.c = DType::F16;
  EXPECT_TCC_ERROR(verify(halfGemm(h)), TCC_STATUS_DATA_LOSS,
                   "c_dtype f16 with bf16 operands (c is f32 or the "
                   "operands' type)");
  // TF32 rounds fp32 operands only; the CPU's packing is fp32.
  h = HalfGemm();
  h.edit = [](SgemmT &g) { g.tf32 = true; };
  EXPECT_TCC_ERROR(verify(halfGemm(h)), TCC_STATUS_DATA_LOSS,
                   "tf32 with bf16 operands");
  h = HalfGemm();
  h.edit = [](SgemmT &g) { g.b_packed = true; };
  EXPECT_TCC_ERROR(verify(halfGemm(h)), TCC_STATUS_DATA_LOSS,
                   "packed b with bf16 operands");
}

TEST(CudaModule, HalfPrecisionGemmsRunOnCudaModulesOnly) {
  // tcc_sgemm computes fp32 alone.
  HalfGemm h;
  h.onCuda = false;
  EXPECT_TCC_ERROR(verify(halfGemm(h)), TCC_STATUS_DATA_LOSS,
                   "plan step 0 (Sgemm): bf16 operands run on cuda modules "
                   "only, not on module 0 of kind 'cpu'");
}

TEST(CudaModule, GemmBuffersMustHoldTheStepsTypesAndSizes) {
  HalfGemm h;
  h.aBuffer = DType::F32;
  EXPECT_TCC_ERROR(verify(halfGemm(h)), TCC_STATUS_DATA_LOSS,
                   "plan step 0 (Sgemm): a: dtype f32, expected bf16");
  // cuBLASLt's bias has D's type.
  h = HalfGemm();
  h.biasBuffer = DType::F32;
  EXPECT_TCC_ERROR(verify(halfGemm(h)), TCC_STATUS_DATA_LOSS,
                   "plan step 0 (Sgemm): epilogue bias: dtype f32, expected "
                   "bf16");
  h = HalfGemm();
  h.c = DType::F32;
  h.biasBuffer = DType::BF16;
  EXPECT_TCC_ERROR(verify(halfGemm(h)), TCC_STATUS_DATA_LOSS,
                   "epilogue bias: dtype bf16, expected f32");
  // Elements counted in the step's type: 3 rows of a for 4.
  h = HalfGemm();
  h.aRows = 3;
  EXPECT_TCC_ERROR(verify(halfGemm(h)), TCC_STATUS_DATA_LOSS,
                   "plan step 0 (Sgemm): a: accesses 12 elements but the "
                   "buffer has 9");
}

TEST(CudaModule, AStepWithoutTypesIsFp32AsOlderRuntimesRead) {
  // The fields default to f32 (artifacts written before them), and a
  // runtime that reads neither field refuses bf16 buffers by their dtype,
  // as this one does with the fields left out.
  HalfGemm h;
  h.edit = [](SgemmT &g) {
    g.dtype = DType::F32;
    g.c_dtype = DType::F32;
  };
  EXPECT_TCC_ERROR(verify(halfGemm(h)), TCC_STATUS_DATA_LOSS,
                   "plan step 0 (Sgemm): a: dtype bf16, expected f32");
}
