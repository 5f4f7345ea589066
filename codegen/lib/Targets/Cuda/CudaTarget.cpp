//===- CudaTarget.cpp - NVIDIA GPUs ---------------------------------------===//
//
// Kernels lowered through MLIR's GPU dialect to NVVM, compiled by LLVM's
// NVPTX backend to PTX for each requested architecture and by ptxas, where
// the CUDA toolkit is installed, to cubins (GpuCompiler.cpp). The plan runs
// on the device "cuda": its steps, arena and constants go to a cuda code
// module and its device memory; code module 0 stays, without code, for the
// host's inputs and outputs.
//
// fp32 matmuls and linears, with the epilogues cuBLASLt applies, are Sgemm
// steps on the cuda module for the device to run through cuBLASLt (in TF32
// with --allow-tf32), and so are bf16 and fp16 ones (--precision's, from
// tcc-autocast), their Sgemm.dtype saying so. So are convolutions of one
// group in those types, after an im2col kernel in their type (ConvAsGemm.h;
// --cuda-conv=direct keeps them generated kernels). docs/cuda.md lists
// what is missing.
//
//===----------------------------------------------------------------------===//

#include "ConvAsGemm.h"
#include "GemmTypes.h"
#include "GpuPipeline.h"

#include "../../ArtifactDraft.h"
#include "../Cpu/LibraryCalls.h"

#include "tcc/Codegen/Target.h"
#include "tcc/IR/TccOps.h"
#include "tcc/runtime/ArtifactFormat.h"

#include "llvm/ADT/StringExtras.h"

#include <map>

using namespace mlir;
using namespace mlir::tcc;
namespace artifact = ::tcc::artifact;

namespace {

/// The architectures `--gpu` takes: those of LLVM 19's NVPTX backend that
/// CUDA 12 and 13 still support, Ampere and newer.
constexpr const char *kArchitectures[] = {"sm_80", "sm_86", "sm_87", "sm_89",
                                          "sm_90"};
constexpr const char *kDefaultArchitecture = "sm_80";

/// fp32 matmuls and linears are Sgemm steps on the cuda module, which the
/// device runs through cuBLASLt, and so are bf16 and fp16 ones (what
/// tcc-autocast makes of fp32 ones; cuBLASLt accumulates them in fp32, as
/// autocast's matmul does): D = act(alpha * A B + bias + beta * C),
/// with the activations cuBLASLt's epilogues have (ReLU, tanh-GELU) and a
/// residual through beta * C, added before the activation as tcc's
/// epilogue adds it. Anything else is a generated epilogue kernel.
///
/// How convolutions run is the one thing the two configurations differ in.
/// Under --cuda-conv=gemm (the default) fp32, bf16 and fp16 convolutions of
/// one group are GEMMs too: they run channels-last, so that the output's
/// channels are the GEMM's columns (the bias per column, as cuBLASLt applies
/// it), and fuse their epilogue. Under --cuda-conv=direct they stay NCHW
/// generated kernels, one thread per output element. Depthwise and grouped
/// convolutions are generated kernels either way.
class CudaCapabilities final : public TargetCapabilities {
public:
  explicit CudaCapabilities(bool convolutionsAsGemm)
      : convolutionsAsGemm(convolutionsAsGemm) {}

  StringRef name() const override { return "cuda"; }
  bool isEpilogueAnchor(Operation *op) const override {
    if (isa<Conv2dOp>(op))
      return convolutionsAsGemm && cuda::isGemmConvolution(op);
    return isa<MatmulOp, LinearOp>(op) && (cpu::isLibraryCallAnchor(op) ||
                                           cuda::hasHalfPrecisionGemmTypes(op));
  }
  bool appliesActivation(EpilogueActivation activation) const override {
    return activation == EpilogueActivation::None ||
           activation == EpilogueActivation::Relu ||
           activation == EpilogueActivation::GeluTanh;
  }
  bool prefersChannelsLast() const override { return convolutionsAsGemm; }
  // NCHW convolutions would be generated kernels, which are far slower
  // than a GEMM and two transposes.
  bool channelsLastConvolutionsPayTransposes() const override {
    return convolutionsAsGemm;
  }
  // cudaMalloc's alignment, which keeps every buffer's accesses coalesced.
  uint64_t bufferAlignment() const override { return 256; }

  /// Whether convolutions are im2col and a GEMM (else generated kernels).
  const bool convolutionsAsGemm;
};

/// The registry's (and tcc-opt's) are the default configuration's.
const CudaCapabilities &capabilities(bool convolutionsAsGemm = true) {
  static const CudaCapabilities gemm(true), direct(false);
  return convolutionsAsGemm ? gemm : direct;
}

class CudaTarget final : public Target {
public:
  CudaTarget(std::vector<std::string> archs, bool allowTf32,
             bool convolutionsAsGemm)
      : archs(std::move(archs)), allowTf32(allowTf32),
        caps(::capabilities(convolutionsAsGemm)) {}

  const TargetCapabilities &capabilities() const override { return caps; }

  CodeModuleIdentity codeIdentity() const override {
    return {"nvptx64-nvidia-cuda", archs.front(), {}};
  }

