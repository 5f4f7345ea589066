//===- LinearModel.cpp - a small cuda model for the plugin's tests --------===//

#include "LinearModel.h"

#include "TestModels.h"

using namespace tcc::artifact;

namespace tcc {
namespace test {

LinearModel linearModel(const std::vector<std::vector<uint8_t>> *images,
                        const std::vector<std::string> &archs,
                        uint32_t sharedBytes) {
  LinearModel m;
  for (int64_t i = 0; i < N * K; ++i)
    m.w.push_back(0.1f * float(i % 7) - 0.3f);
  for (int64_t i = 0; i < N; ++i)
    m.bias.push_back(0.05f * float(i) - 0.1f);
  for (int64_t i = 0; i < M * N; ++i)
    m.c.push_back(1.0f + 0.25f * float(i % 3));
  runtime::ArtifactBuilder b;
  uint32_t x = b.addInput("x", DType::F32, {M, K});
  uint32_t r = b.addInput("r", DType::F32, {M, N});
  uint32_t y = b.addOutput("y", DType::F32, {M, N});
  uint32_t z = b.addOutput("z", DType::F32, {M, N});
  uint32_t w = b.addConstantBuffer(DType::F32, {N, K}, m.w.data());
  uint32_t bias = b.addConstantBuffer(DType::F32, {N}, m.bias.data());
  uint32_t c = b.addConstantBuffer(DType::F32, {M, N}, m.c.data());
  uint32_t t = b.addArenaBuffer(DType::F32, {M, N}, 0);
  uint32_t module;
  if (images) {
    CodeModuleT cuda;
    cuda.kind = "cuda";
    cuda.cuda = std::make_unique<CudaCodeT>();
    for (const std::string &arch : archs) {
      auto image = std::make_unique<CudaImageT>();
      image->arch = arch;
      cuda.cuda->images.push_back(std::move(image));
    }
    module = b.addCodeModule(cuda, {}, *images);
  } else {
    module = addCudaModule(b, archs, /*cubins=*/true);
  }

  SgemmT g;
  g.a = x;
  g.b = w;
  g.c = t;
  g.m = M;
  g.n = N;
  g.k = K;
  g.lda = K;
  g.ldb = K;
  g.ldc = N;
  g.trans_b = true;
  g.epilogue = std::make_unique<EpilogueT>();
  g.epilogue->bias = int32_t(bias);
  g.epilogue->residual = int32_t(r);
  g.epilogue->beta = 0.5f;
  g.epilogue->activation = Activation::Relu;
  OpUnion gemm;
  gemm.Set(std::move(g));
  b.addStep(std::move(gemm), {"tcc.linear"}, module);

  uint64_t bytes = M * N * 4;
  uint32_t mul =
      b.addKernel("k_mul", {reads(bytes), reads(bytes), writes(bytes)}, 1,
                  {"tcc.mul"}, module);
  auto launch = std::make_unique<GpuLaunchT>();
  launch->function = "k_mul_fn";
  launch->grid = {1, 1, 1};
  launch->block = {uint32_t(M * N), 1, 1};
  launch->args = {2, 0, 1}; // y, t, c
  launch->shared_bytes = sharedBytes;
  b.model().kernels[mul]->gpu_launches.push_back(std::move(launch));
  b.addKernelCall(mul, {t, c, y}, {"tcc.mul"});
  b.model().plan.back()->code_module = module;

  CopyT copy;
  copy.src = t;
  copy.dst = z;
  copy.bytes = bytes;
  OpUnion op;
  op.Set(std::move(copy));
  b.addStep(std::move(op), {}, module);
  m.file = b.finish();
  return m;
}

void linearReference(const LinearModel &m, const std::vector<float> &x,
                     const std::vector<float> &r, std::vector<double> *y,
                     std::vector<double> *z) {
  y->assign(M * N, 0);
  z->assign(M * N, 0);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double s = m.bias[size_t(j)] + 0.5 * double(r[size_t(i * N + j)]);
      for (int64_t p = 0; p < K; ++p)
        s += double(x[size_t(i * K + p)]) * double(m.w[size_t(j * K + p)]);
      s = s > 0 ? s : 0;
      (*z)[size_t(i * N + j)] = s;
      (*y)[size_t(i * N + j)] = s * double(m.c[size_t(i * N + j)]);
    }
}

void linearInputs(int seed, std::vector<float> *x, std::vector<float> *r) {
  x->resize(M * K);
  r->resize(M * N);
  for (size_t i = 0; i < x->size(); ++i)
    (*x)[i] = float(int(i * 7 + size_t(seed) * 3) % 11) * 0.2f - 1.0f;
  for (size_t i = 0; i < r->size(); ++i)
    (*r)[i] = float(int(i * 5 + size_t(seed)) % 9) * 0.1f - 0.4f;
}

} // namespace test
} // namespace tcc
