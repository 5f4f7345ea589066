//===- TestModels.cpp - small artifacts for the runtime tests -------------===//

#include "TestModels.h"

#include "tcc/runtime/ArtifactFormat.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace tcc {
namespace test {

using namespace tcc::artifact;

std::vector<uint8_t> readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw std::runtime_error("cannot read " + path);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

void writeFile(const std::string &path, const std::vector<uint8_t> &bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char *>(bytes.data()),
            std::streamsize(bytes.size()));
  if (!out)
    throw std::runtime_error("cannot write " + path);
}

const std::vector<uint8_t> &testKernels() {
  static const std::vector<uint8_t> elf = readFile(TCC_TEST_KERNELS_PATH);
  return elf;
}

const std::vector<uint8_t> &testKernelsWithLibc() {
  static const std::vector<uint8_t> elf =
      readFile(TCC_TEST_KERNELS_WITH_LIBC_PATH);
  return elf;
}

const char *hostBaselineCpu() {
#if defined(__aarch64__)
  return "generic";
#else
  return "x86-64";
#endif
}

runtime::ArtifactBuilder addMulModel(int64_t n) {
  runtime::ArtifactBuilder b;
  b.model().tcc_version = "test";
  b.model().cpu = hostBaselineCpu();
  uint32_t x = b.addInput("x", DType::F32, {n});
  uint32_t y = b.addInput("y", DType::F32, {n});
  uint32_t z = b.addOutput("z", DType::F32, {n});
  std::vector<float> c(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    c[size_t(i)] = float(i + 1);
  uint32_t cBuf = b.addConstantBuffer(DType::F32, {n}, c.data());
  uint32_t t = b.addArenaBuffer(DType::F32, {n}, 0);
  uint64_t bytes = uint64_t(n) * 4;
  std::vector<KernelBinding> binary = {
      reads(bytes), reads(bytes), writes(bytes)};
  uint32_t add =
      b.addKernel("tcc_test_add_f32", binary, n, {"tcc.add loc(test:1)"});
  uint32_t mul =
      b.addKernel("tcc_test_mul_f32", binary, n, {"tcc.mul loc(test:2)"});
  b.addKernelCall(add, {x, y, t}, {"tcc.add"});
  b.addKernelCall(mul, {t, cBuf, z}, {"tcc.mul"});
  b.setCode(testKernels());
  return b;
}

runtime::ArtifactBuilder expModel(int64_t n) {
  runtime::ArtifactBuilder b;
  uint32_t in = b.addInput("in", DType::F32, {n});
  uint32_t out = b.addOutput("out", DType::F32, {n});
  uint32_t k = b.addKernel("tcc_test_exp_f32",
                           {reads(uint64_t(n) * 4), writes(uint64_t(n) * 4)}, n);
  b.addKernelCall(k, {in, out});
  b.model().imports = {"expf"};
  b.setCode(testKernels());
  return b;
}

runtime::ArtifactBuilder countTilesModel(int64_t tiles) {
  runtime::ArtifactBuilder b;
  uint32_t in = b.addInput("counts", DType::I32, {tiles});
  uint32_t out = b.addOutput("counts", DType::I32, {tiles});
  CopyT copy;
  copy.src = in;
  copy.dst = out;
  copy.bytes = uint64_t(tiles) * 4;
  OpUnion op;
  op.Set(std::move(copy));
  b.addStep(std::move(op));
  uint32_t k =
      b.addKernel("tcc_test_count_tiles", {writes(uint64_t(tiles) * 4)}, tiles);
  b.addKernelCall(k, {out});
  b.setCode(testKernels());
  return b;
}

void rehashHeader(std::vector<uint8_t> &file) {
  uint32_t headerSize;
  std::memcpy(&headerSize, file.data() + 12, 4);
  runtime::ArtifactPreamble p;
  p.formatVersion = runtime::kArtifactFormatVersion;
  p.headerSize = headerSize;
  p.headerHash =
      runtime::hash64(file.data() + runtime::kArtifactPreambleSize, headerSize);
  runtime::encodePreamble(p, file.data());
}

uint32_t addCudaModule(runtime::ArtifactBuilder &b,
                       const std::vector<std::string> &archs, bool cubins) {
  artifact::CodeModuleT cuda;
  cuda.kind = "cuda";
  cuda.cuda = std::make_unique<artifact::CudaCodeT>();
  std::vector<std::vector<uint8_t>> images;
  for (const std::string &arch : archs) {
    auto image = std::make_unique<artifact::CudaImageT>();
    image->arch = arch;
    image->format = artifact::CudaImageFormat::Ptx;
    std::string ptx = "//\n.version 7.8\n.target " + arch +
                      "\n.address_size 64\n";
    images.emplace_back(ptx.begin(), ptx.end());
    cuda.cuda->images.push_back(std::move(image));
    if (cubins) {
      auto cubin = std::make_unique<artifact::CudaImageT>();
      cubin->arch = arch;
      cubin->format = artifact::CudaImageFormat::Cubin;
      images.push_back({0x7f, 'E', 'L', 'F', 2, 1, 1});
      cuda.cuda->images.push_back(std::move(cubin));
    }
  }
  return b.addCodeModule(cuda, {}, std::move(images));
}

} // namespace test
} // namespace tcc
