//===- DeviceSteps.cpp - what each plan step does on the GPU --------------===//

#include "DeviceSteps.h"

#include <limits>

namespace tcc {
namespace cuda {

using namespace tcc::artifact;
using runtime::Status;

namespace {

Status refuse(const std::string &why) {
  return Status(TCC_STATUS_UNIMPLEMENTED, why);
}

// cuBLASLt's type of a GEMM operand's dtype (those the validator lets an
// Sgemm on a cuda module have).
bool cudaType(DType dtype, cudaDataType_t *out) {
  switch (dtype) {
  case DType::F32:
    *out = CUDA_R_32F;
    return true;
  case DType::BF16:
    *out = CUDA_R_16BF;
    return true;
  case DType::F16:
    *out = CUDA_R_16F;
    return true;
  default:
    return false;
  }
}

} // namespace

Status planLtGemm(const Sgemm &g, LtGemm *out) {
  *out = LtGemm();
  if (g.b_packed())
    return refuse("b is packed for the CPU's microkernels");
  if (g.k() == 0)
    return refuse("k is 0");
  if (g.batch() > std::numeric_limits<int32_t>::max())
    return refuse("batch " + std::to_string(g.batch()) + " exceeds int32");
  const Epilogue *e = g.epilogue();
  bool bias = e && e->bias() >= 0;
  if (e && e->bias_per_row() && bias)
    return refuse("a bias per row (cuBLASLt adds one per column)");
  Activation act = e ? e->activation() : Activation::None;
  switch (act) {
  case Activation::None:
    out->epilogue = bias ? CUBLASLT_EPILOGUE_BIAS : CUBLASLT_EPILOGUE_DEFAULT;
    break;
  case Activation::Relu:
    out->epilogue = bias ? CUBLASLT_EPILOGUE_RELU_BIAS : CUBLASLT_EPILOGUE_RELU;
    break;
  case Activation::GeluTanh: // cuBLASLt's GELU is the tanh form
    out->epilogue = bias ? CUBLASLT_EPILOGUE_GELU_BIAS : CUBLASLT_EPILOGUE_GELU;
    break;
  default:
    return refuse(std::string("activation ") + EnumNameActivation(act) +
                  " (cuBLASLt applies ReLU and tanh-GELU only)");
  }
  // Row-major tcc, column-major cuBLASLt: D^T = op(B)^T op(A)^T. A
  // row-major r x c matrix with leading dimension ld is the column-major
  // c x r matrix with the same ld.
  out->compute = g.tf32() ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
  if (!cudaType(g.dtype(), &out->abType) ||
      !cudaType(g.c_dtype(), &out->cdType))
    return refuse(std::string("dtype ") + EnumNameDType(g.dtype()) +
                  " with c_dtype " + EnumNameDType(g.c_dtype()) +
                  " (cuBLASLt takes F32, BF16 or F16)");
  out->rows = uint64_t(g.n());
  out->cols = uint64_t(g.m());
  out->inner = uint64_t(g.k());
  out->a = g.b();
  out->transA = g.trans_b() ? CUBLAS_OP_T : CUBLAS_OP_N;
  out->aRows = uint64_t(g.trans_b() ? g.k() : g.n());
  out->aCols = uint64_t(g.trans_b() ? g.n() : g.k());
  out->lda = g.ldb();
  out->strideA = g.b_batch_stride();
  out->b = g.a();
  out->transB = g.trans_a() ? CUBLAS_OP_T : CUBLAS_OP_N;
  out->bRows = uint64_t(g.trans_a() ? g.m() : g.k());
  out->bCols = uint64_t(g.trans_a() ? g.k() : g.m());
  out->ldb = g.lda();
  out->strideB = g.a_batch_stride();
  out->d = g.c();
  out->ldc = g.ldc();
  out->strideC = g.c_batch_stride();
  out->batch = int32_t(g.batch());
  out->alpha = e ? e->alpha() : 1.0f;
  out->bias = bias ? e->bias() : -1;
  out->residual = e ? e->residual() : -1;
  out->beta = out->residual >= 0 ? e->beta() : 0.0f;
  return Status();
}

Status planDeviceSteps(const Model &model, std::vector<DeviceStep> *out) {
  out->clear();
  const auto *plan = model.plan();
  for (uint32_t i = 0; plan && i < plan->size(); ++i) {
    const Step *step = plan->Get(i);
    DeviceStep d;
    std::string where = "plan step " + std::to_string(i);
    if (const KernelCall *call = step->op_as_KernelCall()) {
      const Kernel *kernel = model.kernels()->Get(call->kernel());
      d.kind = DeviceStep::Kind::Launches;
      d.kernel = call->kernel();
      d.name = "kernel '" + kernel->symbol()->str() + "'";
      for (const GpuLaunch *l : *kernel->gpu_launches()) { // validated
        Launch launch;
        launch.function = l->function()->str();
        for (uint32_t k = 0; k < 3; ++k) {
          launch.grid[k] = l->grid()->Get(k);
          launch.block[k] = l->block()->Get(k);
        }
        launch.sharedBytes = l->shared_bytes();
        for (uint32_t a = 0; l->args() && a < l->args()->size(); ++a)
          launch.args.push_back(call->bindings()->Get(l->args()->Get(a)));
        d.launches.push_back(std::move(launch));
      }
    } else if (const Sgemm *g = step->op_as_Sgemm()) {
      d.kind = DeviceStep::Kind::Gemm;
      d.name = "sgemm";
      Status s = planLtGemm(*g, &d.gemm);
      if (!s.ok())
        return Status(s.code(), "cuda: " + where + " (sgemm): " + s.message());
    } else if (const Copy *c = step->op_as_Copy()) {
      d.kind = DeviceStep::Kind::Copy;
      d.name = "copy";
      d.src = c->src();
      d.dst = c->dst();
      d.bytes = c->bytes();
    } else {
      return refuse("cuda: " + where + " (" + step->kind()->str() +
                    "): this step kind does not run on the cuda device yet");
    }
    out->push_back(std::move(d));
  }
  return Status();
}

void packLaunchArgs(const Launch &launch,
                    const std::vector<uint64_t> &bufferAddresses,
                    LaunchArgs *out) {
  out->values.clear();
  for (uint32_t buffer : launch.args)
    out->values.push_back(bufferAddresses[buffer]);
  out->params.clear();
  for (uint64_t &value : out->values)
    out->params.push_back(&value);
}

} // namespace cuda
} // namespace tcc