  bool lowerLibraryCall(PlanBuilder &plan, const Epilogue &group,
                        function_ref<Value(Value)> outside,
                        Value result) const override {
    if (isa<Conv2dOp>(group.anchor)) {
      if (!caps.isEpilogueAnchor(group.anchor))
        return false;
      cuda::lowerConvAsGemm(plan, group, outside, result);
      return true;
    }
    // The Sgemm step as the CPU writes it, with B as stored (cuBLASLt
    // reads it in place); placeCode puts it on the cuda module. Integer
    // layers stay generated kernels: the int8 kernels are CPU code.
    return cpu::lowerLibraryCall(plan, group, outside, result, capabilities(),
                                 {/*packWeights=*/false,
                                  /*convolutions=*/false,
                                  /*quantized=*/false});
  }

  FailureOr<KernelObject>
  compileKernels(ModuleOp kernels,
                 const std::function<void(PassManager &)> &configure,
                 const CompileProgressFn &progress) const override {
    return cuda::compileGpuKernels(kernels, archs, configure, progress);
  }

  void placeCode(ArtifactDraft &artifact, KernelObject object,
                 uint64_t arenaBytes) const override;

private:
  std::vector<std::string> archs;
  /// --allow-tf32: the Sgemm steps may round their operands to TF32.
  bool allowTf32;
  const CudaCapabilities &caps;
};

void CudaTarget::placeCode(ArtifactDraft &artifact, KernelObject object,
                           uint64_t arenaBytes) const {
  ::tcc::runtime::ArtifactBuilder &builder = artifact.builder;
  artifact::CodeModuleT module;
  module.kind = ::tcc::runtime::kCudaModuleKind;
  module.cuda = std::make_unique<artifact::CudaCodeT>();
  std::vector<std::vector<uint8_t>> images;
  for (GpuImage &image : object.gpuImages) {
    auto entry = std::make_unique<artifact::CudaImageT>();
    entry->arch = image.arch;
    entry->format = image.cubin ? artifact::CudaImageFormat::Cubin
                                : artifact::CudaImageFormat::Ptx;
    module.cuda->images.push_back(std::move(entry));
    images.push_back(std::move(image.bytes));
  }
  uint32_t index = builder.addCodeModule(module, {}, std::move(images));
  uint32_t space = builder.addMemorySpace(artifact::MemoryKind::Device,
                                          arenaBytes, index);
  ::tcc::runtime::ModelDraft &model = builder.model();
  // Module 0 holds no code: no triple, so that any host runs it.
  model.arena_bytes = 0;
  model.target_triple.clear();
  model.cpu.clear();
  for (auto &buffer : model.buffers)
    if (buffer->storage == artifact::Storage::Arena ||
        buffer->storage == artifact::Storage::Constant)
      buffer->space = space;
  std::map<std::string, const CompiledKernel *> compiled;
  for (const CompiledKernel &kernel : object.kernels)
    compiled[kernel.symbol] = &kernel;
  for (auto &kernel : model.kernels) {
    kernel->code_module = index;
    for (const GpuLaunch &launch : compiled.at(kernel->symbol)->launches) {
      auto entry = std::make_unique<artifact::GpuLaunchT>();
      entry->function = launch.function;
      entry->grid.assign(launch.grid, launch.grid + 3);
      entry->block.assign(launch.block, launch.block + 3);
      entry->shared_bytes = launch.sharedBytes;
      entry->args = launch.args;
      kernel->gpu_launches.push_back(std::move(entry));
    }
  }
  for (auto &step : model.plan) {
    step->code_module = index;
    if (auto *gemm = step->op.AsSgemm())
      gemm->tf32 = allowTf32 && gemm->dtype == artifact::DType::F32;
  }
}

std::unique_ptr<Target> create(const TargetRequest &request,
                               std::string *error) {
  if (!request.cpu.empty() || !request.features.empty() ||
      !request.triple.empty()) {
    *error = "--cpu, --features and --target-triple apply to CPU targets; "
             "the cuda target takes --gpu";
    return nullptr;
  }
  std::vector<std::string> archs;
  SmallVector<StringRef> names;
  // Both arms StringRefs: `cond ? const char * : std::string` would be a
  // temporary string that dies before `names` is read.
  StringRef gpus = request.gpu.empty() ? StringRef(kDefaultArchitecture)
                                       : StringRef(request.gpu);
  gpus.split(names, ',', -1, /*KeepEmpty=*/false);
  for (StringRef name : names) {
    name = name.trim();
    if (!llvm::is_contained(kArchitectures, name)) {
      *error = "unknown GPU architecture '" + name.str() +
               "' (architectures: " +
               llvm::join(std::begin(kArchitectures), std::end(kArchitectures),
                          ", ") +
               ")";
      return nullptr;
    }
    if (!llvm::is_contained(archs, name))
      archs.push_back(name.str());
  }
  if (archs.empty()) {
    *error = "--gpu names no architecture";
    return nullptr;
  }
  llvm::sort(archs);
  if (!request.cudaConv.empty() && request.cudaConv != "gemm" &&
      request.cudaConv != "direct") {
    *error = "--cuda-conv takes gemm or direct, not '" + request.cudaConv +
             "'";
    return nullptr;
  }
  return std::make_unique<CudaTarget>(std::move(archs), request.allowTf32,
                                      request.cudaConv != "direct");
}

} // namespace

namespace mlir::tcc {
TargetRegistration registerCudaTarget() {
  return {"cuda", "",
          []() -> const TargetCapabilities & { return capabilities(); },
          &create, /*takesGpuArchitectures=*/true};
}
} // namespace mlir::tcc
