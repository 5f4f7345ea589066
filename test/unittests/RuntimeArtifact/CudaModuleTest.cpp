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
